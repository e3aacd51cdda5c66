/**
 * The in-process transport of the NodeService: an object of the generated client type (`NodeServiceClient`) whose
 * unary methods dispatch straight to the service's handlers (`nodeServiceHandlers`, or any implementation of the
 * generated `NodeServiceServer`) in this process: no HTTP/2 framing, no protobuf encoding, as grpc-gateway's
 * in-process registration does for Go services. `ledger-node run` serves its REST gateway over it (node.ts);
 * `ledger-node gateway --node HOST:PORT` keeps real gRPC, and the gateway code is the same for both: it only ever
 * receives an object of the client type.
 *
 * What the caller sees is what a grpc-js client of the same handlers sees (test/node/in-process.test.ts runs
 * every path over both and compares):
 *   * an answer is the message as the generated `decode` would build it: every field present with its default
 *     (the generated `fromPartial`), fresh objects and arrays, and every bytes field a copy (a Buffer, as decode gives
 *     views of the received Buffer). Nothing the caller does to an answer can reach the service's state or caches
 *     (which bytes alias them, block caches, tip pools, protocol parameters, is the service's business and changes);
 *     strings, numbers and bigints are immutable and are shared, which makes the copy cheap: for a block answer (one
 *     32-byte ID and, for the raw view, the block's bytes; the JSON text is never copied) 0.4-0.5 µs, where encoding
 *     and decoding it would take 3-4 µs;
 *   * a failure is a ServiceError with grpc-js's message `<code> <NAME>: <details>`, its code and details, and as
 *     metadata the trailers a trailers-only HTTP/2 answer carries: `content-type`, a copy of the handler's trailer
 *     metadata (the `grpc-status-details-bin` of src/grpc/status.ts), `date`. As in grpc-js's server: a handler that
 *     throws is UNKNOWN "Unknown error", a missing handler UNIMPLEMENTED, an answer that is not a message INTERNAL
 *     "Error serializing response", an error with code OK UNIMPLEMENTED "No message received";
 *   * the deadline (`CallOptions.deadline`) ends the call with DEADLINE_EXCEEDED, `cancel()` with CANCELLED
 *     "Cancelled on client", both without metadata; either way the server call turns `cancelled` and emits
 *     'cancelled' on the next tick (SubmitBlock aborts its proof of work) and a later answer of the handler is dropped;
 *     a deadline already passed fails on the next tick without reaching the handler;
 *   * callbacks never run inside the method call, as over the network; the client call emits 'metadata' (on success)
 *     and 'status' like grpc-js's ClientUnaryCall;
 *   * after the server's `shutdown()` calls fail with UNAVAILABLE without details (what a client of a stopped node
 *     sees: the gateway answers 503 "node unreachable"); calls under way finish (grpc-js's tryShutdown). After the
 *     client's `close()` its methods throw "Channel has been shut down".
 * Requests are normalized the same way (fromPartial: 0.2 µs, where encoding and decoding them would cost 1-2 µs) but
 * their bytes are not copied: the gateway builds a fresh request for each call and never touches it again, and the
 * service must not write into a request anyway (over gRPC it receives views of the received buffer too). So a request
 * missing a field arrives with the field's default, where grpc-js would fail it on the client ("Request message
 * serialization failure"); the gateway test suite runs over real gRPC too and would catch a gateway sending one. Alike,
 * an answer missing a scalar field gets its default, where ts-proto's encoder would fail or write nonsense (the
 * node's answers are complete, typed messages).
 * Left out, as nothing here uses them: the 4 MiB message limits (the node's answers stay far below), interceptors,
 * compression, grpc-js's user-agent in the server call's metadata (it holds a copy of the caller's metadata), and the
 * 'cancelled' event grpc-js also emits after a call was answered (nothing is left to abort then).
 */
