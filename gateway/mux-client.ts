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
 *
 * Here: the options, the transport (the channel, the streams in turn, the calls waiting for a place, the unary
 * fallback) and the port; one call and one stream (MuxCall, MuxStream) are in mux-client-stream.ts.
 */
import {
  Metadata,
  status as Status,
  type ChannelOptions,
  type ClientUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { NodeMuxClient } from '../src/grpc/gen/mux.ts';
import { NodeServiceClient, NodeServiceService } from '../src/grpc/gen/node.ts';
import { NODE_METHODS, type CallOptions, type NodePort } from '../src/grpc/port.ts';
import { nodeClientOptions, nodeCredentials, type NodeChannelSecurity } from './node-channel.ts';
import { EXCHANGE, MAX_MESSAGE_BYTES } from '../src/grpc/mux.ts';
import { MuxCall, MuxStream, type CallStatus, type StreamOwner } from './mux-client-stream.ts';

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

/** The channel, the streams and the fallback of one client. */
class MuxTransport implements StreamOwner {
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
