/**
 * The gateway's side of the multiplexed transport (proto/mux.proto, docs/decisions.md §24): the node's port
 * (NodePort, src/grpc/port.ts), so the gateway code is the same as over unary gRPC or in process, whose calls travel
 * as frames over one or a few long-lived `NodeMux.Exchange` streams to the node, on one grpc-js channel. A call costs
 * the gateway and the node a frame in a batch instead of a new HTTP/2 stream with its headers, trailers, filters and
 * timers.
 *
 * What the caller sees is what the port over a grpc-js unary call of the same node gives (test/gateway/mux.test.ts
 * compares them):
 *   * the answer decoded by the method's generated decode (NodeServiceService's responseDeserialize), bytes fields as
 *     views of the received buffer, as grpc-js's are;
 *   * a failure as NodeCallError read from the node's status: code, details, and the ErrorInfo of its
 *     `grpc-status-details-bin` trailer, so gateway/errors.ts maps it as it maps a unary call's;
 *   * deadlines: DEADLINE_EXCEEDED "Deadline exceeded after N.NNNs" at the caller's deadline (one timer for all
 *     calls), the node told by a CANCEL frame (and by the `timeout_ms` it got); a deadline already passed fails
 *     without reaching the node; the caller's abort (signal or hook) is CANCELLED "Cancelled on client" and a CANCEL
 *     frame (the node aborts the call's signal; SubmitBlock aborts its proof of work);
 *   * a broken stream (the node stopped or restarted, the connection dropped) fails the calls under way on it with
 *     the stream's status, UNAVAILABLE as grpc-js reports a dropped connection; the next call opens a new stream,
 *     which fails fast with UNAVAILABLE while the node is unreachable and reconnects like any grpc-js channel;
 *   * a request that would not fit the node's message limit (4 MiB with the frame around it) fails alone with
 *     RESOURCE_EXHAUSTED "Received message larger than max (N vs 4194304)", where a unary call would reach the node
 *     and get the same status (a request within a few dozen bytes of the limit fails here and passes unary);
 *   * a node without the NodeMux service (an older node) answers the stream UNIMPLEMENTED before any frame: the
 *     client tells `onFallback` once, sends the calls under way again as plain unary calls on the same channel (none
 *     of them reached a handler) and keeps to unary calls for `fallbackMs`, then tries the mux again.
 * Frames go out in batches at setImmediate (FrameWriter); when the stream's write() returns false the client waits
 * for 'drain' and calls that end before they were sent are dropped from the batch. A stream carries at most
 * MAX_CALLS_IN_FLIGHT calls under way (the node answers one beyond RESOURCE_EXHAUSTED): when every stream has that
 * many, a call waits in the client, in order, until an answer or a cancel frees a place (its deadline runs meanwhile).
 * A GOAWAY from the node (its shutdown) takes the stream out of use; calls it REFUSED are sent again on a new stream.
 */
import {
  Metadata,
  status as Status,
  type ChannelOptions,
  type ClientDuplexStream,
  type ClientUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { DeadlineTimer, MAX_TIMER_MS, type Expiring } from '../src/grpc/deadline-timer.ts';
import { NodeMuxClient, type MuxBatch } from '../src/grpc/gen/mux.ts';
import { NodeServiceClient, NodeServiceService } from '../src/grpc/gen/node.ts';
import {
  NODE_METHODS,
  NodeCallError,
  rpcName,
  whenAborted,
  type CallOptions,
  type NodePort,
} from '../src/grpc/port.ts';
import { nodeClientOptions, nodeCredentials, type NodeChannelSecurity } from './node-channel.ts';
import {
  EXCHANGE,
  frame,
  frameBytes,
  FrameKind,
  FrameWriter,
  MAX_CALLS_IN_FLIGHT,
  MAX_MESSAGE_BYTES,
  metadataOf,
  WIRE_NAME,
  type MuxFrame,
  type NodeServiceMethod,
} from '../src/grpc/mux.ts';

/** A status as the node or the channel reports it. */
type CallStatus = { code: number; details: string; metadata?: Metadata };

export interface MuxClientOptions {
  /** Streams the calls are spread over, round robin; 1 by default (measured: benchmarks/rest/run.ts). */
  streams?: number;
  /** Told once when the node does not serve NodeMux and the client falls back to unary calls. */
  onFallback?: (reason: string) => void;
  /** How long the client keeps to unary calls after that before it tries the mux again; 60 s by default. */
  fallbackMs?: number;
  /** grpc-js channel options on top of the client's own. */
  channelOptions?: ChannelOptions;
  /** TLS and the bearer token of the node's service door (node-channel.ts), on the streams and the unary fallback. */
  security?: NodeChannelSecurity;
}

/** No channelz bookkeeping (per-call counters for a debugging service); a receive window for batches of answers. */
const CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.enable_channelz': 0,
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc-node.flow_control_window': 1024 * 1024,
};

