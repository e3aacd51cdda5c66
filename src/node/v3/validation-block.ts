/**
 * Building the signed validation blocks of the node's built-in validator (validator.ts decides when): one block of
 * a committee seat whose seed the genesis holds, over the given tips, issued now (or just after its latest parent),
 * naming the node's latest commitment a block of its slot may name and the latest finalized slot.
 */
import { ed25519PublicKeyFromSeed, ed25519Sign } from '../../core/crypto/ed25519.ts';
import { blockHashesV3, encodeBlockV3, slotFromTime, type BlockV3 } from '../../core/v3/index.ts';
import type { GenesisAccountV3 } from './genesis-v3.ts';
import type { V3Network } from './network.ts';

/** A validation block of `seat` (which must hold a validator seed) over `parents`, signed. */
export function validationBlockV3(
  network: V3Network,
  seat: GenesisAccountV3,
  parents: Uint8Array[],
  times: { nowNs: bigint; latestParentTime: bigint },
  commitments: { forBlockSlot(slot: number): { id: Uint8Array }; latestFinalizedSlot: number },
): BlockV3 {
  const { params } = network;
  const { nowNs, latestParentTime } = times;
  const seed = seat.validatorSeed!;
  const issuingTime = nowNs > latestParentTime ? nowNs : latestParentTime + 1n;
  const block: BlockV3 = {
    header: {
      protocolVersion: params.version,
      networkId: network.networkId,
      issuingTime,
      slotCommitmentId: commitments.forBlockSlot(slotFromTime(issuingTime, params)).id,
      latestFinalizedSlot: commitments.latestFinalizedSlot,
      issuerId: seat.accountId,
    },
    body: {
      type: 1,
      strongParents: parents,
      weakParents: [],
      shallowLikeParents: [],
      highestSupportedVersion: params.version,
      protocolParametersHash: network.protocolParametersHash,
    },
    signature: { type: 0, publicKey: ed25519PublicKeyFromSeed(seed), signature: new Uint8Array(64) },
  };
  const { signingMessage } = blockHashesV3(encodeBlockV3(block));
  block.signature.signature = ed25519Sign(seed, signingMessage);
  return block;
}
