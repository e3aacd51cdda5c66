/**
 * What the node says about itself (GET /info, the peers' heartbeats): the milestones it knows, whether it is
 * healthy and why not, the protocol parameters in force and the pending ones, and its rates (those of the last
 * confirmed milestone, Hornet's confirmed-milestone metric, from the node's metrics: metrics.ts,
 * prometheus/node-metrics.ts).
 *
 * Health is the rule of health.ts over what this node knows now: sync, the ledger and latest milestone, the network's
 * milestone interval (its own coordinator's; else learned from the timestamps of the last confirmed milestones), and
 * its peers' liveness (the peer layer's, through the sync state). The same rule says when a node is cut off from its
 * network: `refusal` turns that into the error client submissions and the faucet answer. `watch` logs every change
 * of health once, with the reasons.
 */
import type { ProtocolParametersChange } from '../../core/ledger/index.ts';
import type { ProtocolParameters } from '../../core/model/index.ts';
import { LEDGER_META } from '../../core/ledger/index.ts';
import { META, type NodeStore } from '../../core/store/index.ts';
import type { BaseTokenInfo } from '../genesis/genesis.ts';
import type { MilestoneProcessor } from '../ledger/milestones.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { Logger } from '../logger.ts';
import type { MilestoneRates } from '../metrics/metrics.ts';
import type { NetworkState } from '../genesis/network.ts';
import { NodeError } from '../support/errors.ts';
import {
  assessHealth,
  CUT_OFF_RETRY_SECONDS,
  cutOffMessage,
  healthSettingsOf,
  maxMilestoneAgeMs,
  NO_PEERS,
  type Health,
  type HealthSettings,
  type PeerLiveness,
} from './health.ts';
import type { StorageFigures, StorageWatch } from './storage.ts';

export { MAX_MILESTONE_AGE_MS, maxMilestoneAgeMs, type Health } from './health.ts';

export const NODE_NAME = 'ledger-node';
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [2];

/** Milestones over which a node without its own coordinator measures the network's interval. */
export const INTERVAL_SAMPLE = 10;

export interface MilestoneRef {
  index: number;
  timestamp?: number;
  milestoneId?: Uint8Array;
}

export interface MilestoneStatus {
  /** Highest milestone index known with valid signatures (confirmed or not). */
  latest: number;
  /** Index of the ledger (the last confirmed milestone). */
  confirmed: number;
  pruning: number;
}

export interface NodeInfo {
  name: string;
  version: string;
  isHealthy: boolean;
  /** Why not healthy (empty when healthy). */
  healthReasons: string[];
  latestMilestone: MilestoneRef;
  confirmedMilestone: MilestoneRef;
  pruningIndex: number;
  supportedProtocolVersions: number[];
  protocol: ProtocolParameters;
  pendingProtocolParameters: ProtocolParametersChange[];
  baseToken: BaseTokenInfo;
  metrics: { blocksPerSecond: number; referencedBlocksPerSecond: number; referencedRate: number };
  features: string[];
  /** The node's peer identity: its Ed25519 public key and the node ID derived from it. */
  identity?: { publicKey: Uint8Array; nodeId: Uint8Array };
  /** What runs out first: the data folder and its disk (storage.ts), and the pruning index's milestone timestamp. */
  storage?: StorageFigures & { pruningIndexTimestamp?: number };
}

export interface NodeStatusDeps {
  store: NodeStore;
  network: NetworkState;
  protocol: ProtocolState;
  milestones: MilestoneProcessor;
  version: string;
  powEnabled: boolean;
  /** Seconds between milestones of this node's own coordinator; without it the interval is learned (health.ts). */
  milestoneIntervalSeconds?: number;
  /** This node runs the coordinator: it is never cut off and needs no live peer (health.ts). */
  runsCoordinator?: boolean;
  /** When this node's coordinator started (ms), while it runs: a recent start counts as a recent milestone. */
  coordinatorSince: () => number | undefined;
  /** False while the node catches up with its peers. */
  synced: () => boolean;
  /** The peers' liveness, as the peer layer reports it (none configured when absent). */
  peers?: () => PeerLiveness;
  /** The thresholds of the health rule (health.ts HEALTH_DEFAULTS where not given). */
  health?: Partial<HealthSettings>;
  /** The rates of the last confirmed milestone (zero when absent). */
  rates?: () => MilestoneRates;
  now?: () => number;
  /** The node's peer identity (/info shows it). */
  identity?: { publicKey: Uint8Array; nodeId: Uint8Array };
  /** The data folder's figures (/info's `storage`; absent for a store in memory). */
  storage?: StorageWatch;
}

