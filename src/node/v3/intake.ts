/**
 * Intake of a v3 block: reading a submission (binary or JSON) and the node-level checks a block must pass before it
 * is attached (known issuer and its signature, issuing time, slot commitment, the body's rules for validation and
 * basic blocks, known parents issued earlier, and the ledger checks of a transaction it carries: a double spend's
 * loser is attached with its transaction failed, as iota-core books it, ledger.ts `admit`). A refused block
 * changes nothing. A parent the node does not hold in a slot it pruned is refused with a message naming the pruning.
 *
 * Slot commitments (commitments.ts; docs/protocol.md §V7.12): the block's slot must not be committed yet; its
 * `slotCommitmentId` (and a Commitment context input) must lie in the committable-age window of the block's slot
 * (TIP-46, core/v3/timing.ts) and be a commitment this node made; the Mana cost uses that commitment's reference
 * Mana cost; an orphaned parent is refused (nothing may be accepted into a committed slot).
 */
import { equalBytes, toHex0x } from '../../core/bytes.ts';
import { reject } from '../../core/errors.ts';
import {
  assertBlockSignatureV3,
  checkBlockTimingV3,
  blockFromJsonV3,
  decodeBlockV3,
  encodeBlockV3,
  manaCostV3,
  slotFromTime,
  slotOfId,
  transactionIdV3,
  type BlockV3,
  type ProtocolParametersV3,
  type SlotCommitmentV3,
} from '../../core/v3/index.ts';
import { NodeError } from '../support/errors.ts';
import type { V3Commitments } from './commitments.ts';
import type { V3Dag } from './dag.ts';
import type { LedgerFailure } from './failures.ts';
import type { V3Ledger } from './ledger.ts';
import { key, type V3Network } from './network.ts';
import { whyPrunedV3 } from './pruning.ts';
import { signedHere } from './validation-block.ts';
import type { PruningRecordV3 } from './tables.ts';

/** Blocks may be issued at most this far ahead of the node's clock. */
export const MAX_FUTURE_NS = 10n * 60n * 1_000_000_000n;

/** A submitted block (binary or JSON) as bytes and decoded; throws when it is empty or malformed. */
/**
 * Refuses a block issued more than 10 minutes after the node's clock (INVALID_FIELD, 400), before anything reads its
 * slot: an issuing time past the last slot (e.g. 2^63 ns) has none.
 */
export function checkNotAhead(block: BlockV3, nowNs: bigint): void {
  if (block.header.issuingTime > nowNs + MAX_FUTURE_NS)
    reject('INVALID_FIELD', "Cannot accept block: issuingTime is more than 10 minutes ahead of the node's clock", {
      field: 'header.issuingTime',
    });
}

export function readSubmissionV3(
  block: { raw: Uint8Array } | { json: string },
  params: ProtocolParametersV3,
): { bytes: Uint8Array; block: BlockV3 } {
  let bytes: Uint8Array;
  if ('raw' in block) {
    if (block.raw.length === 0) throw new NodeError('INVALID_REQUEST', 'invalid block: request body missing');
    bytes = block.raw;
  } else {
    bytes = encodeBlockV3(blockFromJsonV3(block.json));
  }
  return { bytes, block: decodeBlockV3(bytes, params) };
}

/** What attaching a block that passed the checks needs. */
export interface CheckedBlockV3 {
  slot: number;
  /** The issuer's seat, or -1. */
  seat: number;
  /** The slot of the commitment the block names. */
  commitmentSlot: number;
  /**
   * The transaction the block carries (map key), whether the node sees it for the first time and, for a double
   * spend's loser, its failure (ledger.ts `admit`).
   */
  transaction?: { txKey: string; admitted: { isNew: boolean; failed?: LedgerFailure } };
}

/**
 * The node-level checks of a block that is not attached yet; throws (ProtocolError or NodeError) when it fails one.
 * The caller has refused a block issued too far ahead first (checkNotAhead: the block's ID needs its slot).
 */
