/**
 * Puts NodeServiceImpl on the wire: each unary handler awaits the method and answers through the callback.
 * Every rejection crosses the wire through `toServiceError` (status code + ErrorInfo details trailer).
 * Anything that is not a NodeError / ProtocolError is unexpected: its stack is logged and the call answers
 * INTERNAL; nothing escapes to crash the process. SubmitBlock aborts its PoW job when the call is cancelled, and
 * QueryOutputs its index scan.
 */
import { status, type handleUnaryCall, type ServerUnaryCall, type sendUnaryData, type ServiceError } from '@grpc/grpc-js';
import type { NodeServiceServer } from '../../grpc/gen/node.ts';
import { NodeError } from '../support/errors.ts';
import { defectMessage, isDomainError, toServiceError } from './errors.ts';
import type { Logger } from '../logger.ts';
import { NODE_METHODS, rpcName } from '../../grpc/port.ts';
import { takesSignal, type ServiceMethods } from './port.ts';


/** Told about every answered call: the method, its gRPC status name (OK, NOT_FOUND, ...) and its seconds. */
export type CallObserver = (method: string, code: string, seconds: number) => void;

function unaryHandler<Req, Res>(name: string, logger: Logger, run: (req: Req, call: ServerUnaryCall<Req, Res>) => Promise<Res>, observe?: CallObserver): handleUnaryCall<Req, Res> {
  return (call: ServerUnaryCall<Req, Res>, rawCallback: sendUnaryData<Res>) => {
    const t0 = observe ? performance.now() : 0;
    const callback: sendUnaryData<Res> = observe
      ? (err, res) => {
          observe(name, status[err?.code ?? status.OK] ?? String(err?.code), (performance.now() - t0) / 1000);
          rawCallback(err, res);
        }
      : rawCallback;
    let p: Promise<Res>;
    try {
      p = run(call.request, call);
    } catch (e) {
      p = Promise.reject(e);
    }
    // grpc-js may throw while it writes an answer (a message it cannot serialize, a status it cannot carry): that
    // fails this call with INTERNAL, never the process (a throw here would be an unhandled rejection).
    const answer = (err: ServiceError | null, res?: Res): void => {
      try {
        callback(err, res);
      } catch (e) {
        logger.error(`${name}: the answer could not be sent`, e);
        try {
          callback(toServiceError(new NodeError('INTERNAL', `${name} failed: the answer could not be sent`)));
        } catch {
          // the call is beyond answering (grpc-js closed it); nothing else depends on it
        }
      }
    };
    p.then(
      (res) => answer(null, res),
      (e: unknown) => {
        if (!isDomainError(e)) {
          logger.error(`${name} failed unexpectedly`, e);
          answer(toServiceError(new NodeError('INTERNAL', defectMessage(name, e))));
          return;
        }
        answer(toServiceError(e));
      },
    );
  };
}

/**
 * The gRPC server's handlers of `service`, one per method of the generated definition (src/grpc/port.ts NODE_METHODS):
 * the methods that take an AbortSignal (SubmitBlock, QueryOutputs) get one aborted when the call is cancelled.
 */
export function nodeServiceHandlers(service: ServiceMethods, logger: Logger, observe?: CallObserver): NodeServiceServer {
  const handlers: Record<string, unknown> = {};
  for (const method of NODE_METHODS) {
    const fn = service[method] as ((request: unknown, signal?: AbortSignal) => Promise<unknown>) | undefined;
    if (fn === undefined) continue; // a partial service (a test's): grpc-js answers UNIMPLEMENTED
    const run = takesSignal(fn)
      ? (req: unknown, call: ServerUnaryCall<unknown, unknown>) => {
          const cancelled = new AbortController();
          call.once('cancelled', () => cancelled.abort(new Error('the client cancelled the call')));
          return fn.call(service, req, cancelled.signal);
        }
      : (req: unknown) => fn.call(service, req);
    handlers[method] = unaryHandler(rpcName(method), logger, run, observe);
  }
  return handlers as unknown as NodeServiceServer;
}
