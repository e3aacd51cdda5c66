/**
 * Checks a milestone block must pass before its cone is walked (docs/protocol.md §14 milestone part, §17.4, TIP-29):
 * a milestone payload in a nonce-0 block whose parents it repeats, the syntactic payload rules (options, protocol
 * parameters target window), index = ledger index + 1, timestamp strictly after the previous milestone's, previous
 * milestone ID = the last milestone's ID, and the signatures (threshold, applicable keys, sorted unique, valid over the
 * milestone ID). Cheap checks run first; signatures last. Every failure throws a ProtocolError naming the field.
 */
import { equalBytes, toHex0x } from '../bytes.ts';
import { decodeProtocolParameters } from '../codec/protocol-parameters.ts';
import { reject } from '../errors.ts';
import { verifyMilestoneSignaturesOverId } from '../ids/milestone-signatures.ts';
import type { Block } from '../model/block.ts';
import { MILESTONE_OPTION_PROTOCOL_PARAMS, PAYLOAD_MILESTONE, type MilestonePayload } from '../model/payload.ts';
import type { MilestoneRecord } from '../store/milestone-record.ts';
import { checkMilestone } from '../validation/milestone.ts';
import type { MilestoneKeyConfig } from './ledger-meta.ts';

export interface PreviousMilestone extends MilestoneRecord {
  index: number;
}

/** The milestone payload of `block`, or INVALID_FIELD / TYPE_NOT_ALLOWED when it carries none. */
export function milestonePayloadOf(block: Block): MilestonePayload {
  const p = block.payload;
  if (p === undefined)
    reject('MISSING_FIELD', 'Cannot confirm milestone: the block carries no payload', { field: 'payload' });
  if (p.type !== PAYLOAD_MILESTONE) {
    reject('TYPE_NOT_ALLOWED', `Cannot confirm milestone: the block carries payload type ${p.type}, not 7`, {
      field: 'payload.type',
      value: String(p.type),
    });
  }
  return p;
}

/** Throws unless `ms` (with ID `milestoneId`, carried by `block`) may follow `previous` (see file comment). */
export function checkMilestoneSuccession(
  block: Block,
  ms: MilestonePayload,
  milestoneId: Uint8Array,
  previous: PreviousMilestone,
  keys: MilestoneKeyConfig,
): void {
  const what = `Invalid milestone ${ms.index}`;
  if (block.nonce !== 0n)
    reject('INVALID_NONCE', `${what}: a milestone block must have nonce 0, got ${block.nonce}`, {
      field: 'nonce',
      value: String(block.nonce),
    });
  checkMilestone(ms, block.parents, 'payload');
  if (ms.index !== previous.index + 1) {
    reject(
      'VALUE_OUT_OF_RANGE',
      `${what}: index must be ${previous.index + 1} (ledger at ${previous.index}), got ${ms.index}`,
      {
        field: 'payload.index',
        value: String(ms.index),
      },
    );
  }
  if (ms.timestamp <= previous.timestamp) {
    reject(
      'VALUE_OUT_OF_RANGE',
      `${what}: timestamp ${ms.timestamp} is not after milestone ${previous.index}'s ${previous.timestamp}`,
      {
        field: 'payload.timestamp',
        value: String(ms.timestamp),
      },
    );
  }
  if (!equalBytes(ms.previousMilestoneId, previous.milestoneId)) {
    reject(
      'INVALID_FIELD',
      `${what}: previous milestone ID ${toHex0x(ms.previousMilestoneId)} ` +
        `is not milestone ${previous.index}'s ${toHex0x(previous.milestoneId)}`,
      {
        field: 'payload.previousMilestoneId',
        value: toHex0x(ms.previousMilestoneId),
      },
    );
  }
  ms.options.forEach((o, i) => {
    if (o.type !== MILESTONE_OPTION_PROTOCOL_PARAMS) return;
    try {
      decodeProtocolParameters(o.params);
    } catch (e) {
      reject('INVALID_FIELD', `${what}: protocol parameters of option ${i} do not decode (${(e as Error).message})`, {
        field: `payload.options[${i}].params`,
      });
    }
  });
  verifyMilestoneSignaturesOverId(milestoneId, ms.index, ms.signatures, keys.keyRanges, keys.threshold);
}

/** After White-Flag: both recomputed roots must equal the milestone's, else the milestone is rejected. */
export function checkMerkleRoots(ms: MilestonePayload, inclusion: Uint8Array, applied: Uint8Array): void {
  for (const [field, mine, theirs] of [
    ['inclusionMerkleRoot', inclusion, ms.inclusionMerkleRoot],
    ['appliedMerkleRoot', applied, ms.appliedMerkleRoot],
  ] as const) {
    if (!equalBytes(mine, theirs)) {
      reject(
        'INVALID_FIELD',
        `Invalid milestone ${ms.index}: ${field} ${toHex0x(theirs)} differs from the recomputed ${toHex0x(mine)}`,
        {
          field: `payload.${field}`,
          value: toHex0x(theirs),
        },
      );
    }
  }
}