/** The largest request that fits a frame within the node's message limit. */
const MAX_REQUEST_BYTES = MAX_MESSAGE_BYTES - 1024;

/** How often a call the node did not run is sent again before it fails UNAVAILABLE. */
const MAX_RESENDS = 3;

const NOTHING = new Uint8Array(0);

/** One timer for the deadlines of all mux calls. */
const deadlines = new DeadlineTimer<MuxCall>();

/** The client side of one call over the mux (or, after a fallback, over a plain unary call): a promise and its end. */
class MuxCall implements Expiring {
  stream: MuxStream | undefined;
  id = 0;
  encoded: Uint8Array = NOTHING;
  unary: ClientUnaryCall | undefined;
  /** Times the call was sent again because the node did not run it (REFUSED, a stream ended in order). */
  resent = 0;
  /** The transport's calls waiting for a place on a stream, while this one is among them. */
  waitingIn: Set<MuxCall> | undefined;
  private done = false;
  private detach: (() => void) | undefined;
  private readonly started = Date.now();

  constructor(
    readonly method: NodeServiceMethod,
    readonly request: unknown,
    readonly deadline: number, // ms since the epoch; Infinity without one
    private readonly resolve: (value: unknown) => void,
    private readonly reject: (err: NodeCallError) => void,
  ) {}

  /** Answered, failed, cancelled or expired. */
  get ended(): boolean {
    return this.done;
  }

  /** Arms the call's deadline and listens to the caller's abort. */
  start(options: CallOptions): void {
    if (this.deadline - Date.now() <= MAX_TIMER_MS) deadlines.add(this, this.deadline);
    this.detach = whenAborted(options, () => this.abort(Status.CANCELLED, 'Cancelled on client'));
  }

  /** The deadline passed (DeadlineTimer): DEADLINE_EXCEEDED, the node told. */
  deadlineExceeded(): void {
    this.abort(Status.DEADLINE_EXCEEDED, `Deadline exceeded after ${((Date.now() - this.started) / 1000).toFixed(3)}s`);
  }

  answered(message: Uint8Array): void {
    let response: unknown;
    try {
      response = NodeServiceService[this.method].responseDeserialize(message as Buffer);
    } catch (e) {
      this.failed({ code: Status.INTERNAL, details: `Response message parsing error: ${(e as Error).message}` });
      return;
    }
    if (this.end()) this.resolve(response);
  }

  failed(status: CallStatus): void {
    if (this.end()) this.reject(NodeCallError.fromClientError(rpcName(this.method), status));
  }

  /** The callback of the unary call that carries this call after a fallback. */
  unaryCallback(): (error: ServiceError | null, response?: unknown) => void {
    return (error, response) => {
      if (error) this.failed(error);
      else if (this.end()) this.resolve(response);
    };
  }

  /** The caller gave up (abort, deadline): the call ends now, the node or the unary call is told. */
  private abort(code: Status, details: string): void {
    if (this.done) return;
    this.waitingIn?.delete(this);
    this.waitingIn = undefined;
    this.stream?.cancel(this);
    this.unary?.cancel();
    if (this.end()) this.reject(new NodeCallError(rpcName(this.method), code, details));
  }

  private end(): boolean {
    if (this.done) return false;
    this.done = true;
    deadlines.remove(this);
    this.detach?.();
    return true;
  }
}

/** One Exchange stream: the calls sent on it and not yet answered, and its writer. */
class MuxStream {
  /** Takes new calls (not going away, not ended). */
  usable = true;
  private readonly calls = new Map<number, MuxCall>();
  private readonly writer: FrameWriter;
  private nextId = 1;
  private heard = false;

  constructor(
    private readonly transport: MuxTransport,
    duplex: ClientDuplexStream<MuxBatch, MuxBatch>,
  ) {
    this.writer = new FrameWriter(duplex, (f) => f.kind !== FrameKind.FRAME_KIND_CALL || this.calls.has(f.callId));
    duplex.on('data', (batch: MuxBatch) => this.receive(batch));
    duplex.on('status', (status: CallStatus) => this.ended(status));
    duplex.on('error', () => {}); // the 'status' that follows says it all
  }

  /** Takes a new call: usable, with fewer than MAX_CALLS_IN_FLIGHT under way (the node's limit per stream). */
  get hasRoom(): boolean {
    return this.usable && this.calls.size < MAX_CALLS_IN_FLIGHT;
  }

  send(call: MuxCall, timeoutMs: number): void {
    const id = this.nextId;
    this.nextId = id === 0xffffffff ? 1 : id + 1;
    call.stream = this;
    call.id = id;
    this.calls.set(id, call);
    const f = frame(FrameKind.FRAME_KIND_CALL, id, call.encoded, WIRE_NAME[call.method], timeoutMs);
    this.writer.push(f, frameBytes(f));
  }

