/**
 * The node's service as the gateway's port (src/grpc/port.ts) in this process: what `ledger-node run` hands its REST
 * gateway. Each call is the service's method called directly: the request and the answer are the same objects on
 * both sides (no copy, no encoding, no metadata). Around the call, what a transport would do:
 *   * a thrown domain error becomes NodeCallError with the gRPC status of its code and its description, as the gRPC
 *     server puts it on the wire (errors.ts), so the REST answer is the same over every transport; anything else is
 *     a defect: logged with its stack, answered INTERNAL "<Method> failed: <message>" (callService below, the step
 *     the gRPC handlers and the NodeMux server take too);
 *   * `deadline` ends the call for the caller (DEADLINE_EXCEEDED), `signal` the calls of the methods that take an
 *     AbortSignal (CANCELLED), and both abort the work of those (SubmitBlock's proof of work, QueryOutputs' scan); a
 *     later answer is dropped. The other methods never read `signal` (a read has no work to stop, and the HTTP answer
 *     of a gone client is dropped anyway): a route's signal (gateway/node-client.ts) is made only when read, and an
 *     AbortSignal with its listeners costs more than the rest of an in-process read;
 *   * each call is told to `observe` (the metrics, transport label 'in-process') when the service has answered;
 *   * after `close()` calls fail UNAVAILABLE without details (the gateway answers 503 "node unreachable").
 */
import { DeadlineTimer, MAX_TIMER_MS, type Expiring } from '../../grpc/deadline-timer.ts';
import {
  NODE_METHODS,
  NodeCallError,
  rpcName,
  type AnswerOf,
  type NodeMethod,
  type NodePort,
  type RequestOf,
} from '../../grpc/port.ts';
import { GrpcStatus } from '../../grpc/status.ts';
import type { Logger } from '../logger.ts';
import { defectMessage, describeError, grpcCodeOf, isDomainError } from './errors.ts';
import type { CallObserver } from './handlers.ts';

/**
 * The service as the node implements it (NodeServiceImpl): each method, with the call's AbortSignal for those
 * that take one.
 */
export type ServiceMethods = {
  readonly [M in NodeMethod]: (request: RequestOf<M>, signal?: AbortSignal) => Promise<AnswerOf<M>>;
};

/** Whether a method takes the call's AbortSignal (its second parameter): only then is one made for it. */
export function takesSignal(fn: ((...args: never[]) => unknown) | undefined): boolean {
  return fn !== undefined && fn.length >= 2;
}

/** What a service method's rejection becomes for the caller: a NodeCallError (a defect logged, answered INTERNAL). */
export function callErrorOf(name: string, err: unknown, logger: Logger): NodeCallError {
  if (err instanceof NodeCallError) return err;
  if (isDomainError(err)) {
    const d = describeError(err);
    return NodeCallError.described(name, grpcCodeOf(d.code), d);
  }
  logger.error(`${name} failed unexpectedly`, err);
  return NodeCallError.described(name, GrpcStatus.INTERNAL, { code: 'INTERNAL', message: defectMessage(name, err) });
}

/** A method of the service as the node's doors call it. */
export type ServiceFn = (request: unknown, signal?: AbortSignal) => Promise<unknown>;

/**
 * The step every door of the node takes to call the service (this port, the gRPC handlers of handlers.ts, the NodeMux
 * server of mux-server.ts): `fn` of `service` (proto name `name`) with `signal`; its answer, or the NodeCallError its
 * failure becomes (callErrorOf: a defect logged; a method that throws rejects too); told to `observe` once settled.
 */
export function callService(
  service: object,
  fn: ServiceFn,
  name: string,
  request: unknown,
  signal: AbortSignal | undefined,
  options: ServicePortOptions,
): Promise<unknown> {
  const { logger, observe } = options;
  const t0 = observe ? performance.now() : 0;
  let p: Promise<unknown>;
  try {
    p = fn.call(service, request, signal);
  } catch (e) {
    p = Promise.reject(e);
  }
  return p.then(
    (v) => {
      observe?.(name, 'OK', (performance.now() - t0) / 1000);
      return v;
    },
    (e: unknown) => {
      const err = callErrorOf(name, e, logger);
      observe?.(name, GrpcStatus[err.grpcCode] ?? String(err.grpcCode), (performance.now() - t0) / 1000);
      throw err;
    },
  );
}

