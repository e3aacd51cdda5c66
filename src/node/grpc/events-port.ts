/**
 * NodeEvents as the gateway's events port (src/grpc/port.ts EventsPort) in this process: what `ledger-node run` hands
 * its gateway. Each subscription is fed straight by the event bus (`feed` of events.ts: the wire messages and the
 * gRPC server's rule): a batch waits in the subscription until its reader takes it, and a reader that leaves more than
 * `maxQueuedBatches` unread is cut off with RESOURCE_EXHAUSTED, its unread batches dropped.
 *
 * The messages share the node's buffers (stored bytes, IDs, tags), as the node's port in this process shares its
 * answers (port.ts): the gateway only reads them (hex for topic names, JSON rendering, and mqtt-packet copies a payload
 * into each PUBLISH packet it builds), and the node never writes to a buffer it has handed to the bus. A copy of every
 * bytes field of every event would protect nothing.
 *
 * After `close()` a new subscription fails UNAVAILABLE, as one to a stopped node does; open ones end with the bus.
 */
import type { EventBatch, SubscribeRequest } from '../../grpc/gen/events.ts';
import { cancelledCall, NodeCallError, SUBSCRIBE, type EventsPort } from '../../grpc/port.ts';
import type { EventBus } from '../events/bus.ts';
import { DEFAULT_MAX_QUEUED_BATCHES, feed, type BatchStream, type EndStatus } from './events.ts';
import { nodeStopped } from './port.ts';

/** The port in this process; `close()` makes later subscriptions fail as subscriptions to a stopped node do. */
export interface LocalEventsPort extends EventsPort {
  close(): void;
}

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** One subscription: the batches its reader has not taken yet, and how it ended. */
class Subscription implements AsyncIterableIterator<EventBatch>, BatchStream {
  private queue: EventBatch[] = [];
  private reader: { resolve(r: IteratorResult<EventBatch>): void; reject(err: unknown): void } | undefined;
  /** Undefined while open; null once ended normally; else the failure the reader gets next. */
  private outcome: NodeCallError | null | undefined;
  private unsubscribe: () => void = () => undefined;

  constructor(
    bus: EventBus | undefined,
    maxQueuedBatches: number,
    private readonly signal: AbortSignal | undefined,
  ) {
    if (bus === undefined) this.outcome = nodeStopped(SUBSCRIBE);
    else if (signal?.aborted) this.outcome = cancelledCall(SUBSCRIBE);
    else {
      this.unsubscribe = feed(bus, maxQueuedBatches, this);
      signal?.addEventListener('abort', this);
    }
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  get queued(): number {
    return this.queue.length;
  }

  write(batch: EventBatch): void {
    const reader = this.reader;
    if (reader === undefined) this.queue.push(batch);
    else {
      this.reader = undefined;
      reader.resolve({ done: false, value: batch });
    }
  }

  cutOff(status: EndStatus): void {
    this.finish(new NodeCallError(SUBSCRIBE, status.code, status.details));
  }

  end(): void {
    this.finish(null);
  }

  /** The signal aborted (an EventListener object). */
  handleEvent(): void {
    this.finish(cancelledCall(SUBSCRIBE));
  }

  next(): Promise<IteratorResult<EventBatch>> {
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.queue.shift()! });
    const outcome = this.outcome;
    if (outcome === undefined) return new Promise((resolve, reject) => (this.reader = { resolve, reject }));
    this.outcome = null; // a failure is told once; later reads see the end
    return outcome === null ? Promise.resolve(DONE) : Promise.reject(outcome);
  }

  /** The reader left the loop: no more batches. */
  return(): Promise<IteratorResult<EventBatch>> {
    this.finish(null);
    this.outcome = null;
    this.queue = [];
    return Promise.resolve(DONE);
  }

  /** Ends the subscription: unsubscribed, the unread batches dropped after a failure, a waiting reader told. */
  private finish(outcome: NodeCallError | null): void {
    if (this.outcome !== undefined) return;
    this.outcome = outcome;
    this.unsubscribe();
    this.signal?.removeEventListener('abort', this);
    if (outcome !== null) this.queue = [];
    const reader = this.reader;
    if (reader === undefined) return;
    this.reader = undefined;
    this.next().then(reader.resolve, reader.reject);
  }
}

/** The events port over `bus` (the node's EventBus, or a test's). */
export function localEventsPort(bus: EventBus, maxQueuedBatches = DEFAULT_MAX_QUEUED_BATCHES): LocalEventsPort {
  let closed = false;
  return {
    subscribe: (_request: SubscribeRequest, options: { signal?: AbortSignal } = {}) =>
      new Subscription(closed ? undefined : bus, maxQueuedBatches, options.signal),
    close: () => {
      closed = true;
    },
  };
}
