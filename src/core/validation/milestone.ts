/**
 * Syntactic rules of a milestone payload (TIP-29 / TIP-34, docs/protocol.md §14 "Milestone"); signatures are not
 * verified here.
 */
import type { MilestonePayload, ReceiptMilestoneOption, ProtocolParamsMilestoneOption } from '../model/payload.ts';
import { MILESTONE_OPTION_RECEIPT, PAYLOAD_TREASURY_TRANSACTION } from '../model/payload.ts';
import { ID_LENGTH, LIMITS } from '../model/limits.ts';
import {
  ascendingBytesProblem,
  ascendingTypeProblem,
  compareLexical,
  distinctProblem,
  milestoneOptionKindProblem,
  u64Problem,
  uintProblem,
} from '../codec/rules.ts';
import {
  encodeMigratedFundsEntry,
  MIGRATED_FUNDS_ORDER,
  MILESTONE_SIGNATURES_ORDER,
  type SortedListOrder,
} from '../codec/milestone.ts';
import { encodeSignature } from '../codec/signature.ts';
import { check, invalid } from './fail.ts';
import {
  checkAddress,
  checkBytes,
  checkInput,
  checkList,
  checkOutputShape,
  checkSignature,
  checkVarBytes,
} from './shape.ts';

/**
 * Checks each element of a sorted list at `${path}[i]` (`each`), then that its serialized bytes are strictly above
 * the previous element's and its key (`order.field`) differs from the previous one's.
 */
function checkSortedUnique<K extends string, T extends Record<K, Uint8Array>>(
  list: readonly T[],
  path: string,
  order: SortedListOrder<K>,
  encode: (element: T) => Uint8Array,
  each: (element: T, p: string) => void,
): void {
  let prev: Uint8Array | undefined;
  for (let i = 0; i < list.length; i++) {
    const e = list[i]!;
    const p = `${path}[${i}]`;
    each(e, p);
    const bytes = encode(e);
    if (prev) {
      check(ascendingBytesProblem(order.elements, prev, bytes), p);
      const key = e[order.field];
      check(distinctProblem(order.key, list[i - 1]![order.field], key), `${p}.${order.field}`, key);
    }
    prev = bytes;
  }
}

function checkReceipt(o: ReceiptMilestoneOption, path: string): void {
  check(uintProblem('migrated at', o.migratedAt, 32), `${path}.migratedAt`);
  if (typeof o.final !== 'boolean') invalid('INVALID_FIELD', 'final must be a boolean', `${path}.final`, o.final);
  checkList(o.funds, 'migrated funds', LIMITS.receiptFunds, `${path}.funds`);
  checkSortedUnique(o.funds, `${path}.funds`, MIGRATED_FUNDS_ORDER, encodeMigratedFundsEntry, (f, p) => {
    checkBytes(
      f.tailTransactionHash,
      LIMITS.tailTransactionHashLength,
      'tail transaction hash',
      `${p}.tailTransactionHash`,
    );
    checkAddress(f.address, `${p}.address`, 'ed25519');
    check(u64Problem('deposit', f.deposit), `${p}.deposit`);
    if (f.deposit < LIMITS.minMigratedFundsDeposit) {
      invalid(
        'VALUE_OUT_OF_RANGE',
        `migrated deposit is below ${LIMITS.minMigratedFundsDeposit}`,
        `${p}.deposit`,
        f.deposit,
      );
    }
  });
  const t = o.transaction;
  const tp = `${path}.transaction`;
  if (!t || typeof t !== 'object') invalid('MISSING_FIELD', 'receipt has no treasury transaction', tp);
  if (t.type !== PAYLOAD_TREASURY_TRANSACTION)
    invalid('TYPE_NOT_ALLOWED', `payload type ${String(t.type)} is not allowed in a receipt`, `${tp}.type`, t.type);
  checkInput(t.input, `${tp}.input`, 'treasury');
  checkOutputShape(t.output, `${tp}.output`, 'treasury');
}

function checkProtocolParams(o: ProtocolParamsMilestoneOption, index: number, path: string): void {
  check(uintProblem('target milestone index', o.targetMilestoneIndex, 32), `${path}.targetMilestoneIndex`);
  check(uintProblem('protocol version', o.protocolVersion, 8), `${path}.protocolVersion`);
  const max = index + LIMITS.maxProtocolParamsTargetDistance;
  if (o.targetMilestoneIndex <= index || o.targetMilestoneIndex > max) {
    invalid(
      'VALUE_OUT_OF_RANGE',
      `target milestone index must lie in ${index + 1}..${max}`,
      `${path}.targetMilestoneIndex`,
      o.targetMilestoneIndex,
    );
  }
  checkVarBytes(o.params, 'protocol parameters', LIMITS.protocolParamsBytes, `${path}.params`);
}

export function checkMilestone(m: MilestonePayload, blockParents: Uint8Array[], path: string): void {
  check(uintProblem('index', m.index, 32), `${path}.index`);
  if (m.index < 1) invalid('VALUE_OUT_OF_RANGE', 'milestone index must be at least 1', `${path}.index`, m.index);
  check(uintProblem('timestamp', m.timestamp, 32), `${path}.timestamp`);
  check(uintProblem('protocol version', m.protocolVersion, 8), `${path}.protocolVersion`);
  checkBytes(m.previousMilestoneId, ID_LENGTH, 'previous milestone ID', `${path}.previousMilestoneId`);
  checkParents(m.parents, `${path}.parents`);
  if (m.parents.length !== blockParents.length || m.parents.some((p, i) => compareLexical(p, blockParents[i]!) !== 0)) {
    invalid('INVALID_FIELD', "milestone parents differ from the block's parents", `${path}.parents`);
  }
  checkBytes(m.inclusionMerkleRoot, ID_LENGTH, 'inclusion merkle root', `${path}.inclusionMerkleRoot`);
  checkBytes(m.appliedMerkleRoot, ID_LENGTH, 'applied merkle root', `${path}.appliedMerkleRoot`);
  checkVarBytes(m.metadata, 'metadata', LIMITS.milestoneMetadata, `${path}.metadata`);
  checkList(m.options, 'milestone options', LIMITS.milestoneOptions, `${path}.options`);
  for (let i = 0; i < m.options.length; i++) {
    const o = m.options[i]!;
    const p = `${path}.options[${i}]`;
    check(milestoneOptionKindProblem(o.type), `${p}.type`, o.type);
    if (i > 0) check(ascendingTypeProblem('milestone option', m.options[i - 1]!.type, o.type), `${p}.type`, o.type);
    if (o.type === MILESTONE_OPTION_RECEIPT) checkReceipt(o, p);
    else checkProtocolParams(o, m.index, p);
  }
  checkList(m.signatures, 'milestone signatures', LIMITS.milestoneSignatures, `${path}.signatures`);
  checkSortedUnique(m.signatures, `${path}.signatures`, MILESTONE_SIGNATURES_ORDER, encodeSignature, checkSignature);
}

/** 1..8 parents of 32 bytes, strictly ascending. */
export function checkParents(parents: Uint8Array[], path: string, min: number = LIMITS.parents.min): void {
  checkList(parents, 'parents', { min, max: LIMITS.parents.max }, path);
  for (let i = 0; i < parents.length; i++) {
    checkBytes(parents[i], ID_LENGTH, 'parent', `${path}[${i}]`);
    if (i > 0) check(ascendingBytesProblem('parents', parents[i - 1]!, parents[i]!), `${path}[${i}]`, parents[i]);
  }
}
