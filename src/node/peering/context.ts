/**
 * What every part of the peer layer shares: the options with their defaults, and one context (logger, clock,
 * counters, whether the layer runs) that the PeerManager hands to each part.
 */
import type { Logger } from '../logger.ts';
import type { Traffic } from './gossip-metrics.ts';
import type { PeerIdentity } from './handshake.ts';
import type { PeerLink } from './link.ts';
import type { PeeringFile } from './peering-file.ts';
import type { SyncState } from './sync-state.ts';

export interface PeeringOptions {
  /** Static peers, "host:port", or "0xPUBKEY@host:port" to accept only the peer of that identity key. */
  peers: readonly string[];
  /** The peers added at run time, kept across restarts (peering-file.ts); dialed beside `peers`. */
  peeringFile?: PeeringFile;
  logger: Logger;
  /** The node's identity key (identity.ts); a fresh one for the process by default. The node ID derives from it. */
  identity?: PeerIdentity;
  heartbeatMs?: number;
  /**
   * A link on which nothing (no heartbeat, no message) came from the peer for this long is closed, on the side that
   * dialed and on the side that accepted alike (liveness.ts); at least twice `heartbeatMs`.
   */
  linkTimeoutMs?: number;
  /** After a link to a peer comes back: the blocks offered to it at most, and their bytes at most (offers.ts). */
  offerMaxBlocks?: number;
  offerMaxBytes?: number;
  /** Solidification / sync loop period. */
  tickMs?: number;
  requestTimeoutMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  banMs?: number;
  handshakeTimeoutMs?: number;
  /** Streams other nodes opened to this one, handshaken or not, at most; a further one is closed at once. */
  maxInbound?: number;
  /** Of those, from one remote host at most (identity keys cost nothing: one host could otherwise take every slot). */
  maxInboundPerHost?: number;
  /** Messages per second a peer may send on average, and in one burst. */
  messageRate?: number;
  messageBurst?: number;
  /** Block requests sent per tick, at most. */
  requestsPerTick?: number;
  /** Milestones requested ahead of the ledger index. */
  syncWindow?: number;
  /** With static peers: not synced before a first heartbeat, for at most this long after start. */
  startGraceMs?: number;
  /** Milestones a node may be behind and still take submissions and report healthy (default 2). */
  syncTolerance?: number;
  seenCapacity?: number;
  /** v3 blocks waiting for parents, at most. */
  maxParked?: number;
  /** Unsolid blocks (not milestones) whose cones are being solidified, at most; and for how long each is tried. */
  maxRoots?: number;
  rootTtlMs?: number;
  /** Where the peer layer reports whether the node is synced (sync-state.ts); one of its own when absent. */
  sync?: SyncState;
  /** Dial function (tests). */
  dial?: (address: string) => PeerLink;
  now?: () => number;
}

/** The numeric options, every one set. */
export type PeeringSettings = Required<
  Omit<PeeringOptions, 'identity' | 'peers' | 'peeringFile' | 'logger' | 'dial' | 'now' | 'sync'>
>;

/** The default of each numeric option. */
const PEERING_DEFAULTS: Readonly<PeeringSettings> = Object.freeze({
  heartbeatMs: 1000,
  linkTimeoutMs: 3000,
  offerMaxBlocks: 1000,
  offerMaxBytes: 4 * 1024 * 1024,
  tickMs: 100,
  requestTimeoutMs: 1500,
  backoffBaseMs: 250,
  backoffMaxMs: 15_000,
  banMs: 5 * 60_000,
  handshakeTimeoutMs: 5000,
  maxInbound: 64,
  maxInboundPerHost: 8,
  messageRate: 2000,
  messageBurst: 10_000,
  requestsPerTick: 200,
  syncWindow: 8,
  startGraceMs: 3000,
  syncTolerance: 2,
  seenCapacity: 100_000,
  maxParked: 4096,
  maxRoots: 10_000,
  rootTtlMs: 60_000,
});

/** The options with their defaults; an Error when the link timeout would close links between two heartbeats. */
export function settingsOf(options: PeeringOptions): PeeringSettings {
  const settings = { ...PEERING_DEFAULTS };
  for (const key of Object.keys(settings) as (keyof PeeringSettings)[]) settings[key] = options[key] ?? settings[key];
  const { linkTimeoutMs, heartbeatMs } = settings;
  if (!(linkTimeoutMs >= 2 * heartbeatMs))
    throw new Error(`peering: a link timeout of ${linkTimeoutMs} ms is under twice the heartbeat (${heartbeatMs} ms)`);
  return settings;
}

export interface PeeringStats {
  received: number;
  duplicates: number;
  gossiped: number;
  requested: number;
  dropped: number;
  /** Blocks offered to peers whose link came back (offers.ts). */
  offered: number;
}

export interface PeeringContext {
  readonly settings: PeeringSettings;
  readonly log: Logger;
  readonly now: () => number;
  /** The PeerManager's counters; each part counts its own. */
  readonly stats: PeeringStats;
  /** Messages sent and received by kind, every peer together (gossip-metrics.ts). */
  readonly traffic: Traffic;
  /** Between the PeerManager's start and stop. */
  running(): boolean;
}
