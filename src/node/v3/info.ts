/**
 * The JSON of `/api/core/v3/info` (node and network status, protocol parameters, committee) and of
 * `/api/core/v3/blocks/issuance` (what a client needs to build a block), as the V3Engine serves them.
 */
import { toHex0x } from '../../core/bytes.ts';
import { protocolParametersToJsonV3, slotCommitmentToJsonV3 } from '../../core/v3/index.ts';
import type { V3Network } from './network.ts';
import type { StatusRecord } from './tables.ts';

/** `/api/core/v3/info` (name, version and base token come from the service). */
export function infoJsonV3(
  network: V3Network,
  status: Readonly<StatusRecord>,
  nowNs: bigint,
  node: { name: string; version: string; baseToken: object },
): Record<string, unknown> {
  const rel = (t: string): string => (nowNs > BigInt(t) ? BigInt(t) : nowNs).toString();
  return {
    name: node.name,
    version: node.version,
    status: {
      isHealthy: true,
      isNetworkHealthy: true,
      acceptedTangleTime: status.acceptedTangleTime,
      relativeAcceptedTangleTime: rel(status.acceptedTangleTime),
      confirmedTangleTime: status.confirmedTangleTime,
      relativeConfirmedTangleTime: rel(status.confirmedTangleTime),
      latestCommitmentId: toHex0x(network.genesisCommitmentId),
      latestFinalizedSlot: network.params.genesisSlot,
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
  network: V3Network,
  parents: Uint8Array[],
  latestParentTime: bigint,
): Record<string, unknown> {
  return {
    strongParents: parents.map(toHex0x),
    latestParentBlockIssuingTime: latestParentTime.toString(),
    latestFinalizedSlot: network.params.genesisSlot,
    latestCommitment: slotCommitmentToJsonV3(network.genesisCommitment),
  };
}
