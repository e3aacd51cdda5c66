/**
 * grpc-js's unary client call as its callers see it, for the multiplexed NodeService transport (proto/mux.proto,
 * gateway/mux-client.ts), which hands out an object of the generated client type whose methods return a call like
 * this one and report like grpc-js (client-interceptors.ts, call.ts), so that the gateway's port adapts it as it
 * adapts grpc-js's own client (src/grpc/port.ts portOverClient):
 *   * a failure is a ServiceError `Object.assign(new Error('<code> <NAME>: <details>'), status)`;
 *   * the callback never runs inside the method call; the call emits 'metadata' (on success) and 'status';
 *   * `cancel()` ends the call with CANCELLED "Cancelled on client", a passed deadline with DEADLINE_EXCEEDED
 *     "Deadline exceeded after N.NNNs", both without metadata and on the next tick; the transport is told
 *     (`clientEnded`) so the server call is cancelled; a later answer is dropped.
 * It also holds the one deadline timer the calls of a transport share, and the trailers of a trailers-only answer as
 * a grpc-js client reads them back. Nothing here knows the node; the gateway may import it.
 */
import { EventEmitter } from 'node:events';
import { Metadata, status as Status, type CallOptions, type ClientUnaryCall, type Deadline, type ServiceError, type StatusObject } from '@grpc/grpc-js';

/** The longest timer Node.js keeps; a deadline further away never fires (grpc-js treats it alike). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export type UnaryCallback = (error: ServiceError | null, response?: unknown) => void;

/** grpc-js's `Object.assign(new Error(message), status)` (call.ts callErrorFromStatus). */
export function callError(status: StatusObject): ServiceError {
  return Object.assign(new Error(`${status.code} ${Status[status.code]}: ${status.details}`), status);
}

/**
 * The trailers of a trailers-only answer as a grpc-js client reads them back: the HTTP/2 `content-type`, the
 * server's metadata as HTTP/2 carries it (the values of a text key joined into one with ", ", each bytes value
 * copied, as base64 on the wire would), and the `date` node:http2 adds.
 */
export function trailersOnly(metadata: Metadata | null | undefined): Metadata {
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

/** Milliseconds until `deadline` (Infinity without one); negative when it has passed. */
export function relativeTimeout(deadline: Deadline | undefined): number {
  if (deadline === undefined) return Infinity;
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return ms === Infinity ? Infinity : ms - Date.now();
}

/** grpc-js's optional arguments of a unary method: (request, [metadata], [options], callback). */
export function unaryArguments(a: unknown, b: unknown, c: unknown): { metadata: Metadata; options: Partial<CallOptions>; callback: UnaryCallback } {
  if (typeof a === 'function') return { metadata: new Metadata(), options: {}, callback: a as UnaryCallback };
  if (typeof b === 'function') {
    return a instanceof Metadata ? { metadata: a, options: {}, callback: b as UnaryCallback } : { metadata: new Metadata(), options: (a ?? {}) as Partial<CallOptions>, callback: b as UnaryCallback };
  }
  if (!(a instanceof Metadata && typeof c === 'function')) throw new Error('Incorrect arguments passed');
  return { metadata: a, options: (b ?? {}) as Partial<CallOptions>, callback: c as UnaryCallback };
}

/** Something with a deadline (a client call, a server call). */
export interface Expiring {
  deadlineExceeded(): void;
}

/**
 * One timer for the deadlines of all calls under way, armed for the earliest: a timer per call (set and cleared
 * again for nearly every call) cost more than the rest of a transport. The timer keeps the process alive only while
 * calls with a deadline are under way, as grpc-js's per-call timers do.
 */
export class DeadlineTimer<T extends Expiring> {
  private readonly calls = new Map<T, number>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;

  add(call: T, at: number): void {
    this.calls.set(call, at);
    if (at < this.armedFor) this.arm(at);
    else if (this.calls.size === 1) this.timer?.ref();
  }

  remove(call: T): void {
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

/** The client side of one unary call: what the method returns (grpc-js's ClientUnaryCall) and how it ends. */
export abstract class UnaryClientCall extends EventEmitter implements ClientUnaryCall {
  private done = false;

  constructor(
    private readonly callback: UnaryCallback,
    private readonly started: number,
    private readonly deadlines: DeadlineTimer<UnaryClientCall>,
  ) {
    super();
  }

  abstract getPeer(): string;

  /** The client side ended the call (cancel, deadline): the transport cancels the server's side. */
  protected abstract clientEnded(): void;

  /** Whether the call has ended (answered, failed, cancelled or expired). */
  get ended(): boolean {
    return this.done;
  }

  cancel(): void {
    this.abort(Status.CANCELLED, 'Cancelled on client');
  }

  getAuthContext(): null {
    return null;
  }

  /** The deadline passed (DeadlineTimer): DEADLINE_EXCEEDED, the server call cancelled. */
  deadlineExceeded(): void {
    this.abort(Status.DEADLINE_EXCEEDED, this.deadlineDetails());
  }

  /** Arms the deadline `timeout` ms from now (none beyond what a timer can hold). */
  protected expireIn(timeout: number): void {
    if (timeout <= MAX_TIMER_MS) this.deadlines.add(this, Date.now() + timeout);
  }

  protected deadlineDetails(): string {
    return `Deadline exceeded after ${((Date.now() - this.started) / 1000).toFixed(3)}s`;
  }

  /** Ends the call now; the callback runs on the next tick (grpc-js reports a status so). */
  failLater(status: StatusObject): void {
    if (this.done) return;
    this.end();
    process.nextTick(() => this.report(status));
  }

  /** Ends the call with a status from the server side, reported now. */
  protected fail(status: StatusObject): void {
    if (this.done) return;
    this.end();
    this.report(status);
  }

  /** Ends the call with the server's answer. */
  protected succeed(message: unknown, trailer?: Metadata): void {
    if (this.done) return;
    this.end();
    if (this.listenerCount('metadata') > 0) this.emit('metadata', trailersOnly(undefined));
    this.callback(null, message);
    if (this.listenerCount('status') > 0) this.emit('status', { code: Status.OK, details: 'OK', metadata: trailer?.clone() ?? new Metadata() });
  }

  /** A status of the client side (deadline, cancel): no metadata; the server call is cancelled. */
  private abort(code: Status, details: string): void {
    if (this.done) return;
    this.clientEnded();
    this.failLater({ code, details, metadata: new Metadata() });
  }

  private end(): void {
    this.done = true;
    this.deadlines.remove(this);
  }

  private report(status: StatusObject): void {
    this.callback(callError(status));
    if (this.listenerCount('status') > 0) this.emit('status', status);
  }
}