import { EventEmitter } from 'node:events';
import {
  Metadata,
  status as Status,
  type CallOptions,
  type ClientUnaryCall,
  type Deadline,
  type ServerUnaryCall,
  type ServiceError,
  type StatusObject,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { NodeServiceService, type NodeServiceClient, type NodeServiceServer } from '../../grpc/gen/node.ts';
import { detachResponse, MESSAGES, type NodeServiceMethod, type Normalizer } from './in-process-messages.ts';

export type { NodeServiceMethod } from './in-process-messages.ts';

/** The handlers an in-process server dispatches to: the node's (`nodeServiceHandlers`) or a test's. */
export type NodeServiceHandlers = Partial<NodeServiceServer> | UntypedServiceImplementation;

/** The longest timer Node.js keeps; a deadline further away never fires (grpc-js treats it alike). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * One timer for the deadlines of all calls under way, armed for the earliest: a timer per call (set and cleared
 * again for nearly every call) cost more than the rest of the transport. The timer keeps the process alive only while
 * calls with a deadline are under way, as grpc-js's per-call timers do.
 */
class Deadlines {
  private readonly calls = new Map<InProcessCall, number>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;

  add(call: InProcessCall, at: number): void {
    this.calls.set(call, at);
    if (at < this.armedFor) this.arm(at);
    else if (this.calls.size === 1) this.timer?.ref();
  }

  remove(call: InProcessCall): void {
    if (this.calls.delete(call) && this.calls.size === 0) this.timer?.unref();
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - Date.now()));
  }

  private expire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const [call, at] of this.calls) {
      if (at <= now) {
        this.calls.delete(call);
        call.deadlineExceeded();
      } else if (at < next) next = at;
    }
    if (next !== Infinity) this.arm(next);
  }
}

const deadlines = new Deadlines();

/** grpc-js's `Object.assign(new Error(message), status)` (call.ts callErrorFromStatus). */
function callError(status: StatusObject): ServiceError {
  return Object.assign(new Error(`${status.code} ${Status[status.code]}: ${status.details}`), status);
}

/**
 * The trailers of a trailers-only answer as a grpc-js client reads them back: the HTTP/2 `content-type`, the
 * handler's metadata as HTTP/2 carries it (the values of a text key joined into one with ", ", each bytes value
 * copied, as base64 on the wire would), and the `date` node:http2 adds.
 */
function trailersOnly(metadata: Metadata | null | undefined): Metadata {
  const out = new Metadata();
  out.set('content-type', 'application/grpc+proto');
  if (metadata) {
    for (const [key, values] of Object.entries(metadata.toJSON())) {
      if (key === 'content-type' || key === 'date' || key === 'grpc-status' || key === 'grpc-message' || values.length === 0) continue;
      if (key.endsWith('-bin')) for (const v of values) out.add(key, Buffer.from(v as Buffer));
      else out.set(key, values.join(', '));
    }
  }
  out.set('date', new Date().toUTCString());
  return out;
}

/** What a handler's error turns into on the wire (grpc-js's serverErrorToStatus). */
function errorStatus(error: unknown, trailer: Metadata | undefined): StatusObject {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; details?: unknown; message?: unknown; metadata?: Metadata };
  let code: number = Status.UNKNOWN;
  let details = 'message' in e ? String(e.message) : 'Unknown Error';
  if (typeof e.code === 'number' && Number.isInteger(e.code)) {
    code = e.code;
    if (typeof e.details === 'string') details = e.details;
  }
  if (code === Status.OK) return { code: Status.UNIMPLEMENTED, details: 'No message received', metadata: trailersOnly(trailer ?? e.metadata) };
  return { code, details, metadata: trailersOnly(trailer ?? e.metadata) };
}

function relativeTimeout(deadline: Deadline | undefined): number {
  if (deadline === undefined) return Infinity;
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return ms === Infinity ? Infinity : ms - Date.now();
}

/** The server side of one call, as a handler sees it (grpc-js's ServerUnaryCall surface). */
class InProcessServerCall<Req> extends EventEmitter implements ServerUnaryCall<Req, unknown> {
  cancelled = false;
  private copiedMetadata: Metadata | undefined;

  constructor(
    readonly request: Req,
    private readonly callerMetadata: Metadata,
    private readonly deadline: Deadline,
    private readonly path: string,
  ) {
    super();
  }

