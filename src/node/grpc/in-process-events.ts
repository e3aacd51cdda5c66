/**
 * The in-process transport of the NodeEvents service (the counterpart of in-process.ts for the server stream): an
 * object of the generated client type whose `subscribe` returns a readable stream fed straight by the event bus, so
 * the gateway in `ledger-node run` serves MQTT with the same code as a standalone gateway over gRPC.
 *
 * What the caller sees is what a grpc-js client of the service sees: objects of the wire messages (the mapping of
 * events.ts, every bytes field a copy, so nothing the gateway does reaches the node's buffers); 'data' per batch;
 * on the node's stop 'status' OK and 'end'; `cancel()` fails the stream with CANCELLED "Cancelled on client"; a reader
 * that leaves more than `maxQueuedBatches` batches unread fails with RESOURCE_EXHAUSTED, as over gRPC; every failure
 * is an 'error' (a ServiceError: code, details, metadata) followed by 'status'. After the server's `shutdown()` a new
 * subscription fails with UNAVAILABLE; after the client's `close()` `subscribe` throws "Channel has been shut down".
 */
import { Readable } from 'node:stream';
import {
  Metadata,
  status as Status,
  type ClientReadableStream,
  type ServiceError,
  type StatusObject,
} from '@grpc/grpc-js';
import { EventBatch, type NodeEventsClient } from '../../grpc/gen/events.ts';
import type { EventBus } from '../events/bus.ts';
import { batchMessage, DEFAULT_MAX_QUEUED_BATCHES, tooSlow } from './events.ts';

const copy = (b: Uint8Array): Uint8Array => Buffer.from(b);

function serviceError(status: StatusObject): ServiceError {
  return Object.assign(new Error(`${status.code} ${Status[status.code]}: ${status.details}`), status);
}

/** One subscription: a readable object stream of EventBatch messages. */
class InProcessEventStream extends Readable implements ClientReadableStream<EventBatch> {
  readonly deserialize = (chunk: Buffer): EventBatch => EventBatch.decode(chunk);
  private finished = false;
  private unsubscribe: () => void = () => undefined;

  constructor(bus: EventBus | undefined, maxQueuedBatches: number) {
    super({ objectMode: true, highWaterMark: 64 });
    if (bus === undefined) {
      this.fail({
        code: Status.UNAVAILABLE,
        details: 'No connection established. Last error: the in-process NodeEvents service is shut down',
      });
      return;
    }
    this.unsubscribe = bus.subscribe(
      (batch) => {
        if (this.finished) return;
        if (this.readableLength > maxQueuedBatches) this.fail(tooSlow(maxQueuedBatches));
        else this.push(batchMessage(batch, copy));
      },
      () => this.succeed(),
    );
  }

  override _read(): void {}

  cancel(): void {
    this.fail({ code: Status.CANCELLED, details: 'Cancelled on client' });
  }

  getPeer(): string {
    return 'in-process';
  }

  getAuthContext(): null {
    return null;
  }

  /** Ends with an error status on the next tick (as a status arrives from the network). */
  private fail(s: { code: Status; details: string }): void {
    if (this.finished) return;
    this.finished = true;
    this.unsubscribe();
    const status: StatusObject = { ...s, metadata: new Metadata() };
    process.nextTick(() => {
      this.destroy(serviceError(status));
      this.emit('status', status);
    });
  }

  /** The node stopped: status OK, then the end of the stream. */
  private succeed(): void {
    if (this.finished) return;
    this.finished = true;
    this.emit('status', { code: Status.OK, details: 'OK', metadata: new Metadata() });
    this.push(null);
  }
}

/** Serves the bus's events to clients in this process. */
export class InProcessEventsServer {
  private stopped = false;

  constructor(
    private readonly bus: EventBus,
    private readonly maxQueuedBatches = DEFAULT_MAX_QUEUED_BATCHES,
  ) {}

  /** Later subscriptions fail UNAVAILABLE; open ones end when the bus closes. */
  shutdown(): void {
    this.stopped = true;
  }

  /** A client of the generated client type; `close()` ends only this client. */
  createClient(): NodeEventsClient {
    let closed = false;
    const client = {
      close: () => {
        closed = true;
      },
      getChannel: () => {
        throw new Error('the in-process NodeEvents client has no channel');
      },
      waitForReady: (_deadline: unknown, callback: (error?: Error) => void) => {
        process.nextTick(() => callback(closed ? new Error('The client has been closed.') : undefined));
      },
      subscribe: (): ClientReadableStream<EventBatch> => {
        if (closed) throw new Error('Channel has been shut down');
        return new InProcessEventStream(this.stopped ? undefined : this.bus, this.maxQueuedBatches);
      },
    };
    return client as unknown as NodeEventsClient;
  }
}
