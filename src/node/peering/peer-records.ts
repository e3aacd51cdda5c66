/**
 * The records of the peer set (peers.ts): a peer stream (Peer), a static peer (StaticPeer), what the set reports to its
 * owner (PeerEvents), a peer as the peers routes show it (PeerInfo, peerInfo), and the host of a peer address (hostOf).
 */
import type { Heartbeat, PeerMessage } from '../../grpc/gen/peer.ts';
import { multiAddressOf } from './addresses.ts';
import type { GossipCounters } from './gossip-metrics.ts';
import type { Backoff, TokenBucket } from './limits.ts';
import type { PeerLink } from './link.ts';

export interface Peer {
  key: number;
  link: PeerLink;
  /** The nonce we sent on this stream (the peer signs it). */
  nonce: Uint8Array;
  /** The peer's Handshake once it arrived and passed the checks; its proof is still to come. */
  hello?: { publicKey: Uint8Array; nonce: Uint8Array; nodeId: string };
  /** Hex node ID once the handshake completed (the proof verified). */
  nodeId?: string;
  bucket: TokenBucket;
  heartbeat?: Heartbeat;
  handshakeTimer?: ReturnType<typeof setTimeout>;
  /** Milestone requests sent to this peer and not answered (reset by any milestone it delivers). */
  unanswered: number;
  closed: boolean;
  /** When the last message (of any kind) came from the peer on this stream, or the stream opened (liveness.ts). */
  lastHeard: number;
  /** What Hornet's peers routes answer as `gossip.metrics` (gossip-metrics.ts). */
  metrics: GossipCounters;
}

/** A peer as the peers routes show it (Hornet's PeerResponse). */
export interface PeerInfo {
  /** The node ID (hex) once known; a static peer that never completed a handshake is listed under its address. */
  id: string;
  /** `host:port` dialed, or the remote address of an inbound stream. */
  address: string;
  multiAddresses: string[];
  alias?: string;
  /** 'known': a static peer (`--peer`, or added at run time); 'unknown': it dialed us. */
  relation: 'known' | 'unknown';
  inbound: boolean;
  connected: boolean;
  heartbeat?: Heartbeat;
  /** Present while a stream to the peer is open. */
  metrics?: GossipCounters;
}

export interface StaticPeer {
  address: string;
  /** The identity key it must prove (`--peer 0xPUBKEY@HOST:PORT`); any key when absent. */
  expected?: Uint8Array;
  alias?: string;
  /** The node ID of its last handshake. */
  nodeId?: string;
  backoff: Backoff;
  peer?: Peer;
  timer?: ReturnType<typeof setTimeout>;
  self: boolean;
  bannedUntil: number;
  /** Removed at run time: never redialed. */
  removed?: boolean;
}

/** What the peer set reports to its owner. */
export interface PeerEvents {
  /** Every message of a peer (the handshake included, see `handshake`). */
  message(peer: Peer, m: PeerMessage): void;
  /** A peer completed its handshake. */
  connected(peer: Peer): void;
  /** The stream of a peer that had completed its handshake closed (it is no longer in the set). */
  disconnected(peer: Peer): void;
}

/** A peer as the peers routes show it: `p` its open stream, if any. */
export function peerInfo(
  id: string,
  address: string,
  relation: 'known' | 'unknown',
  p: Peer | undefined,
  alias?: string,
): PeerInfo {
  const connected = p !== undefined && !p.closed && p.nodeId !== undefined;
  return {
    id,
    address,
    multiAddresses: [multiAddressOf(address)],
    ...(alias !== undefined ? { alias } : {}),
    relation,
    inbound: p?.link.inbound ?? false,
    connected,
    ...(connected && p.heartbeat ? { heartbeat: { ...p.heartbeat } } : {}),
    ...(connected ? { metrics: { ...p.metrics } } : {}),
  };
}

/** The host of a peer address: `host:port` dialed, or grpc-js's `ipv4:1.2.3.4:port` / `ipv6:[::1]:port` of a call. */
export function hostOf(address: string): string {
  return address.replace(/:\d+$/, '');
}