export class NodeStatus {
  private readonly now: () => number;
  readonly settings: HealthSettings;
  /** The interval learned at a ledger index (recomputed when the ledger moves on). */
  private learned: { confirmed: number; seconds: number | undefined } | undefined;

  constructor(private readonly deps: NodeStatusDeps) {
    this.now = deps.now ?? Date.now;
    this.settings = healthSettingsOf(deps.health);
  }

  async milestoneStatus(): Promise<MilestoneStatus> {
    const { store, network, milestones } = this.deps;
    const genesis = network.genesisMilestone.index;
    const confirmed =
      (await store.getMeta(META.ledgerIndex)) ?? (await store.getMeta(META.confirmedMilestoneIndex)) ?? genesis;
    const latest = Math.max(
      confirmed,
      (await store.getMeta(META.latestMilestoneIndex)) ?? genesis,
      milestones.latest()?.index ?? 0,
    );
    // Nothing below the genesis (or snapshot) milestone is held; once pruned, nothing at or below the pruning index.
    return { latest, confirmed, pruning: this.deps.protocol.pruningIndex ?? genesis };
  }

  async info(): Promise<NodeInfo> {
    const { network, protocol } = this.deps;
    const milestones = await this.milestoneStatus();
    const { confirmed, pruning } = milestones;
    const latestMilestone = await this.latestRef(milestones);
    const health = await this.assess(milestones, latestMilestone);
    return {
      name: NODE_NAME,
      version: this.deps.version,
      isHealthy: health.healthy,
      healthReasons: health.reasons,
      latestMilestone,
      confirmedMilestone: await this.milestoneRef(confirmed),
      pruningIndex: pruning,
      supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS.slice(),
      protocol: protocol.current,
      pendingProtocolParameters: protocol.pending.slice(),
      baseToken: { ...network.baseToken },
      metrics: this.deps.rates?.() ?? { blocksPerSecond: 0, referencedBlocksPerSecond: 0, referencedRate: 0 },
      features: this.deps.powEnabled ? ['pow'] : [],
      ...(this.deps.identity ? { identity: { ...this.deps.identity } } : {}),
      ...(this.deps.storage ? { storage: await this.storageFigures(pruning) } : {}),
    };
  }

  /** The storage watch's figures and the timestamp of the milestone at the pruning index (hornet#523). */
  private async storageFigures(pruning: number): Promise<NonNullable<NodeInfo['storage']>> {
    const figures = await this.deps.storage!.figures();
    // a pruned milestone's record is gone: the pruning state keeps its timestamp; before any pruning, the index is
    // the genesis (or snapshot) milestone's
    const state = await this.deps.store.getMeta(LEDGER_META.pruning);
    const timestamp =
      state !== undefined && state.index === pruning
        ? state.milestone.timestamp
        : (await this.milestoneRef(pruning)).timestamp;
    return { ...figures, ...(timestamp !== undefined ? { pruningIndexTimestamp: timestamp } : {}) };
  }

  /** The node's health now (see the file comment). */
  async health(): Promise<Health> {
    const milestones = await this.milestoneStatus();
    return this.assess(milestones, await this.latestRef(milestones));
  }

  /**
   * The refusal of a client submission while the node is cut off from its network (health.ts): NODE_NOT_SYNCED
   * (UNAVAILABLE, 503) with the reasons and a Retry-After hint; undefined while it is not. A node that is never cut off
   * (the coordinator, no static peers) answers at once without reading the store.
   */
  async refusal(): Promise<NodeError | undefined> {
    if (this.deps.runsCoordinator || !this.peers().configured) return undefined;
    const h = await this.health();
    if (!h.cutOff) return undefined;
    return new NodeError('NODE_NOT_SYNCED', cutOffMessage(h), { retryAfterSeconds: CUT_OFF_RETRY_SECONDS });
  }

  /** The age bound of the latest milestone with its own coordinator's interval (health.ts maxMilestoneAgeMs). */
  get maxMilestoneAgeMs(): number {
    return maxMilestoneAgeMs(this.deps.milestoneIntervalSeconds, this.settings);
  }

