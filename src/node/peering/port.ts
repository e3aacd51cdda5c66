/**
 * What the peer layer needs from the node, as one small interface, so the protocol is testable without a whole node.
 * The composition root (src/node/compose.ts) builds it from the node's parts.
 */
import { TABLES, type NodeStore } from '../../core/store/index.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { NetworkState } from '../genesis/network.ts';
import type { MilestoneStatus } from '../status/status.ts';
import type { Accepted } from '../tangle/intake.ts';
import type { StoredListener } from '../tangle/attach.ts';
import type { V3Engine } from '../v3/engine.ts';
import type { RequestingPeer } from './snapshot-server.ts';
import type { SnapshotRequest } from '../../grpc/gen/peer.ts';

export interface PeeringPort {
  readonly network: NetworkState;
  readonly protocol: ProtocolState;
  readonly store: NodeStore;
  /** The node's one intake with the peers' rules (`requested`: this node asked for the block). */
  accept(bytes: Uint8Array, requested: boolean): Promise<Accepted>;
  onStored(listener: StoredListener): void;
  onConfirmed(listener: (index: number) => void): void;
  status(): Promise<MilestoneStatus>;
  /** The block ID of a confirmed milestone. */
  milestoneBlockId(index: number): Promise<Uint8Array | undefined>;
  /** A peer sent a block the seen-set already held (dropped before the intake; the metrics count it a duplicate). */
  blockSeen?(): void;
  /** The v3 engine when the network has a v3 part. */
  readonly v3: V3Engine | undefined;
  /** Answers a peer's SnapshotRequest (snapshot-server.ts); absent: this node serves no snapshots. */
  readonly snapshots?: { offer(peer: RequestingPeer, request: SnapshotRequest): Promise<void> };
}

/** Whether a block (v2 or v3) is stored. */
export function hasStoredBlock(store: NodeStore, id: Uint8Array): Promise<boolean> {
  return store.has(TABLES.blocks, id);
}
