/**
 * One NodeMux `Exchange` stream on the node and its calls (the service, its options and its shutdown step:
 * mux-server.ts, which says what the node answers and the limits it keeps):
 *   * MuxServerStream: the batches received and not yet dispatched (FRAMES_PER_TURN a turn, held while more than
 *     BACKLOG_BYTES of answers wait), the CALL and CANCEL frames dispatched, the calls under way (`maxCalls` at most),
 *     the answers and failures written by its FrameWriter, GOAWAY, and the stream's end;
 *   * MuxServerCall: one call under way, its deadline (one timer for all calls, `maxCallMs` at the latest), the
 *     AbortSignal of its method's work, and its answer or failure handed back to the stream.
 */
import { Metadata, status as Status, type ServerDuplexStream } from '@grpc/grpc-js';
import { DeadlineTimer, type Expiring } from '../../grpc/deadline-timer.ts';
import type { MuxBatch, MuxFrame } from '../../grpc/gen/mux.ts';
import { MESSAGES } from '../../grpc/messages.ts';
import {
  answerFrame,
  BatchReader,
  callFailureFrame,
  failureFrame,
  frame,
  frameBytes,
  FrameKind,
  FrameWriter,
  InvalidMetadataError,
  metadataOf,
  METHOD_OF,
  servicePath,
  type Encoder,
  type NodeServiceMethod,
} from '../../grpc/mux.ts';
import { rpcName, type NodeCallError } from '../../grpc/port.ts';
import type { Logger } from '../logger.ts';
import { callService, takesSignal, type ServiceFn, type ServiceMethods, type ServicePortOptions } from './port.ts';

/** The limits of a stream (NodeMuxOptions of mux-server.ts, defaults filled in) and the options of its calls. */
export interface StreamLimits {
  maxCalls: number;
  maxCallMs: number;
  maxQueuedBytes: number;
  logger: Logger;
  call: ServicePortOptions;
}

/** Answers waiting to be written beyond this: no further frames are dispatched or read until it drains to half. */
const BACKLOG_BYTES = 4 * 1024 * 1024;

/** Frames dispatched per turn of the event loop at most: the node's other work goes on between. */
const FRAMES_PER_TURN = 1024;

interface MessageCodec extends Encoder<unknown> {
  decode(bytes: Uint8Array): unknown;
}

/** One timer for the deadlines of all calls under way on every stream. */
const deadlines = new DeadlineTimer<MuxServerCall>();

/** One call of a stream: its ID and method; `capped`: it ends at the node's limit; `work`: the method's signal. */
class MuxServerCall implements Expiring {
  constructor(
    readonly id: number,
    readonly method: NodeServiceMethod,
    private readonly stream: MuxServerStream,
    readonly capped: boolean,
    private readonly work: AbortController | undefined,
  ) {}

  deadlineExceeded(): void {
    this.stream.expired(this);
  }

  /** The caller went away (cancel, deadline, broken stream): the method's work is aborted. */
  cancel(reason: string): void {
    this.work?.abort(new Error(reason));
  }

  /** Answers the stream with the service's outcome (made here: closures per call, not named function expressions). */
  settle(outcome: Promise<unknown>): void {
    outcome.then(
      (value) =>
        this.stream.answer(
          this,
          answerFrame(this.id, MESSAGES[this.method].response as unknown as Encoder<unknown>, value),
        ),
      (err: NodeCallError) => this.stream.answer(this, callFailureFrame(this.id, err)),
    );
  }
}

/** One Exchange stream: its calls under way, the batches received and not yet dispatched, and its writer. */
export class MuxServerStream {
  readonly peer: string;
  private readonly calls = new Map<number, MuxServerCall>();
  private readonly writer: FrameWriter;
  private readonly inbox: BatchReader[] = [];
  private queuedBytes = 0; // of the batches in the inbox
  private goingAway = false;
  private halfClosed = false;
  private gone = false;
  private paused = false;
  private turnScheduled = false;
  private loggedUnexpected = false;

  constructor(
    private readonly stream: ServerDuplexStream<Buffer, MuxBatch>,
    private readonly service: Partial<ServiceMethods>,
    private readonly streams: Set<MuxServerStream>,
    private readonly limits: StreamLimits,
  ) {
    this.peer = stream.getPeer();
    this.writer = new FrameWriter(stream, undefined, () => this.safely(() => this.flushed()));
    streams.add(this);
    stream.on('data', (bytes: Buffer) => this.safely(() => this.receive(bytes)));
    stream.on('end', () => this.halfClose());
    stream.on('cancelled', () => this.lost());
    stream.on('error', () => this.lost());
    stream.on('close', () => this.lost());
  }