  /** A copy of the caller's metadata, made when a handler first looks. */
  get metadata(): Metadata {
    return (this.copiedMetadata ??= this.callerMetadata.clone());
  }

  getPeer(): string {
    return 'in-process';
  }

  sendMetadata(_responseMetadata: Metadata): void {}

  getDeadline(): Deadline {
    return this.deadline;
  }

  getPath(): string {
    return this.path;
  }

  getHost(): string {
    return 'in-process';
  }

  getAuthContext(): ReturnType<ServerUnaryCall<Req, unknown>['getAuthContext']> {
    return {};
  }

  getMetricsRecorder(): ReturnType<ServerUnaryCall<Req, unknown>['getMetricsRecorder']> {
    throw new Error('ORCA metrics are not offered by the in-process transport');
  }

  /** The caller went away (cancel or deadline): 'cancelled' on the next tick, as grpc-js notifies it. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    process.nextTick(() => this.emit('cancelled', 'cancelled'));
  }
}

type Callback = (error: ServiceError | null, response?: unknown) => void;

/** The client side of one call: what the method returns (grpc-js's ClientUnaryCall) and the call's state. */
class InProcessCall extends EventEmitter implements ClientUnaryCall {
  private done = false;
  private dispatching = false;
  private server: InProcessServerCall<unknown> | undefined;

  constructor(
    private readonly method: NodeServiceMethod,
    private readonly callback: Callback,
    private readonly started: number,
  ) {
    super();
  }

  cancel(): void {
    this.abort(Status.CANCELLED, 'Cancelled on client');
  }

  getPeer(): string {
    return 'in-process';
  }

  getAuthContext(): null {
    return null;
  }

  /** The deadline passed (Deadlines): DEADLINE_EXCEEDED, the server call cancelled. */
  deadlineExceeded(): void {
    this.abort(Status.DEADLINE_EXCEEDED, this.deadlineDetails());
  }

  /** Runs `handler` for the call (the caller has returned from the method before any callback runs). */
  dispatch(handler: ((call: unknown, callback: unknown) => void) | undefined, self: object, request: unknown, metadata: Metadata, deadline: Deadline, timeout: number): void {
    if (timeout <= 0) {
      this.abort(Status.DEADLINE_EXCEEDED, this.deadlineDetails());
      return;
    }
    if (handler === undefined) {
      this.failLater({ code: Status.UNIMPLEMENTED, details: `The server does not implement the method ${this.method}`, metadata: trailersOnly(undefined) });
      return;
    }
    if (timeout <= MAX_TIMER_MS) deadlines.add(this, Date.now() + timeout);
    const server = new InProcessServerCall(request, metadata, deadline, NodeServiceService[this.method].path);
    this.server = server;
    this.dispatching = true;
    try {
      handler.call(self, server, this.responder());
    } catch {
      this.respond({ code: Status.UNKNOWN, details: 'Unknown error' });
    }
    this.dispatching = false;
  }

  /**
   * The handler's callback. (Made here and returned: the TypeScript loader gives every function expression bound to a
   * name its name at run time, a property definition per call.)
   */
  private responder(): (error: unknown, value?: unknown, trailer?: Metadata) => void {
    return (error, value, trailer) => this.respond(error, value, trailer);
  }

  /** An answer given inside the handler call waits for the next tick: the caller has not got its call object yet. */
  private respond(error: unknown, value?: unknown, trailer?: Metadata): void {
    if (this.dispatching) process.nextTick(() => this.answer(error, value, trailer));
    else this.answer(error, value, trailer);
  }

  /** Ends the call now; the callback runs on the next tick (grpc-js reports a status so). */
  failLater(status: StatusObject): void {
    if (this.done) return;
    this.done = true;
    deadlines.remove(this);
    process.nextTick(() => this.report(status));
  }

  private deadlineDetails(): string {
    return `Deadline exceeded after ${((Date.now() - this.started) / 1000).toFixed(3)}s`;
  }

  /** A status of the client side (deadline, cancel): no metadata; the server call is cancelled. */
  private abort(code: Status, details: string): void {
    if (this.done) return;
    this.server?.cancel();
    this.failLater({ code, details, metadata: new Metadata() });
  }

