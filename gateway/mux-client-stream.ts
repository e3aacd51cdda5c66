/**
 * The per-call and per-stream side of the gateway's mux client (mux-client.ts, which holds the transport: the
 * channel, the streams in turn, the calls waiting for a place, the unary fallback, and the port):
 *   * MuxCall, one call: its promise and its end (answered, failed, cancelled by the caller, or its deadline passed,
 *     on one timer for all calls), whether it travels as a frame or, after a fallback, as a plain unary call;
 *   * MuxStream, one `NodeMux.Exchange` stream: the calls sent on it and not yet answered (MAX_CALLS_IN_FLIGHT at
 *     most), its FrameWriter, and the frames it receives (ANSWER, FAILURE, REFUSED, GOAWAY), handing what the
 *     transport decides (calls to send again, a stream that ended) to its owner.
 */
import {
  type Metadata,
  status as Status,
  type ClientDuplexStream,
  type ClientUnaryCall,
  type ServiceError,
} from '@grpc/grpc-js';
import { DeadlineTimer, MAX_TIMER_MS, type Expiring } from '../src/grpc/deadline-timer.ts';
import type { MuxBatch } from '../src/grpc/gen/mux.ts';
import { NodeServiceService } from '../src/grpc/gen/node.ts';
import { NodeCallError, rpcName, whenAborted, type CallOptions } from '../src/grpc/port.ts';
import {
  frame,
  frameBytes,
  FrameKind,
  FrameWriter,
  MAX_CALLS_IN_FLIGHT,
  metadataOf,
  WIRE_NAME,
  type MuxFrame,
  type NodeServiceMethod,
} from '../src/grpc/mux.ts';

/** A status as the node or the channel reports it. */
export type CallStatus = { code: number; details: string; metadata?: Metadata };

/** What a stream tells the transport it belongs to (MuxTransport, mux-client.ts). */
export interface StreamOwner {
  /** Places came free: the calls waiting go out. */
  sendWaiting(): void;
  /** The node did not run `call` (REFUSED): it goes out again. */
  sendAgain(call: MuxCall): void;
  /** The stream ended with `status`, `heard` from the node or not, `calls` still under way on it. */
  streamEnded(stream: MuxStream, status: CallStatus, heard: boolean, calls: MuxCall[]): void;
}

const NOTHING = new Uint8Array(0);

/** One timer for the deadlines of all mux calls. */
const deadlines = new DeadlineTimer<MuxCall>();

/** The client side of one call over the mux (or, after a fallback, over a plain unary call): a promise and its end. */
export class MuxCall implements Expiring {
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
export class MuxStream {
  /** Takes new calls (not going away, not ended). */
  usable = true;
  private readonly calls = new Map<number, MuxCall>();
  private readonly writer: FrameWriter;
  private nextId = 1;
  private heard = false;

  constructor(
    private readonly transport: StreamOwner,
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
