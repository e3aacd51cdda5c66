/**
 * What the peer layer needs from the node, as one small interface (so the protocol is testable without a whole
 * node), and `peeringPortOf` that builds it from the NodeService.
 */
import { TABLES, META, type NodeStore } from '../../core/store/index.ts';
import { LedgerState } from '../../core/ledger/index.ts';
import type { MilestoneKeyRange } from '../../core/ids/index.ts';
import type { Block } from '../../core/model/index.ts';
import type { AttachResult, StoredListener } from '../tangle/attach.ts';
import type { NetworkState } from '../network.ts';
import type { NodeServiceImpl } from '../grpc/service.ts';
import type { V3Engine } from '../v3/engine.ts';

export interface MilestoneStatus {
  /** Highest milestone index known with valid signatures (confirmed or not). */
  latest: number;
  /** Index of the ledger (the last confirmed milestone). */
  confirmed: number;
  pruning: number;
}

export interface V3Port {
  readonly engine: V3Engine;
}

export interface PeeringPort {
  readonly network: NetworkState;
  readonly store: NodeStore;
  /** The node's own attach path (atomic store, solidity, tips, milestone processing). */
  attach(blockId: Uint8Array, bytes: Uint8Array, block: Block): Promise<AttachResult>;
  onStored(listener: StoredListener): void;
  onConfirmed(listener: (index: number) => void): void;
  status(): Promise<MilestoneStatus>;
  milestoneKeys(): Promise<{ keyRanges: MilestoneKeyRange[]; threshold: number } | undefined>;
  /** The block ID of a confirmed milestone. */
  milestoneBlockId(index: number): Promise<Uint8Array | undefined>;
  /** The v3 engine when the network has a v3 part. */
  v3(): V3Engine | undefined;
}

export function peeringPortOf(service: NodeServiceImpl): PeeringPort {
  const store = service.store;
  return {
    network: service.network,
    store,
    attach: (id, bytes, block) => service.attacher.attach(id, bytes, block),
    onStored: (l) => service.attacher.onStored(l),
    onConfirmed: (l) => service.milestones.onConfirmed((e) => l(e.index)),
    async status() {
      const genesis = service.network.genesisMilestone.index;
      const confirmed = (await store.getMeta(META.ledgerIndex)) ?? (await store.getMeta(META.confirmedMilestoneIndex)) ?? genesis;
      const latest = Math.max(confirmed, (await store.getMeta(META.latestMilestoneIndex)) ?? genesis, service.milestones.latest()?.index ?? 0);
      return { latest, confirmed, pruning: 0 };
    },
    milestoneKeys: () => new LedgerState(store).milestoneKeys(),
    async milestoneBlockId(index) {
      return (await store.milestone(index))?.blockId;
    },
    v3: () => service.v3?.engine,
  };
}

/** Whether a block (v2 or v3) is stored. */
export function hasStoredBlock(store: NodeStore, id: Uint8Array): Promise<boolean> {
  return store.has(TABLES.blocks, id);
}