  /** The handler's answer; dropped when the call already ended. */
  private answer(error: unknown, value: unknown, trailer: Metadata | undefined): void {
    if (this.done) return;
    if (error) {
      this.finish(errorStatus(error, trailer));
      return;
    }
    let message: unknown;
    try {
      message = detachResponse(this.method, value);
    } catch {
      this.finish({ code: Status.INTERNAL, details: 'Error serializing response', metadata: trailersOnly(undefined) });
      return;
    }
    this.done = true;
    deadlines.remove(this);
    if (this.listenerCount('metadata') > 0) this.emit('metadata', trailersOnly(undefined));
    this.callback(null, message);
    if (this.listenerCount('status') > 0) this.emit('status', { code: Status.OK, details: 'OK', metadata: trailer?.clone() ?? new Metadata() });
  }

  /** Ends the call with a status from the server side. */
  private finish(status: StatusObject): void {
    if (this.done) return;
    this.done = true;
    deadlines.remove(this);
    this.report(status);
  }

  private report(status: StatusObject): void {
    this.callback(callError(status));
    if (this.listenerCount('status') > 0) this.emit('status', status);
  }
}

/** grpc-js's optional arguments of a unary method: (request, [metadata], [options], callback). */
function unaryArguments(a: unknown, b: unknown, c: unknown): { metadata: Metadata; options: Partial<CallOptions>; callback: Callback } {
  if (typeof a === 'function') return { metadata: new Metadata(), options: {}, callback: a as Callback };
  if (typeof b === 'function') {
    return a instanceof Metadata ? { metadata: a, options: {}, callback: b as Callback } : { metadata: new Metadata(), options: (a ?? {}) as Partial<CallOptions>, callback: b as Callback };
  }
  if (!(a instanceof Metadata && typeof c === 'function')) throw new Error('Incorrect arguments passed');
  return { metadata: a, options: (b ?? {}) as Partial<CallOptions>, callback: c as Callback };
}

/**
 * Serves `handlers` to clients in this process. The handlers are called with `this` = `handlers`, like grpc-js's
 * Server binds them.
 */
export class InProcessNodeServer {
  private stopped = false;

  constructor(private readonly handlers: NodeServiceHandlers) {}

  /** Later calls fail UNAVAILABLE (the node is gone); calls under way finish. */
  shutdown(): void {
    this.stopped = true;
  }

  /** A client of the generated client type; `close()` ends only this client. */
  createClient(): NodeServiceClient {
    let closed = false;
    const client: Record<string, unknown> = {
      close: () => {
        closed = true;
      },
      getChannel: () => {
        throw new Error('the in-process NodeService client has no channel');
      },
      waitForReady: (_deadline: Deadline, callback: (error?: Error) => void) => {
        process.nextTick(() => callback(closed ? new Error('The client has been closed.') : undefined));
      },
    };
    for (const method of Object.keys(NodeServiceService) as NodeServiceMethod[]) {
      const handler = this.handlers[method] as ((call: unknown, callback: unknown) => void) | undefined;
      const requestType = MESSAGES[method].request as Normalizer;
      client[method] = (request: unknown, a?: unknown, b?: unknown, c?: unknown): ClientUnaryCall => {
        if (closed) throw new Error('Channel has been shut down');
        const { metadata, options, callback } = unaryArguments(a, b, c);
        const deadline = options.deadline ?? Infinity;
        const call = new InProcessCall(method, callback, Date.now());
        if (this.stopped) {
          call.failLater({ code: Status.UNAVAILABLE, details: 'No connection established. Last error: the in-process NodeService is shut down', metadata: new Metadata() });
          return call;
        }
        let normalized: unknown;
        try {
          normalized = requestType.fromPartial(request);
        } catch (e) {
          call.failLater({ code: Status.INTERNAL, details: `Request message serialization failure: ${(e as Error).message}`, metadata: new Metadata() });
          return call;
        }
        call.dispatch(handler, this.handlers, normalized, metadata, deadline, relativeTimeout(deadline));
        return call;
      };
    }
    return client as unknown as NodeServiceClient;
  }
}
