/**
 * Building the signed validation blocks of the node's built-in validator (validator.ts decides when): one block of
 * a committee seat whose seed the genesis holds, over the given tips, issued now (or just after its latest parent),
 * naming the node's latest commitment a block of its slot may name and the latest finalized slot.
 *
 * Costs (benchmarks/v3/idle-writes.ts, docs/decisions.md §46): Ed25519 in JavaScript was most of an idle round's CPU,
 * so a seat's key is made once for OpenSSL, which signs (the same bytes: Ed25519 is deterministic), and the engine's
 * intake does not verify again the signature of a block this module just signed (`signedHere`: the very object it
 * built; any other block is checked).
 */
import { openSslEd25519Signer, type OpenSslEd25519Signer } from '../crypto/ed25519-openssl.ts';
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
  const signer = signers.get(seed) ?? openSslEd25519Signer(seed);
  signers.set(seed, signer);
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
    signature: { type: 0, publicKey: signer.publicKey.slice(), signature: new Uint8Array(64) },
  };
  const { signingMessage } = blockHashesV3(encodeBlockV3(block));
  block.signature.signature = signer.sign(signingMessage);
  built.add(block);
  return block;
}

/** Signers by validator seed (the seed arrays of the genesis' seats). */
const signers = new WeakMap<Uint8Array, OpenSslEd25519Signer>();
/** The validation blocks `validationBlockV3` built and signed in this process. */
const built = new WeakSet<BlockV3>();

/** Whether `block` is a validation block this process built and signed (validationBlockV3), not one received. */
export function signedHere(block: BlockV3): boolean {
  return built.has(block);
}
