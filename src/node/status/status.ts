/**
 * What the node says about itself (GET /info, the peers' heartbeats): the milestones it knows, whether it is
 * healthy and why not, the protocol parameters in force and the pending ones, and its rates (those of the last
 * confirmed milestone, Hornet's confirmed-milestone metric, from the node's metrics: metrics.ts,
 * prometheus/node-metrics.ts).
 *
 * Health (Hornet's rule, with the age bound derived from the milestone interval where the node knows it): synced
 * (confirmed = latest, not catching up with peers) and the latest milestone recent. A coordinator is held to the
 * same rule (a coordinator that stopped issuing is not healthy): its own start counts as recent, so it has one
 * bound's time to issue its first milestone. `watch` logs every change of health with the reasons.
 */
import type { ProtocolParametersChange } from '../../core/ledger/index.ts';
import type { ProtocolParameters } from '../../core/model/index.ts';
import { META, type NodeStore } from '../../core/store/index.ts';
import type { BaseTokenInfo } from '../genesis/genesis.ts';
import type { MilestoneProcessor } from '../ledger/milestones.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { Logger } from '../logger.ts';
import type { MilestoneRates } from '../metrics/metrics.ts';
import type { NetworkState } from '../genesis/network.ts';

export const NODE_NAME = 'ledger-node';
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [2];

/** Hornet's bound: a node whose latest milestone is older than this is not healthy. */
export const MAX_MILESTONE_AGE_MS = 5 * 60 * 1000;
/** With a known milestone interval: this many intervals, and at least `MIN_MILESTONE_AGE_MS`. */
export const MILESTONE_AGE_INTERVALS = 10;
export const MIN_MILESTONE_AGE_MS = 30_000;

/**
 * How old the latest milestone may be while the node is healthy: ten intervals (at least 30 s, at most Hornet's
 * 5 minutes) when the node knows the network's milestone interval, else Hornet's 5 minutes.
 */
export function maxMilestoneAgeMs(intervalSeconds: number | undefined): number {
  if (intervalSeconds === undefined || !(intervalSeconds > 0)) return MAX_MILESTONE_AGE_MS;
  return Math.min(
    MAX_MILESTONE_AGE_MS,
    Math.max(MIN_MILESTONE_AGE_MS, MILESTONE_AGE_INTERVALS * intervalSeconds * 1000),
  );
}

/** Whether the node is healthy, why not (one sentence each), and the age of its latest milestone. */
export interface Health {
  healthy: boolean;
  reasons: string[];
  /** Seconds since the latest milestone (undefined: none with a timestamp is known). */
  latestMilestoneAgeSeconds: number | undefined;
}

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
}

export interface NodeStatusDeps {
  store: NodeStore;
  network: NetworkState;
  protocol: ProtocolState;
  milestones: MilestoneProcessor;
  version: string;
  powEnabled: boolean;
  /** Seconds between milestones, where this node knows it (its coordinator's setting); else Hornet's bound applies. */
  milestoneIntervalSeconds?: number;
  /** When this node's coordinator started (ms), while it runs: a recent start counts as a recent milestone. */
  coordinatorSince: () => number | undefined;
  /** False while the node catches up with its peers. */
  synced: () => boolean;
  /** The rates of the last confirmed milestone (zero when absent). */
  rates?: () => MilestoneRates;
  now?: () => number;
  /** The node's peer identity (/info shows it). */
  identity?: { publicKey: Uint8Array; nodeId: Uint8Array };
}

export class NodeStatus {
  private readonly now: () => number;

  constructor(private readonly deps: NodeStatusDeps) {
    this.now = deps.now ?? Date.now;
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
    const health = this.assess(milestones, latestMilestone);
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
    };
  }

  /** The node's health now (see the file comment). */
  async health(): Promise<Health> {
    const milestones = await this.milestoneStatus();
    return this.assess(milestones, await this.latestRef(milestones));
  }

  /** The age bound of the latest milestone this node applies (maxMilestoneAgeMs). */
  get maxMilestoneAgeMs(): number {
    return maxMilestoneAgeMs(this.deps.milestoneIntervalSeconds);
  }

  /**
   * Checks the health every `everyMs` and logs each change (unhealthy with the reasons, healthy again) until the
   * returned function is called.
   */
  watch(logger: Logger, everyMs: number): () => void {
    let last: string | undefined;
    let running = false;
    const check = async (): Promise<void> => {
      if (running) return;
      running = true;
      try {
        const h = await this.health();
        const said = h.healthy ? '' : h.reasons.join('; ');
        if (said !== last) {
          if (h.healthy) {
            if (last !== undefined) logger.info('node healthy again');
          } else logger.warn(`node unhealthy: ${said}`);
          last = said;
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

  private async latestRef(m: MilestoneStatus): Promise<MilestoneRef> {
    const seen = this.deps.milestones.latest();
    return seen !== undefined && seen.index === m.latest && m.latest > m.confirmed
      ? { ...seen }
      : this.milestoneRef(m.latest);
  }

  private assess(m: MilestoneStatus, latest: MilestoneRef): Health {
    const reasons: string[] = [];
    if (!this.deps.synced()) reasons.push('catching up with its peers');
    if (m.confirmed < m.latest)
      reasons.push(`the ledger is at milestone ${m.confirmed}, the latest known is ${m.latest}`);
    const g = this.deps.network.genesisMilestone;
    const stamp = latest.timestamp ?? (latest.index === g.index ? g.timestamp : undefined);
    const ageSeconds = stamp === undefined ? undefined : Math.max(0, Math.floor(this.now() / 1000) - stamp);
    // A coordinator that started recently has had no time to issue yet: its start counts as the last milestone.
    const since = this.deps.coordinatorSince();
    const freshFor = Math.min(
      ageSeconds ?? Infinity,
      since === undefined ? Infinity : Math.max(0, (this.now() - since) / 1000),
    );
    const bound = this.maxMilestoneAgeMs / 1000;
    if (freshFor >= bound) {
      reasons.push(
        ageSeconds === undefined
          ? `no milestone with a timestamp is known (milestone ${latest.index})`
          : `the latest milestone (${latest.index}) is ${ageSeconds} s old, more than the ${bound} s allowed`,
      );
    }
    return { healthy: reasons.length === 0, reasons, latestMilestoneAgeSeconds: ageSeconds };
  }

  private async milestoneRef(index: number): Promise<MilestoneRef> {
    const record = await this.deps.store.milestone(index);
    if (record) return { index, timestamp: record.timestamp, milestoneId: record.milestoneId };
    const g = this.deps.network.genesisMilestone;
    if (index === g.index && index > 0) return { index, timestamp: g.timestamp, milestoneId: g.milestoneId };
    return { index };
  }
}
