/**
 * The gateway's subscription to the node's events (NodeEvents.Subscribe): one stream for the whole gateway, whatever
 * its MQTT clients follow. When the stream breaks (the node restarts, the network fails, the node cut this gateway
 * off as too slow) it is opened again with exponential backoff and jitter (250 ms doubling to 15 s, back to the start
 * once a stream delivered something). Events of the gap are not replayed: a client subscribing afterwards gets the
 * current state on subscribe (current-state.ts). A node that does not serve NodeEvents (UNIMPLEMENTED) is asked
 * again at the longest interval; the same failure is logged once, not at every attempt.
 */
import { status as Status, type ClientReadableStream } from '@grpc/grpc-js';
import { NodeEventsClient, type EventBatch } from '../../src/grpc/gen/events.ts';
import { nodeClientOptions, nodeCredentials, type NodeChannelSecurity } from '../node-channel.ts';

export { NodeEventsClient };

const CHANNEL_OPTIONS = { 'grpc.enable_channelz': 0, 'grpc.max_receive_message_length': 16 * 1024 * 1024 };

/** A NodeEvents client for the node's gRPC `host:port`: plaintext without a token unless `security` says otherwise. */
export function createEventsClient(address: string, security?: NodeChannelSecurity): NodeEventsClient {
  return new NodeEventsClient(address, nodeCredentials(security), nodeClientOptions(security, CHANNEL_OPTIONS));
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

export function followEvents(client: NodeEventsClient, options: FollowOptions): Following {
  const min = options.minBackoffMs ?? 250;
  const max = options.maxBackoffMs ?? 15_000;
  let backoff = min;
  let call: ClientReadableStream<EventBatch> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let reconnects = 0;
  let opened = 0;
  let lastLogged: string | undefined;

  const retry = (why: string, err?: unknown): void => {
    call = undefined;
    if (closed || timer !== undefined) return;
    if ((err as { code?: unknown } | undefined)?.code === Status.UNIMPLEMENTED) backoff = max;
    const wait = Math.round(backoff * (0.5 + Math.random() / 2));
    if (why !== lastLogged) options.log(`node events stream ${why}; reopening in ${wait} ms`, err);
    lastLogged = why;
    backoff = Math.min(max, backoff * 2);
    timer = setTimeout(() => {
      timer = undefined;
      reconnects++;
      open();
    }, wait);
  };

  const open = (): void => {
    if (closed) return;
    let stream: ClientReadableStream<EventBatch>;
    try {
      stream = client.subscribe({});
    } catch (err) {
      retry('could not be opened', err);
      return;
    }
    call = stream;
    opened++;
    options.onOpen?.();
    let ended = false;
    const end = (why: string, err?: unknown): void => {
      if (ended) return;
      ended = true;
      if (call === stream) retry(why, err);
    };
    stream.on('data', (batch: EventBatch) => {
      backoff = min;
      lastLogged = undefined;
      options.onBatch(batch);
    });
    stream.on('error', (err: Error) => end(`failed (${err.message})`, err));
    stream.on('end', () => end('ended'));
  };

  open();
  return {
    get open() {
      return call !== undefined && opened > 0;
    },
    get reconnects() {
      return reconnects;
    },
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      const c = call;
      call = undefined;
      c?.cancel();
    },
  };
}
