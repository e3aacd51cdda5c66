/**
 * Puts the node's service on the wire as grpc-js unary handlers: each handler calls the method through the step every
 * door shares (port.ts callService: a defect logged and answered INTERNAL, every call observed) and answers through
 * the callback, a failure as the status code, details and ErrorInfo trailer of its NodeCallError (errors.ts);
 * nothing escapes to crash the process. SubmitBlock aborts its PoW job when the call is cancelled, and QueryOutputs
 * its index scan.
 */
import type { handleUnaryCall, sendUnaryData, ServerUnaryCall, ServiceError } from '@grpc/grpc-js';
import type { NodeServiceServer } from '../../grpc/gen/node.ts';
import { NODE_METHODS, rpcName, type NodeCallError } from '../../grpc/port.ts';
import { NodeError } from '../support/errors.ts';
import type { Logger } from '../logger.ts';
import { serviceErrorOf, toServiceError } from './errors.ts';
import { callService, takesSignal, type ServiceFn, type ServiceMethods } from './port.ts';

/**
 * Told about every answered call: the method, its gRPC status name (OK, NOT_FOUND, ...), its seconds, and, on the gRPC
 * port, whether it came as a unary call or over the mux (`transport`; absent: unary).
 */
export type CallObserver = (method: string, code: string, seconds: number, transport?: 'grpc' | 'mux') => void;

/**
 * grpc-js may throw while it writes an answer (a message it cannot serialize, a status it cannot carry): that fails
 * this call with INTERNAL, never the process (a throw here would be an unhandled rejection).
 */
function answer(
  name: string,
  logger: Logger,
  callback: sendUnaryData<unknown>,
  err: ServiceError | null,
  res?: unknown,
): void {
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
}

/**
 * The gRPC server's handlers of `service`, one per method of the generated definition (src/grpc/port.ts NODE_METHODS):
 * the methods that take an AbortSignal (SubmitBlock, QueryOutputs) get one aborted when the call is cancelled.
 */
export function nodeServiceHandlers(
  service: ServiceMethods,
  logger: Logger,
  observe?: CallObserver,
): NodeServiceServer {
  const handlers: Record<string, handleUnaryCall<unknown, unknown>> = {};
  const options = { logger, ...(observe ? { observe } : {}) };
  for (const method of NODE_METHODS) {
    const fn = service[method] as ServiceFn | undefined;
    if (fn === undefined) continue; // a partial service (a test's): grpc-js answers UNIMPLEMENTED
    const name = rpcName(method);
    const withSignal = takesSignal(fn);
    handlers[method] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      let signal: AbortSignal | undefined;
      if (withSignal) {
        const cancelled = new AbortController();
        call.once('cancelled', () => cancelled.abort(new Error('the client cancelled the call')));
        signal = cancelled.signal;
      }
      callService(service, fn, name, call.request, signal, options).then(
        (res) => answer(name, logger, callback, null, res),
        (err: NodeCallError) => answer(name, logger, callback, serviceErrorOf(err)),
      );
    };
  }
  return handlers as unknown as NodeServiceServer;
}
