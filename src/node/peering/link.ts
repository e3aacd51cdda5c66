/**
 * A peer link: one bidirectional stream of PeerMessages, whichever side opened it. The gRPC client stream (we
 * dialed) and the server call (they dialed) both become a PeerLink, so the protocol code (manager.ts and its parts)
 * does not care.
 */
import { credentials, type ChannelCredentials, type ClientDuplexStream, type ServerDuplexStream } from '@grpc/grpc-js';
import { PeerServiceClient, type PeerMessage } from '../../grpc/gen/peer.ts';
import { constants as http2 } from 'node:http2';
import { boundTarget } from './dial-from.ts';

const { NGHTTP2_CANCEL } = http2;

export interface PeerLink {
  /** "host:port" we dialed, or the remote address of an inbound call. */
  readonly address: string;
  readonly inbound: boolean;
  /** Queues a message; false when the link is closed or its send buffer is over the bound (the message is dropped). */
  send(message: PeerMessage): boolean;
  /** Ends the stream (both directions); further messages are ignored. */
  close(): void;
  onMessage(listener: (m: PeerMessage) => void): void;
  /** Called once when the stream ended, failed or was closed. */
  onClose(listener: (reason: string) => void): void;
}

/** Bytes a link may hold unsent before further (gossip) messages to that peer are dropped. */
export const MAX_SEND_BUFFER = 8 * 1024 * 1024;
/** Largest PeerMessage a node accepts from a peer it dialed (a block is at most 32 KiB). */
export const MAX_PEER_MESSAGE = 64 * 1024;

type Duplex = ClientDuplexStream<PeerMessage, PeerMessage> | ServerDuplexStream<PeerMessage, PeerMessage>;

class StreamLink implements PeerLink {
  private closed = false;
  private readonly messageListeners: ((m: PeerMessage) => void)[] = [];
  private readonly closeListeners: ((reason: string) => void)[] = [];

  constructor(
    readonly address: string,
    readonly inbound: boolean,
    private readonly stream: Duplex,
    private readonly release: () => void,
  ) {
    stream.on('data', (m: PeerMessage) => {
      if (this.closed) return;
      // A listener's throw ends this link, never the process (a throw in a stream's 'data' handler is uncaught).
      try {
        for (const l of this.messageListeners) l(m);
      } catch (e) {
        this.finish(`a message could not be handled: ${(e as Error).message}`);
      }
    });
    stream.on('error', (e: Error) => this.finish(`stream error: ${e.message}`));
    stream.on('end', () => this.finish('the peer ended the stream'));
    stream.on('close', () => this.finish('stream closed'));
    if (inbound)
      (stream as ServerDuplexStream<PeerMessage, PeerMessage>).on('cancelled', () =>
        this.finish('the peer cancelled the stream'),
      );
  }

  send(message: PeerMessage): boolean {
    if (this.closed || this.stream.writableLength > MAX_SEND_BUFFER) return false;
    try {
      this.stream.write(message);
      return true;
    } catch {
      return false;
    }
  }

  close(): void {
    if (this.closed) return;
    this.finish('closed by this node');
  }

  onMessage(listener: (m: PeerMessage) => void): void {
    this.messageListeners.push(listener);
  }

  onClose(listener: (reason: string) => void): void {
    this.closeListeners.push(listener);
  }

  private finish(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.inbound) {
        const call = this.stream as ServerDuplexStream<PeerMessage, PeerMessage>;
        call.end();
        closeLater(call);
      } else {
        (this.stream as ClientDuplexStream<PeerMessage, PeerMessage>).cancel();
      }
    } catch {
      // already gone
    }
    this.release();
    for (const l of this.closeListeners.splice(0)) l(reason);
  }
}

/** How long an inbound stream this node ended may stay open before its HTTP/2 stream is reset. */
export const END_GRACE_MS = 2_000;

/**
 * The HTTP/2 stream under a grpc-js server call. grpc-js keeps it in the innermost of its intercepting calls; this
 * reads grpc-js's own fields (the version is pinned) and yields undefined if they ever change shape.
 */
function http2StreamOf(call: unknown): { closed: boolean; close(code?: number): void } | undefined {
  let c = (call as { call?: unknown }).call;
  for (let depth = 0; c !== undefined && c !== null && depth < 16; depth++) {
    const stream = (c as { stream?: { closed?: unknown; close?: unknown } }).stream;
    if (stream && typeof stream.close === 'function' && typeof stream.closed === 'boolean')
      return stream as { closed: boolean; close(code?: number): void };
    c = (c as { nextCall?: unknown }).nextCall;
  }
  return undefined;
}

/**
 * Ends an inbound stream for good: `end()` asks grpc-js for the OK status, but when grpc-js already ended the call
 * itself (a message it could not decode) while a message of ours was still being written, the trailers are never
 * sent and the stream would stay open, outside the per-host bound, for as long as the client keeps it (found by the
 * gRPC fuzz, test/fuzz/grpc.test.ts). So a stream still open `END_GRACE_MS` after is reset (RST_STREAM CANCEL).
 */
function closeLater(call: ServerDuplexStream<PeerMessage, PeerMessage>): void {
  const timer = setTimeout(() => {
    const stream = http2StreamOf(call);
    if (stream && !stream.closed) stream.close(NGHTTP2_CANCEL);
  }, END_GRACE_MS);
  timer.unref();
}

/**
 * The dialing side's channel options: 64 KiB messages, keepalive (HTTP/2 PING) 10 s after the last activity and 5 s
 * for its answer (the peer door does not police pings), quick first reconnects.
 */
export const DIAL_OPTIONS = {
  'grpc.max_receive_message_length': MAX_PEER_MESSAGE,
  'grpc.max_send_message_length': MAX_PEER_MESSAGE,
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.initial_reconnect_backoff_ms': 100,
} as const;

/**
 * Dials `address` ("host:port", a peer door) and opens the peer stream; plaintext unless `channel` says TLS; from the
 * source address `from` when given (dial-from.ts).
 */
export function dialPeer(
  address: string,
  channel: ChannelCredentials = credentials.createInsecure(),
  from?: string,
): PeerLink {
  const bound = from === undefined ? undefined : boundTarget(address, from);
  const client = new PeerServiceClient(bound?.target ?? address, channel, { ...DIAL_OPTIONS, ...bound?.options });
  const stream = client.connect();
  return new StreamLink(address, false, stream, () => client.close());
}

/** Wraps an inbound Connect call. */
export function acceptPeer(call: ServerDuplexStream<PeerMessage, PeerMessage>): PeerLink {
  return new StreamLink(call.getPeer(), true, call, () => undefined);
}