  /** The caller gave up: the node is told, unless the call was never sent (then the writer drops it). */
  cancel(call: MuxCall): void {
    if (this.calls.get(call.id) !== call) return;
    this.calls.delete(call.id);
    // before any later CALL: the node frees the place first
    this.writer.push(frame(FrameKind.FRAME_KIND_CANCEL, call.id), 48);
    this.transport.sendWaiting();
  }

  /** Half-closes the stream once everything queued is written (the node ends it after answering). */
  close(): void {
    this.usable = false;
    this.writer.endWhenWritten();
  }

  private take(id: number): MuxCall | undefined {
    const call = this.calls.get(id);
    if (call !== undefined) this.calls.delete(id);
    return call;
  }

  private receive(batch: MuxBatch): void {
    this.heard = true;
    for (const f of batch.frames) this.frame(f);
    this.transport.sendWaiting();
  }

  private frame(f: MuxFrame): void {
    switch (f.kind) {
      case FrameKind.FRAME_KIND_ANSWER:
        this.take(f.callId)?.answered(f.message);
        break;
      case FrameKind.FRAME_KIND_FAILURE: {
        const call = this.take(f.callId);
        let metadata: Metadata;
        try {
          metadata = metadataOf(f.metadata);
        } catch (e) {
          call?.failed({ code: Status.INTERNAL, details: `the node's trailers do not parse: ${(e as Error).message}` });
          break;
        }
        call?.failed({ code: f.statusCode, details: f.statusDetails, metadata });
        break;
      }
      case FrameKind.FRAME_KIND_REFUSED: {
        const call = this.take(f.callId);
        if (call !== undefined) this.transport.sendAgain(call);
        break;
      }
      case FrameKind.FRAME_KIND_GOAWAY:
        this.close();
        break;
      default:
        break;
    }
  }

  private ended(status: CallStatus): void {
    this.usable = false;
    this.writer.close();
    const calls = [...this.calls.values()];
    this.calls.clear();
    this.transport.streamEnded(this, status, this.heard, calls);
    this.transport.sendWaiting();
  }
}

/** The channel, the streams and the fallback of one client. */
class MuxTransport {
  readonly mux: NodeMuxClient;
  closed = false;
  private unaryClient: NodeServiceClient | undefined;
  private readonly slots: (MuxStream | undefined)[];
  private next = 0;
  private fallbackUntil = 0;
  private toldFallback = false;
  /** Calls waiting for a place on a stream (each stream at MAX_CALLS_IN_FLIGHT), oldest first. */
  private readonly waiting = new Set<MuxCall>();

  constructor(
    readonly address: string,
    private readonly options: MuxClientOptions,
  ) {
    this.mux = new NodeMuxClient(
      address,
      nodeCredentials(options.security),
      nodeClientOptions(options.security, { ...CHANNEL_OPTIONS, ...options.channelOptions }),
    );
    const n = options.streams ?? 1;
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new RangeError(`streams must be an integer 1..64, got ${n}`);
    this.slots = new Array<MuxStream | undefined>(n).fill(undefined);
  }

  get fallingBack(): boolean {
    return this.fallbackUntil !== 0 && Date.now() < this.fallbackUntil;
  }

  /**
   * Sends `call` on the next stream with room (a new one where the slot's stream is out of use), or unary after a
   * fallback; it waits when every stream is full or others wait already (unless it is the oldest of them, `next`).
   */
  dispatch(call: MuxCall, next = false): void {
    if (call.ended) return;
    if (this.closed)
      return call.failed({
        code: Status.UNAVAILABLE,
        details: 'the client was closed before the call could be sent again',
      });
    if (this.fallingBack) return this.viaUnary(call);
    const left = call.deadline - Date.now();
    if (left <= 0) return call.deadlineExceeded();
    const stream = next || this.waiting.size === 0 ? this.streamWithRoom() : undefined;
    if (stream === undefined) {
      this.waiting.add(call);
      call.waitingIn = this.waiting;
      return;
    }
    stream.send(call, left > 0xffffffff ? 0 : Math.max(1, Math.ceil(left)));
  }

  /** The next stream in turn with room for a call (a new one in an empty slot), or none: all at the limit. */
  private streamWithRoom(): MuxStream | undefined {
    for (let k = 0; k < this.slots.length; k++) {
      const i = this.next;
      this.next = i + 1 === this.slots.length ? 0 : i + 1;
      let stream = this.slots[i];
      if (stream === undefined || !stream.usable) {
        stream = new MuxStream(
          this,
          this.mux.makeBidiStreamRequest(EXCHANGE.path, EXCHANGE.requestSerialize, EXCHANGE.responseDeserialize),
        );
        this.slots[i] = stream;
      }
      if (stream.hasRoom) return stream;
    }
    return undefined;
  }

