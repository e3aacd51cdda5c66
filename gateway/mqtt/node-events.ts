/**
 * The gateway's subscription to the node's events (the EventsPort of src/grpc/port.ts): one stream for the whole
 * gateway, whatever its MQTT clients follow. In `ledger-node run` the port is the node's event bus itself
 * (src/node/grpc/events-port.ts); a standalone gateway's is NodeEvents.Subscribe over gRPC (`eventsPortOverClient`).
 * When the stream breaks (the node restarts, the network fails, the node cut this gateway off as too slow) it is
 * opened again with exponential backoff and jitter (250 ms doubling to 15 s, back to the start once a stream delivered
 * something). Events of the gap are not replayed: a client subscribing afterwards gets the current state on subscribe
 * (current-state.ts). A node that does not serve NodeEvents (UNIMPLEMENTED) is asked again at the longest interval;
 * the same failure is logged once, not at every attempt.
 */
import type { ClientReadableStream } from '@grpc/grpc-js';
import { NodeEventsClient, type EventBatch, type SubscribeRequest } from '../../src/grpc/gen/events.ts';
import { cancelledCall, NodeCallError, SUBSCRIBE, whenAborted, type EventsPort } from '../../src/grpc/port.ts';
import { GrpcStatus, type ClientErrorLike } from '../../src/grpc/status.ts';
import { nodeClientOptions, nodeCredentials, type NodeChannelSecurity } from '../node-channel.ts';

export { NodeEventsClient };

const CHANNEL_OPTIONS = { 'grpc.enable_channelz': 0, 'grpc.max_receive_message_length': 16 * 1024 * 1024 };

/** A NodeEvents client for the node's gRPC `host:port`: plaintext without a token unless `security` says otherwise. */
export function createEventsClient(address: string, security?: NodeChannelSecurity): NodeEventsClient {
  return new NodeEventsClient(address, nodeCredentials(security), nodeClientOptions(security, CHANNEL_OPTIONS));
}

/** A subscription that fails at its first read with `err`. */
function failing(err: NodeCallError): AsyncIterable<EventBatch> {
  return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(err) }) };
}

/**
 * A gRPC stream's batches (its own async iterator, which reads at the reader's pace), its failure as a NodeCallError.
 * Leaving the iteration, or its end, cancels the call and detaches the abort.
 */
function batchesOf(call: ClientReadableStream<EventBatch>, detach: () => void): AsyncIterableIterator<EventBatch> {
  const batches = call[Symbol.asyncIterator]() as AsyncIterator<EventBatch>;
  const stop = (): void => {
    detach();
    call.cancel(); // nothing when the stream has ended already
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next: () =>
      batches.next().then(
        (r) => {
          if (r.done) stop();
          return r;
        },
        (err: unknown) => {
          stop();
          throw NodeCallError.fromClientError(SUBSCRIBE, err as ClientErrorLike);
        },
      ),
    return: () => {
      stop();
      return batches.return?.() ?? Promise.resolve({ done: true, value: undefined });
    },
  };
}

/**
 * The events port over a NodeEvents client (grpc-js): a subscription is one Subscribe call, started at once and read
 * at the reader's pace (grpc-js and HTTP/2 flow control hold the rest; the node cuts a reader off that falls too far
 * behind). `signal` cancels the call. A client closed already fails the iteration UNAVAILABLE.
 */
export function eventsPortOverClient(client: NodeEventsClient): EventsPort {
  return {
    subscribe(request: SubscribeRequest, options: { signal?: AbortSignal } = {}): AsyncIterable<EventBatch> {
      if (options.signal?.aborted) return failing(cancelledCall(SUBSCRIBE));
      let call: ClientReadableStream<EventBatch>;
      try {
        call = client.subscribe(request);
      } catch (err) {
        return failing(new NodeCallError(SUBSCRIBE, GrpcStatus.UNAVAILABLE, (err as Error).message));
      }
      // The iteration reports the stream's failure; this listener keeps one that comes after the reader left (the
      // cancel of `batchesOf`) from being an unhandled 'error' event.
      call.on('error', () => undefined);
      return batchesOf(
        call,
        whenAborted(options, () => call.cancel()),
      );
    },
  };
}

export interface FollowOptions {
  /** Each batch, in order. */
  onBatch: (batch: EventBatch) => void;
  /** A stream was opened (the first time and after each break): a moment to refresh what the gateway caches. */
  onOpen?: () => void;
  log: (message: string, err?: unknown) => void;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export interface Following {
  /** Whether a stream is open now. */
  readonly open: boolean;
  /** Streams opened after a break. */
  readonly reconnects: number;
  close(): void;
}

/** How a stream's failure is logged: the status and its text for the port's errors. */
function failure(err: unknown): string {
  return err instanceof NodeCallError ? `${GrpcStatus[err.grpcCode] ?? err.grpcCode}: ${err.details}` : String(err);
}

export function followEvents(port: EventsPort, options: FollowOptions): Following {
  const min = options.minBackoffMs ?? 250;
  const max = options.maxBackoffMs ?? 15_000;
  let backoff = min;
  /** The open stream's abort; undefined while none is open. */
  let current: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let reconnects = 0;
  let lastLogged: string | undefined;

  const retry = (why: string, err?: unknown): void => {
    current = undefined;
    if (closed || timer !== undefined) return;
    if (err instanceof NodeCallError && err.grpcCode === GrpcStatus.UNIMPLEMENTED) backoff = max;
    const wait = Math.round(backoff * (0.5 + Math.random() / 2));
    if (why !== lastLogged) options.log(`node events stream ${why}; reopening in ${wait} ms`, err);
    lastLogged = why;
    backoff = Math.min(max, backoff * 2);
    timer = setTimeout(() => {
      timer = undefined;
      reconnects++;
      void open();
    }, wait);
  };

  const open = async (): Promise<void> => {
    if (closed) return;
    const stream = new AbortController();
    current = stream;
    let why = 'ended';
    let error: unknown;
    try {
      options.onOpen?.();
      for await (const batch of port.subscribe({}, { signal: stream.signal })) {
        backoff = min;
        lastLogged = undefined;
        options.onBatch(batch);
      }
    } catch (err) {
      why = `failed (${failure(err)})`;
      error = err;
    }
    if (current === stream) retry(why, error);
  };

  void open();
  return {
    get open() {
      return current !== undefined;
    },
    get reconnects() {
      return reconnects;
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const c = current;
      current = undefined;
      c?.abort();
    },
  };
}
