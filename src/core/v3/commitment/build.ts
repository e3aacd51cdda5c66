/**
 * Building the commitment of a slot from its inputs (docs/protocol.md §V7.12; iota-core
 * `notarization/slotnotarization`): the previous commitment, the slot's accepted blocks and their work, the
 * transactions the commitment covers, the attestations and the fixed roots (committee, protocol parameters). Pure:
 * which blocks, transactions and attestations go in is the node's business (src/node/v3/commitments.ts).
 *
 *  - slot = previous slot + 1, previousCommitmentId = the previous commitment's ID, protocol version of the params;
 *  - roots: tangle root over the accepted block IDs, state mutation root over the transaction IDs, attestations root
 *    over the attestations (idSetRootV3); state, account and rewards roots as given (zero when not computed);
 *  - cumulative weight and attestations root: 0 and zero while slot < genesis slot + maxCommittableAge (iota-core
 *    `computeAttestationCommitmentOffset`); after that the previous cumulative weight plus one per attesting seat;
 *  - reference Mana cost (iota-core `rmc.Manager.CommitSlot`): from the previous one and the slot's work.
 */
import { compareBytes } from '../../bytes.ts';
import type { SlotCommitmentV3 } from '../model/block.ts';
import type { ProtocolParametersV3 } from '../model/params.ts';
import { slotCommitmentIdV3 } from '../ids/commitment.ts';
import { idSetRootV3, rootsIdV3, ZERO_ROOT_V3, type SlotRootsV3 } from './roots.ts';

export type CongestionControlV3 = ProtocolParametersV3['congestionControlParameters'];

/**
 * The reference Mana cost of a slot from the previous slot's and the total work score of the slot's accepted blocks:
 * below `decreaseThreshold` (and above the minimum) it drops by `decrease`, not below the minimum; above
 * `increaseThreshold` it grows by `increase`; otherwise it stays.
 */
export function nextReferenceManaCostV3(previous: bigint, slotWork: number, cc: CongestionControlV3): bigint {
  if (slotWork < cc.decreaseThreshold && previous > cc.minReferenceManaCost) {
    const next = previous - cc.decrease;
    // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.max does not take
    return next > cc.minReferenceManaCost ? next : cc.minReferenceManaCost;
  }
  if (slotWork > cc.increaseThreshold) {
    const next = previous + cc.increase;
    if (next > 0xffffffffffffffffn) throw new RangeError(`reference Mana cost overflows u64: ${next}`);
    return next;
  }
  return previous;
}

/** A seat's attestation: its latest accepted validation block as the commitment sees it (iota.go `Attestation`). */
export interface AttestationV3 {
  accountId: Uint8Array;
  blockId: Uint8Array;
  /** Slot of the block's `slotCommitmentId`. */
  commitmentSlot: number;
  issuingTime: bigint;
  /** BLAKE2b-256 of the block body (blockHashesV3). */
  bodyHash: Uint8Array;
}

/** iota.go `Attestation.Compare`: the higher commitment slot, then the later issuing time, then the body hash. */
export function compareAttestationsV3(a: AttestationV3, b: AttestationV3): number {
  if (a.commitmentSlot !== b.commitmentSlot) return a.commitmentSlot > b.commitmentSlot ? 1 : -1;
  if (a.issuingTime !== b.issuingTime) return a.issuingTime > b.issuingTime ? 1 : -1;
  return compareBytes(a.bodyHash, b.bodyHash);
}

type WindowParams = Pick<ProtocolParametersV3, 'genesisSlot' | 'maxCommittableAge'>;

/**
 * The attestations the commitment of `slot` counts, from each seat's latest one (by compareAttestationsV3): those
 * whose commitment slot is at least slot − maxCommittableAge (the cutoff), sorted by account ID; none while the
 * slot is younger than genesis slot + maxCommittableAge.
 */
export function attestationsForSlotV3(
  latest: Iterable<AttestationV3>,
  slot: number,
  params: WindowParams,
): AttestationV3[] {
  if (slot < params.genesisSlot + params.maxCommittableAge) return [];
  const cutoff = slot - params.maxCommittableAge;
  return [...latest].filter((a) => a.commitmentSlot >= cutoff).sort((a, b) => compareBytes(a.accountId, b.accountId));
}