  /** Adds its calls under way, bytes received and not dispatched, and answers waiting to be written to `into`. */
  count(into: { calls: number; queuedBytes: number; backlogBytes: number }): void {
    into.calls += this.calls.size;
    into.queuedBytes += this.queuedBytes;
    into.backlogBytes += this.writer.pendingBytes;
  }

  /** No new calls: GOAWAY, then the stream ends once the calls under way are answered. */
  goAway(): void {
    if (this.goingAway || this.gone) return;
    this.goingAway = true;
    this.send(frame(FrameKind.FRAME_KIND_GOAWAY, 0));
    this.maybeEnd();
  }

  /** The service's answer (ANSWER frame) or failure (as the unary handlers answer it); dropped when the call ended. */
  answer(call: MuxServerCall, f: MuxFrame): void {
    if (this.calls.get(call.id) !== call) return;
    this.safely(() => {
      this.forget(call);
      this.send(f);
      this.maybeEnd();
    });
  }

  /**
   * The call's deadline (or the node's limit) passed: cancelled, DEADLINE_EXCEEDED as grpc-js's server
   * (the door) sends it.
   */
  expired(call: MuxServerCall): void {
    if (this.calls.get(call.id) !== call) return;
    const details = call.capped
      ? `Deadline exceeded (this node answers a call within ${this.limits.maxCallMs / 1000} s)`
      : 'Deadline exceeded';
    this.forget(call, details);
    this.fail(call.id, Status.DEADLINE_EXCEEDED, details);
    this.maybeEnd();
  }

  private receive(bytes: Buffer): void {
    if (this.gone) return;
    this.inbox.push(new BatchReader(bytes));
    this.queuedBytes += bytes.length;
    this.dispatchQueued();
  }

  /** Dispatches the frames received, in order, while the backlog of answers allows, FRAMES_PER_TURN a turn. */
  private dispatchQueued(): void {
    let budget = FRAMES_PER_TURN;
    while (this.inbox.length > 0 && !this.gone && this.writer.pendingBytes <= BACKLOG_BYTES) {
      if (budget-- === 0) {
        this.nextTurn();
        break;
      }
      const reader = this.inbox[0]!;
      let f: MuxFrame | undefined;
      try {
        f = reader.next();
      } catch {
        return this.abort(Status.INTERNAL, 'Error deserializing request');
      }
      if (f === undefined) {
        this.inbox.shift();
        this.queuedBytes -= reader.bytes.length;
      } else this.dispatch(f);
    }
    if (this.gone) return;
    if (this.queuedBytes > this.limits.maxQueuedBytes) {
      return this.abort(
        Status.RESOURCE_EXHAUSTED,
        `Too much received and not yet dispatched (${this.queuedBytes} ` +
          `bytes, at most ${this.limits.maxQueuedBytes}): read the answers`,
      );
    }
    this.holdReading();
    if (this.inbox.length === 0) this.maybeEnd();
  }

  /** One frame; nothing it throws leaves here: a CALL that failed unexpectedly is answered INTERNAL. */
  private dispatch(f: MuxFrame): void {
    try {
      if (f.kind === FrameKind.FRAME_KIND_CALL) this.call(f);
      else if (f.kind === FrameKind.FRAME_KIND_CANCEL) this.cancel(f.callId);
    } catch (e) {
      this.unexpected(e, `a frame of call ${f.callId}`);
      if (f.kind !== FrameKind.FRAME_KIND_CALL) return;
      const call = this.calls.get(f.callId);
      if (call !== undefined) this.forget(call, 'Internal error');
      this.fail(f.callId, Status.INTERNAL, 'Internal error');
    }
  }

  private call(f: MuxFrame): void {
    if (this.goingAway) return this.send(frame(FrameKind.FRAME_KIND_REFUSED, f.callId));
    const clash = this.calls.get(f.callId);
    if (clash === undefined && this.calls.size >= this.limits.maxCalls) {
      return this.fail(
        f.callId,
        Status.RESOURCE_EXHAUSTED,
        `Too many calls under way on this stream (at most ${this.limits.maxCalls}): wait for answers`,
      );
    }
    try {
      if (f.metadata.length > 0) metadataOf(f.metadata); // refused as grpc-js refuses it; the service reads none
    } catch (e) {
      if (e instanceof InvalidMetadataError) return this.fail(f.callId, Status.INVALID_ARGUMENT, e.message);
      throw e;
    }
    const method = METHOD_OF.get(f.method);
    if (method === undefined)
      return this.fail(
        f.callId,
        Status.UNIMPLEMENTED,
        `The server does not implement the method ${servicePath(f.method)}`,
      );
    const fn = this.service[method] as ServiceFn | undefined;
    if (fn === undefined)
      return this.fail(f.callId, Status.UNIMPLEMENTED, `The server does not implement the method ${method}`);
    let request: unknown;
    try {
      request = (MESSAGES[method].request as unknown as MessageCodec).decode(f.message);
    } catch {
      return this.fail(f.callId, Status.INTERNAL, 'Error deserializing request');
    }
    const capped = f.timeoutMs === 0 || f.timeoutMs > this.limits.maxCallMs;
    const work = takesSignal(fn) ? new AbortController() : undefined;
    const call = new MuxServerCall(f.callId, method, this, capped, work);
    if (clash !== undefined) this.forget(clash, 'a new call with its ID');
    this.calls.set(f.callId, call);
    deadlines.add(call, Date.now() + (capped ? this.limits.maxCallMs : f.timeoutMs));
    call.settle(callService(this.service, fn, rpcName(method), request, work?.signal, this.limits.call));
  }

