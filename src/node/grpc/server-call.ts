/**
 * The server side of a NodeService call that does not come through grpc-js's own unary dispatch: the multiplexed
 * transport (mux-server.ts) calls the same handlers as the gRPC server does,
 * with a server-call object of grpc-js's ServerUnaryCall surface, and turn the handler's outcome into what grpc-js's
 * server would send (server.ts, server-interceptors.ts):
 *   * a handler that throws is UNKNOWN "Unknown error";
 *   * an error's `code` and `details` become the status (no numeric code: UNKNOWN with the error's message), its
 *     metadata (or the trailer given to the callback) the trailers; an "error" with code OK is UNIMPLEMENTED
 *     "No message received";
 *   * the caller going away (cancel, deadline, a broken connection) turns the call `cancelled` and emits
 *     'cancelled' on the next tick (SubmitBlock aborts its proof of work).
 */
import { EventEmitter } from 'node:events';
import { Metadata, status as Status, type Deadline, type ServerUnaryCall, type StatusObject } from '@grpc/grpc-js';

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

/** A handler's callback: (error, value, trailer), as grpc-js's sendUnaryData. */
export type Respond = (error: unknown, value?: unknown, trailer?: Metadata) => void;

/** What a handler's error turns into on the wire (grpc-js's serverErrorToStatus). */
export function errorStatus(error: unknown, trailer: Metadata | undefined): StatusObject {
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

/** The server side of one call, as a handler sees it (grpc-js's ServerUnaryCall surface). */
export class DispatchedServerCall<Req> extends EventEmitter implements ServerUnaryCall<Req, unknown> {
  cancelled = false;
  private copiedMetadata: Metadata | undefined;

  constructor(
    readonly request: Req,
    private readonly callerMetadata: Metadata | undefined,
    private readonly deadline: Deadline,
    private readonly path: string,
    private readonly peer: string,
    private readonly host: string,
  ) {
    super();
  }

  /** A copy of the caller's metadata, made when a handler first looks. */
  get metadata(): Metadata {
    return (this.copiedMetadata ??= this.callerMetadata?.clone() ?? new Metadata());
  }

  getPeer(): string {
    return this.peer;
  }

  sendMetadata(_responseMetadata: Metadata): void {}

  getDeadline(): Deadline {
    return this.deadline;
  }

  getPath(): string {
    return this.path;
  }

  getHost(): string {
    return this.host;
  }

  getAuthContext(): ReturnType<ServerUnaryCall<Req, unknown>['getAuthContext']> {
    return {};
  }

  getMetricsRecorder(): ReturnType<ServerUnaryCall<Req, unknown>['getMetricsRecorder']> {
    throw new Error(`ORCA metrics are not offered by this transport`);
  }

  /** The caller went away (cancel, deadline, broken stream): 'cancelled' on the next tick, as grpc-js notifies it. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    process.nextTick(() => this.emit('cancelled', 'cancelled'));
  }
}

/** A handler as a service implementation holds it. */
export type UnaryHandler = (call: unknown, callback: unknown) => void;

/** Calls `handler` (with `this` = `self`, as grpc-js binds it); a handler that throws answers UNKNOWN "Unknown error". */
export function invokeHandler(handler: UnaryHandler, self: object, call: DispatchedServerCall<unknown>, respond: Respond): void {
  try {
    handler.call(self, call, respond);
  } catch {
    respond({ code: Status.UNKNOWN, details: 'Unknown error' });
  }
}