  /**
   * Places came free (answers, cancels, a stream gone): the calls waiting go out, oldest first, while there is room.
   */
  sendWaiting(): void {
    for (const call of this.waiting) {
      if (!this.closed && !this.fallingBack && !this.slots.some((s) => s === undefined || s.hasRoom || !s.usable))
        return;
      this.waiting.delete(call);
      call.waitingIn = undefined;
      this.dispatch(call, true);
    }
  }

  streamEnded(stream: MuxStream, status: CallStatus, heard: boolean, calls: MuxCall[]): void {
    const i = this.slots.indexOf(stream);
    if (i >= 0) this.slots[i] = undefined;
    if (status.code === Status.UNIMPLEMENTED && !heard) {
      // The node does not serve NodeMux: no call reached a handler.
      this.fallbackUntil = Date.now() + (this.options.fallbackMs ?? 60_000);
      if (!this.toldFallback) {
        this.toldFallback = true;
        (this.options.onFallback ?? ((r: string) => console.warn(r)))(
          `the node at ${this.address} does not serve ` +
            `ledger.mux.v1.NodeMux (${status.details}); using unary gRPC calls`,
        );
      }
      for (const call of calls) this.viaUnary(call);
      return;
    }
    // Ended with OK: the node went away in order; what it never answered it never ran (REFUSED or unread).
    if (status.code === Status.OK) {
      for (const call of calls) this.sendAgain(call);
      return;
    }
    for (const call of calls) call.failed({ code: status.code, details: status.details, metadata: status.metadata });
  }

  /** A call the node did not run goes out again on a new stream, a few times at most (a node shutting down). */
  sendAgain(call: MuxCall): void {
    if (++call.resent > MAX_RESENDS)
      call.failed({ code: Status.UNAVAILABLE, details: 'the node is shutting down (calls refused)' });
    else this.dispatch(call);
  }

  viaUnary(call: MuxCall): void {
    if (call.ended) return;
    if (this.closed)
      return call.failed({
        code: Status.UNAVAILABLE,
        details: 'the client was closed before the call could be sent again',
      });
    call.stream = undefined;
    this.unaryClient ??= new NodeServiceClient(
      this.address,
      nodeCredentials(this.options.security),
      nodeClientOptions(this.options.security, { channelOverride: this.mux.getChannel() }),
    );
    const client = this.unaryClient;
    const method = client[call.method] as unknown as (
      r: unknown,
      m: Metadata,
      o: object,
      cb: (e: ServiceError | null, v?: unknown) => void,
    ) => ClientUnaryCall;
    call.unary = method.call(client, call.request, new Metadata(), { deadline: call.deadline }, call.unaryCallback());
  }

  close(): void {
    this.closed = true;
    this.sendWaiting(); // they fail: nothing is sent after close()
    for (const s of this.slots) s?.close();
    this.mux.close();
  }
}

/** The mux's port to a node, and its channel's end. */
export interface MuxNodePort extends NodePort {
  /** Ends the streams (after what is queued) and the channel; later calls fail UNAVAILABLE. */
  close(): void;
}

/** The node's port (NodePort) for the node's gRPC `address` (`host:port`), its calls travelling over the mux. */
export function createMuxNodePort(address: string, options: MuxClientOptions = {}): MuxNodePort {
  const transport = new MuxTransport(address, options);
  const port: Record<string, unknown> = { close: () => transport.close() };
  for (const method of NODE_METHODS) {
    const serialize = NodeServiceService[method].requestSerialize as (request: unknown) => Buffer;
    port[method] = (request: unknown, callOptions: CallOptions = {}): Promise<unknown> =>
      new Promise((resolve, reject) => {
        const call = new MuxCall(method, request, callOptions.deadline ?? Infinity, resolve, reject);
        if (transport.closed) return call.failed({ code: Status.UNAVAILABLE, details: 'the client was closed' });
        if (callOptions.onAbort === undefined && callOptions.signal?.aborted)
          return call.failed({ code: Status.CANCELLED, details: 'Cancelled on client' });
        if (call.deadline <= Date.now()) return call.deadlineExceeded();
        try {
          call.encoded = serialize(request);
        } catch (e) {
          return call.failed({
            code: Status.INTERNAL,
            details: `Request message serialization failure: ${(e as Error).message}`,
          });
        }
        if (call.encoded.length > MAX_REQUEST_BYTES && !transport.fallingBack) {
          return call.failed({
            code: Status.RESOURCE_EXHAUSTED,
            details: `Received message larger than max (${call.encoded.length} vs ${MAX_MESSAGE_BYTES})`,
          });
        }
        call.start(callOptions);
        transport.dispatch(call);
      });
  }
  return port as unknown as MuxNodePort;
}