  /**
   * Checks the health every `everyMs` and logs each change once (unhealthy with the reasons, other reasons, healthy
   * again; whether submissions are refused), until the returned function is called. A reason whose figures change
   * (a milestone's age) is not a change, and a state is logged once two checks in a row found it: the moment between
   * a milestone's arrival and its confirmation is not a change either.
   */
  watch(logger: Logger, everyMs: number): () => void {
    let last: string | undefined;
    let seen: string | undefined;
    let wasCutOff = false;
    let running = false;
    const check = async (): Promise<void> => {
      if (running) return;
      running = true;
      try {
        const h = await this.health();
        const state = `${h.codes.join(',')}${h.cutOff ? '+cut-off' : ''}`;
        const confirmed = state === seen;
        seen = state;
        if (confirmed && state !== last) {
          if (h.healthy) {
            if (last !== undefined) logger.info(`node healthy again${wasCutOff ? '; submissions accepted again' : ''}`);
          } else {
            const refused = h.cutOff ? '; submissions refused until it is back in sync' : '';
            logger.warn(`node unhealthy: ${h.reasons.join('; ')}${refused}`);
          }
          last = state;
          wasCutOff = h.cutOff;
        }
      } catch (e) {
        logger.warn(`health check failed: ${(e as Error).message}`);
      } finally {
        running = false;
      }
    };
    const timer = setInterval(() => void check(), everyMs);
    timer.unref();
    void check();
    return () => clearInterval(timer);
  }

  private peers(): PeerLiveness {
    return this.deps.peers?.() ?? NO_PEERS;
  }

  private async latestRef(m: MilestoneStatus): Promise<MilestoneRef> {
    const seen = this.deps.milestones.latest();
    return seen !== undefined && seen.index === m.latest && m.latest > m.confirmed
      ? { ...seen }
      : this.milestoneRef(m.latest);
  }

  private async assess(m: MilestoneStatus, latest: MilestoneRef): Promise<Health> {
    const g = this.deps.network.genesisMilestone;
    const timestamp = latest.timestamp ?? (latest.index === g.index ? g.timestamp : undefined);
    return assessHealth(
      {
        nowMs: this.now(),
        synced: this.deps.synced(),
        confirmed: m.confirmed,
        latest: { index: latest.index, timestamp },
        runsCoordinator: this.deps.runsCoordinator === true,
        coordinatorSinceMs: this.deps.coordinatorSince(),
        intervalSeconds: await this.intervalSeconds(m),
        peers: this.peers(),
      },
      this.settings,
    );
  }

  /**
   * Seconds between the network's milestones: this node's coordinator's setting, else the mean gap between the
   * timestamps of the last `INTERVAL_SAMPLE` confirmed milestones held (at least 2 gaps; a gap under a second, as
   * timestamps are whole seconds, counts as one second over the sample); undefined while unknown.
   */
  private async intervalSeconds(m: MilestoneStatus): Promise<number | undefined> {
    if (this.deps.milestoneIntervalSeconds !== undefined) return this.deps.milestoneIntervalSeconds;
    if (this.learned?.confirmed === m.confirmed) return this.learned.seconds;
    const g = this.deps.network.genesisMilestone.index;
    const lowest = Math.max(g, this.deps.protocol.pruningIndex === undefined ? g : this.deps.protocol.pruningIndex + 1);
    const from = Math.max(lowest, m.confirmed - INTERVAL_SAMPLE);
    let seconds: number | undefined;
    if (m.confirmed - from >= 2) {
      const [a, b] = await Promise.all([this.milestoneRef(from), this.milestoneRef(m.confirmed)]);
      if (a.timestamp !== undefined && b.timestamp !== undefined)
        seconds = Math.max(1, b.timestamp - a.timestamp) / (m.confirmed - from);
    }
    this.learned = { confirmed: m.confirmed, seconds };
    return seconds;
  }

  private async milestoneRef(index: number): Promise<MilestoneRef> {
    const record = await this.deps.store.milestone(index);
    if (record) return { index, timestamp: record.timestamp, milestoneId: record.milestoneId };
    const g = this.deps.network.genesisMilestone;
    if (index === g.index && index > 0) return { index, timestamp: g.timestamp, milestoneId: g.milestoneId };
    return { index };
  }
}