  private cancel(id: number): void {
    const call = this.calls.get(id);
    if (call === undefined) return;
    this.forget(call, 'the client cancelled the call');
    this.maybeEnd();
  }

  private fail(id: number, code: Status, details: string): void {
    this.send(failureFrame(id, code, details));
  }

  private send(f: MuxFrame): void {
    this.queue(f, frameBytes(f));
  }

  /** Queues a frame; too much waiting to be written stops the reading of further calls. */
  private queue(f: MuxFrame, size: number): void {
    this.writer.push(f, size);
    if (!this.paused && this.writer.pendingBytes > BACKLOG_BYTES) {
      this.paused = true;
      this.stream.pause();
    }
  }

  /**
   * Reading pauses while received frames wait or answers back up; it resumes once neither holds (the backlog at half).
   */
  private holdReading(): void {
    const hold = this.inbox.length > 0 || this.writer.pendingBytes > (this.paused ? BACKLOG_BYTES / 2 : BACKLOG_BYTES);
    if (hold === this.paused || this.gone) return;
    this.paused = hold;
    if (hold) this.stream.pause();
    else this.stream.resume();
  }

  /** The rest of the inbox on a later turn of the event loop. */
  private nextTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    setImmediate(() => {
      this.turnScheduled = false;
      this.safely(() => this.dispatchQueued());
    });
  }

  /** The call is no longer under way on the stream; with a `cancelled` reason its work is aborted. */
  private forget(call: MuxServerCall, cancelled?: string): void {
    this.calls.delete(call.id);
    deadlines.remove(call);
    if (cancelled !== undefined) call.cancel(cancelled);
  }

  /** After each round of writes: dispatching (then reading) goes on once the backlog is down to half. */
  private flushed(): void {
    if (this.gone || this.writer.pendingBytes > BACKLOG_BYTES / 2) return;
    if (this.inbox.length === 0) this.holdReading();
    else if (!this.turnScheduled) this.dispatchQueued();
  }

  /** The gateway sends no more calls: the stream ends once the calls under way are answered. */
  private halfClose(): void {
    this.halfClosed = true;
    this.maybeEnd();
  }

  private maybeEnd(): void {
    if ((this.goingAway || this.halfClosed) && this.calls.size === 0 && this.inbox.length === 0 && !this.gone) {
      this.gone = true;
      this.streams.delete(this);
      this.writer.endWhenWritten();
    }
  }

  /** Runs `work` of the stream's own (not a frame's): whatever it throws ends the stream INTERNAL, logged once. */
  private safely(work: () => void): void {
    try {
      work();
    } catch (e) {
      this.unexpected(e, 'the stream');
      this.abort(Status.INTERNAL, 'Internal error');
    }
  }

  private unexpected(error: unknown, what: string): void {
    if (this.loggedUnexpected) return;
    this.loggedUnexpected = true;
    try {
      this.limits.logger.error(
        `NodeMux stream from ${this.peer}: ${what} failed unexpectedly ` +
          `(INTERNAL; further failures on this stream are not logged)`,
        error,
      );
    } catch {} // a logger that throws: nothing more to do
  }

  /** Ends the stream with `code`: the calls under way are cancelled, what was received and not dispatched dropped. */
  private abort(code: Status, details: string): void {
    if (this.gone) return;
    this.lost();
    try {
      // grpc-js ends the stream with this status
      this.stream.emit('error', { code, details, metadata: new Metadata() });
    } catch {} // the stream is gone already
  }

  /** The stream broke or the gateway cancelled it: every call under way is cancelled. */
  private lost(): void {
    this.gone = true;
    this.streams.delete(this);
    this.writer.close();
    this.inbox.length = 0;
    this.queuedBytes = 0;
    for (const call of this.calls.values()) {
      deadlines.remove(call);
      call.cancel('the stream ended');
    }
    this.calls.clear();
  }
}
