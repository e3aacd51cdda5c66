/**
 * The JSON of `/api/core/v3/info` (node and network status, protocol parameters, committee) and of
 * `/api/core/v3/blocks/issuance` (what a client needs to build a block), as the V3Engine serves them. Both give the
 * node's latest slot commitment and latest finalized slot (commitments.ts): a client names that commitment in its
 * block's `slotCommitmentId` and burns work score × its reference Mana cost.
 */
import { toHex0x } from '../../core/bytes.ts';
import { protocolParametersToJsonV3, slotCommitmentToJsonV3, type SlotCommitmentV3 } from '../../core/v3/index.ts';
import type { V3Network } from './network.ts';
import type { StatusRecord } from './tables.ts';

/** The node's latest commitment and finalized slot, and the committable slots it has yet to commit (catch-up.ts). */
export interface CommitmentStatusV3 {
  latest: { commitment: SlotCommitmentV3; id: Uint8Array };
  latestFinalizedSlot: number;
  behind?: number;
}

/** `/api/core/v3/info` (name, version and base token come from the service). */
export function infoJsonV3(
  network: V3Network,
  status: Readonly<StatusRecord>,
  commitments: CommitmentStatusV3,
  nowNs: bigint,
  node: { name: string; version: string; baseToken: object },
): Record<string, unknown> {
  const rel = (t: string): string => (nowNs > BigInt(t) ? BigInt(t) : nowNs).toString();
  return {
    name: node.name,
    version: node.version,
    status: {
      // not while committing the slots of a long stop (catch-up.ts): blocks are refused meanwhile
      isHealthy: (commitments.behind ?? 0) === 0,
      isNetworkHealthy: true,
      acceptedTangleTime: status.acceptedTangleTime,
      relativeAcceptedTangleTime: rel(status.acceptedTangleTime),
      confirmedTangleTime: status.confirmedTangleTime,
      relativeConfirmedTangleTime: rel(status.confirmedTangleTime),
      latestCommitmentId: toHex0x(commitments.latest.id),
      latestFinalizedSlot: commitments.latestFinalizedSlot,
      latestAcceptedBlockSlot: status.latestAcceptedBlockSlot,
      latestConfirmedBlockSlot: status.latestConfirmedBlockSlot,
      pruningEpoch: 0,
    },
    protocolParameters: [{ startEpoch: 0, parameters: protocolParametersToJsonV3(network.params) }],
    baseToken: node.baseToken,
    committee: { seats: network.seats.map((s) => toHex0x(s.accountId)), threshold: network.committeeThreshold },
  };
}

/** `/api/core/v3/blocks/issuance` over the chosen tips. */
export function issuanceJsonV3(
  commitments: CommitmentStatusV3,
  parents: Uint8Array[],
  latestParentTime: bigint,
): Record<string, unknown> {
  return {
    strongParents: parents.map(toHex0x),
    latestParentBlockIssuingTime: latestParentTime.toString(),
    latestFinalizedSlot: commitments.latestFinalizedSlot,
    latestCommitment: slotCommitmentToJsonV3(commitments.latest.commitment),
  };
}