export function checkBlockV3(
  bytes: Uint8Array,
  block: BlockV3,
  ctx: {
    network: V3Network;
    dag: V3Dag;
    ledger: V3Ledger;
    commitments: V3Commitments;
    pruned?: PruningRecordV3 | undefined;
  },
): CheckedBlockV3 {
  const { network, dag, ledger, commitments } = ctx;
  const { params } = network;
  const h = block.header;
  const issuer = network.account(h.issuerId);
  if (issuer === undefined)
    reject('INVALID_FIELD', `Cannot accept block: issuer ${toHex0x(h.issuerId)} is not a known account`, {
      field: 'header.issuerId',
    });
  // the node's own validation blocks were signed by it just now (validation-block.ts); every other block is checked
  if (!signedHere(block)) assertBlockSignatureV3(bytes, issuer.blockIssuerKeys);
  const slot = slotFromTime(h.issuingTime, params);
  const commitmentSlot = slotOfId(h.slotCommitmentId);
  if (commitmentSlot > slot)
    reject(
      'INVALID_FIELD',
      `Cannot accept block: slot commitment slot ${commitmentSlot} is after the block slot ${slot}`,
      { field: 'header.slotCommitmentId' },
    );
  const commitment = checkCommitments(block, slot, commitments, params);
  const body = block.body;
  const seat = network.seats.indexOf(issuer);
  if (body.type === 1) {
    if (seat < 0)
      reject(
        'INVALID_FIELD',
        `Cannot accept block: validation blocks are for committee members; ${toHex0x(h.issuerId)} holds no seat`,
        { field: 'body.type' },
      );
    if (!equalBytes(body.protocolParametersHash, network.protocolParametersHash)) {
      reject(
        'INVALID_FIELD',
        "Cannot accept block: protocolParametersHash is not the hash of this network's parameters",
        { field: 'body.protocolParametersHash' },
      );
    }
    if (body.highestSupportedVersion < params.version)
      reject(
        'INVALID_FIELD',
        `Cannot accept block: highestSupportedVersion ${body.highestSupportedVersion} is below ${params.version}`,
        { field: 'body.highestSupportedVersion' },
      );
  } else {
    const rmc = commitment.referenceManaCost;
    const cost = manaCostV3(block, params.workScoreParameters, rmc);
    if (body.maxBurnedMana < cost)
      reject(
        'INVALID_FIELD',
        `Cannot accept block: maxBurnedMana ${body.maxBurnedMana} is below the block's Mana cost ${cost} ` +
          `(reference Mana cost ${rmc} of its slot commitment)`,
        { field: 'body.maxBurnedMana' },
      );
  }
  for (const [list, name] of [
    [body.strongParents, 'strongParents'],
    [body.weakParents, 'weakParents'],
    [body.shallowLikeParents, 'shallowLikeParents'],
  ] as const) {
    for (const p of list) {
      const parentTime = dag.parentTime(p);
      if (parentTime === undefined) {
        const pruned = ctx.pruned !== undefined && slotOfId(p) < ctx.pruned.slot;
        const why = pruned
          ? `is not kept: its slot ${slotOfId(p)} is before slot ${ctx.pruned!.slot}, up to which this ` +
            `node pruned its confirmed v3 blocks (${whyPrunedV3(ctx.pruned!)})`
          : 'is unknown';
        reject('INVALID_FIELD', `Cannot accept block: parent ${toHex0x(p)} ${why}`, { field: `body.${name}` });
      }
      if (dag.isOrphaned(p))
        reject(
          'INVALID_FIELD',
          `Cannot accept block: parent ${toHex0x(p)} is orphaned: its slot ${slotOfId(p)} (or a parent's) was ` +
            'committed without it being accepted',
          { field: `body.${name}` },
        );
      if (h.issuingTime <= parentTime)
        reject(
          'INVALID_FIELD',
          `Cannot accept block: issuingTime ${h.issuingTime} is not after parent ${toHex0x(p)}'s ${parentTime}`,
          { field: 'header.issuingTime' },
        );
    }
  }

  const checked: CheckedBlockV3 = { slot, seat, commitmentSlot };
  if (body.type === 0 && body.payload?.type === 1) {
    const payload = body.payload;
    const tx = payload.transaction;
    if (tx.creationSlot > slot)
      reject(
        'INVALID_FIELD',
        `Cannot accept block: transaction creation slot ${tx.creationSlot} is after the block slot ${slot}`,
        { field: 'body.payload.transaction.creationSlot' },
      );
    const txKey = key(transactionIdV3(tx));
    checked.transaction = { txKey, admitted: ledger.admit(payload, txKey, commitmentSlot) };
  }
  return checked;
}

/**
 * The slot-commitment rules of a block of slot `slot` (see the file comment); returns the commitment it names.
 */
function checkCommitments(
  block: BlockV3,
  slot: number,
  commitments: V3Commitments,
  params: ProtocolParametersV3,
): SlotCommitmentV3 {
  const latest = commitments.latestSlot;
  if (slot <= latest)
    reject(
      'INVALID_FIELD',
      `Cannot accept block: its slot ${slot} is already committed (this node's latest commitment is of slot ` +
        `${latest}): issue it at the current time`,
      { field: 'header.issuingTime' },
    );
  checkBlockTimingV3(block, params);
  const id = block.header.slotCommitmentId;
  const named = commitments.known(id);
  if (named === undefined) unknownCommitment(id, commitments, 'header.slotCommitmentId');
  const body = block.body;
  if (body.type === 0 && body.payload?.type === 1) {
    const ci = body.payload.transaction.contextInputs.find((c) => c.type === 0);
    if (ci?.type === 0 && commitments.known(ci.commitmentId) === undefined)
      unknownCommitment(ci.commitmentId, commitments, 'body.payload.transaction.contextInputs[0].commitmentId');
  }
  return named;
}

function unknownCommitment(id: Uint8Array, commitments: V3Commitments, field: string): never {
  const cSlot = slotOfId(id);
  const latest = commitments.latest;
  const why =
    cSlot > latest.commitment.slot
      ? `this node has committed slots up to ${latest.commitment.slot} only`
      : `it is not this node's commitment of slot ${cSlot} (the latest is ${toHex0x(latest.id)})`;
  return reject('INVALID_FIELD', `Cannot accept block: slot commitment ${toHex0x(id)} is unknown: ${why}`, { field });
}
