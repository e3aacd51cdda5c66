/**
 * What the node says about itself (GET /info, the peers' heartbeats): the milestones it knows, whether it is
 * healthy, the protocol parameters in force and the pending ones, and its rates (those of the last confirmed
 * milestone, Hornet's confirmed-milestone metric, from the node's metrics: metrics.ts, prometheus/node-metrics.ts).
 *
 * Health (Hornet): synced (confirmed = latest) and the latest milestone is recent; a node running its own
 * coordinator is the network's clock, so it is healthy while it runs; a node catching up with its peers is not.
 */
import type { ProtocolParametersChange } from '../core/ledger/index.ts';
import type { ProtocolParameters } from '../core/model/index.ts';
import { META, type NodeStore } from '../core/store/index.ts';
import type { BaseTokenInfo } from './genesis.ts';
import type { MilestoneProcessor } from './ledger/milestones.ts';
import type { ProtocolState } from './ledger/protocol-state.ts';
import type { MilestoneRates } from './metrics.ts';
import type { NetworkState } from './network.ts';

export const NODE_NAME = 'ledger-node';
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = [2];

/** A node whose latest milestone is older than this is not healthy (unless its own coordinator runs). */
export const MAX_MILESTONE_AGE_MS = 5 * 60 * 1000;

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
  coordinatorActive: () => boolean;
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
    const confirmed = (await store.getMeta(META.ledgerIndex)) ?? (await store.getMeta(META.confirmedMilestoneIndex)) ?? genesis;
    const latest = Math.max(confirmed, (await store.getMeta(META.latestMilestoneIndex)) ?? genesis, milestones.latest()?.index ?? 0);
    // Nothing below the genesis (or snapshot) milestone is held; once pruned, nothing at or below the pruning index.
    return { latest, confirmed, pruning: this.deps.protocol.pruningIndex ?? genesis };
  }

  async info(): Promise<NodeInfo> {
    const { network, protocol } = this.deps;
    const seen = this.deps.milestones.latest();
    const { latest, confirmed, pruning } = await this.milestoneStatus();
    const latestMilestone = seen !== undefined && seen.index === latest && latest > confirmed ? { ...seen } : await this.milestoneRef(latest);
    const recent = latestMilestone.timestamp !== undefined && this.now() - latestMilestone.timestamp * 1000 < MAX_MILESTONE_AGE_MS;
    return {
      name: NODE_NAME,
      version: this.deps.version,
      isHealthy: confirmed === latest && (recent || this.deps.coordinatorActive()) && this.deps.synced(),
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

  private async milestoneRef(index: number): Promise<MilestoneRef> {
    const record = await this.deps.store.milestone(index);
    if (record) return { index, timestamp: record.timestamp, milestoneId: record.milestoneId };
    const g = this.deps.network.genesisMilestone;
    if (index === g.index && index > 0) return { index, timestamp: g.timestamp, milestoneId: g.milestoneId };
    return { index };
  }
}