/** Root over the attestations: idSetRootV3 of (account ID ‖ block ID) per attestation. */
export function attestationsRootV3(attestations: readonly AttestationV3[]): Uint8Array {
  return idSetRootV3(
    attestations.map((a) => {
      const leaf = new Uint8Array(a.accountId.length + a.blockId.length);
      leaf.set(a.accountId);
      leaf.set(a.blockId, a.accountId.length);
      return leaf;
    }),
  );
}

export interface SlotCommitmentInputV3 {
  params: Pick<ProtocolParametersV3, 'version' | 'genesisSlot' | 'maxCommittableAge' | 'congestionControlParameters'>;
  /** The commitment of the slot before (the genesis commitment for the first one). */
  previous: SlotCommitmentV3;
  /** The blocks of the slot accepted before it is committed. */
  acceptedBlockIds: readonly Uint8Array[];
  /** Their total work score (validation blocks score 0). */
  slotWork: number;
  /** IDs of the transactions the commitment covers. */
  mutations: readonly Uint8Array[];
  /** The attestations it counts (attestationsForSlotV3). */
  attestations: readonly AttestationV3[];
  /** Committee root (idSetRootV3 of the seats' account IDs). */
  committeeRoot: Uint8Array;
  /** versionsAndProtocolParametersHashV3 of the versions in force. */
  protocolParametersHash: Uint8Array;
  stateRoot?: Uint8Array;
  accountRoot?: Uint8Array;
  rewardsRoot?: Uint8Array;
}

export interface BuiltSlotCommitmentV3 {
  commitment: SlotCommitmentV3;
  commitmentId: Uint8Array;
  roots: SlotRootsV3;
}

/** The commitment of the slot after `input.previous`, chained to it. */
export function buildSlotCommitmentV3(input: SlotCommitmentInputV3): BuiltSlotCommitmentV3 {
  const { params, previous } = input;
  const slot = previous.slot + 1;
  if (slot > 0xffffffff) throw new RangeError('no slot after the last one');
  const counted = slot >= params.genesisSlot + params.maxCommittableAge;
  const roots: SlotRootsV3 = {
    tangleRoot: idSetRootV3(input.acceptedBlockIds),
    stateMutationRoot: idSetRootV3(input.mutations),
    stateRoot: (input.stateRoot ?? ZERO_ROOT_V3).slice(),
    accountRoot: (input.accountRoot ?? ZERO_ROOT_V3).slice(),
    attestationsRoot: counted ? attestationsRootV3(input.attestations) : ZERO_ROOT_V3.slice(),
    committeeRoot: input.committeeRoot.slice(),
    rewardsRoot: (input.rewardsRoot ?? ZERO_ROOT_V3).slice(),
    protocolParametersHash: input.protocolParametersHash.slice(),
  };
  const commitment: SlotCommitmentV3 = {
    protocolVersion: params.version,
    slot,
    previousCommitmentId: slotCommitmentIdV3(previous),
    rootsId: rootsIdV3(roots),
    cumulativeWeight: counted ? previous.cumulativeWeight + BigInt(input.attestations.length) : 0n,
    referenceManaCost: nextReferenceManaCostV3(
      previous.referenceManaCost,
      input.slotWork,
      params.congestionControlParameters,
    ),
  };
  return { commitment, commitmentId: slotCommitmentIdV3(commitment), roots };
}

/** iota.go `NewEmptyCommitment`: the genesis slot's commitment, zero roots and weight, the minimum RMC. */
export function genesisSlotCommitmentV3(
  params: Pick<ProtocolParametersV3, 'version' | 'genesisSlot' | 'congestionControlParameters'>,
): SlotCommitmentV3 {
  return {
    protocolVersion: params.version,
    slot: params.genesisSlot,
    previousCommitmentId: new Uint8Array(36),
    rootsId: new Uint8Array(32),
    cumulativeWeight: 0n,
    referenceManaCost: params.congestionControlParameters.minReferenceManaCost,
  };
}