/** The port in this process; `close()` makes later calls fail as calls to a stopped node do. */
export interface LocalNodePort extends NodePort {
  close(): void;
}

export interface ServicePortOptions {
  logger: Logger;
  /** Told about every call the service answered (method, gRPC status name, seconds). */
  observe?: CallObserver;
}

/** One timer for the deadlines of all calls under way (a timer per call costs more than the rest of a call). */
const deadlines = new DeadlineTimer<BoundedCall>();

/** A call with a signal or a deadline: it settles at the first of the answer, the abort and the deadline. */
class BoundedCall implements Expiring {
  private settled = false;
  readonly work: AbortController | undefined;

  constructor(
    private readonly name: string,
    private readonly signal: AbortSignal | undefined,
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (err: unknown) => void,
    withWork: boolean,
  ) {
    this.work = withWork ? new AbortController() : undefined;
  }

  /** The caller's signal aborted (an EventListener object: no closure per call). */
  handleEvent(): void {
    this.end(new NodeCallError(this.name, GrpcStatus.CANCELLED, 'Cancelled on client'));
  }

  deadlineExceeded(): void {
    this.end(new NodeCallError(this.name, GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded'));
  }

  answered(value: unknown): void {
    if (this.finish()) this.resolve(value);
  }

  failed(err: unknown): void {
    if (this.finish()) this.reject(err);
  }

  private end(err: NodeCallError): void {
    if (!this.finish()) return;
    this.work?.abort(new Error(err.details));
    this.reject(err);
  }

  private finish(): boolean {
    if (this.settled) return false;
    this.settled = true;
    deadlines.remove(this);
    this.signal?.removeEventListener('abort', this);
    return true;
  }
}

/** A call after close(): what a client of a stopped node gets (no details: the gateway answers "node unreachable"). */
export function nodeStopped(name: string): NodeCallError {
  return new NodeCallError(
    name,
    GrpcStatus.UNAVAILABLE,
    'No connection established. Last error: the node is shut down',
  );
}

/** The port over `service` (the node's NodeServiceImpl, or a test's). */
export function servicePort(service: ServiceMethods, options: ServicePortOptions): LocalNodePort {
  let closed = false;
  const port: Record<string, unknown> = {
    close: () => {
      closed = true;
    },
  };
  for (const method of NODE_METHODS) {
    const name = rpcName(method);
    const fn = service[method] as ServiceFn | undefined;
    if (fn === undefined) {
      // a partial service (a test's): the method is missing, as on a server without its handler
      port[method] = () =>
        Promise.reject(
          closed
            ? nodeStopped(name)
            : NodeCallError.described(name, GrpcStatus.UNIMPLEMENTED, {
                code: 'UNIMPLEMENTED',
                message: `${name} is not implemented`,
              }),
        );
      continue;
    }
    const withSignal = takesSignal(fn);
    const run = (request: unknown, signal: AbortSignal | undefined): Promise<unknown> =>
      callService(service, fn, name, request, signal, options);
    port[method] = (
      request: unknown,
      callOptions: { signal?: AbortSignal; deadline?: number } = {},
    ): Promise<unknown> => {
      if (closed) return Promise.reject(nodeStopped(name));
      const deadline = callOptions.deadline;
      const signal = withSignal ? callOptions.signal : undefined;
      if (signal === undefined && deadline === undefined) return run(request, undefined);
      if (signal?.aborted) return Promise.reject(new NodeCallError(name, GrpcStatus.CANCELLED, 'Cancelled on client'));
      const left = deadline === undefined ? Infinity : deadline - Date.now();
      if (left <= 0) return Promise.reject(new NodeCallError(name, GrpcStatus.DEADLINE_EXCEEDED, 'Deadline exceeded'));
      return new Promise((resolve, reject) => {
        const call = new BoundedCall(name, signal, resolve, reject, withSignal);
        if (left <= MAX_TIMER_MS) deadlines.add(call, deadline!);
        signal?.addEventListener('abort', call);
        run(request, call.work?.signal).then(
          (v) => call.answered(v),
          (e: unknown) => call.failed(e),
        );
      });
    };
  }
  return port as unknown as LocalNodePort;
}
