/** Milestone payload (type 7, docs/protocol.md §3.3), its essence, options and migrated funds entries. */
import {
  MILESTONE_OPTION_PROTOCOL_PARAMS,
  MILESTONE_OPTION_RECEIPT,
  PAYLOAD_MILESTONE,
  type MigratedFundsEntry,
  type MilestoneOption,
  type MilestonePayload,
  type ProtocolParamsMilestoneOption,
  type ReceiptMilestoneOption,
} from '../model/payload.ts';
import { ID_LENGTH, LIMITS } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readAddress, writeAddress } from './address.ts';
import { readSignature, writeSignature } from './signature.ts';
import { readTreasuryTransaction, writeTreasuryTransaction } from './transaction.ts';
import { checkEmbeddedEnd, readEmbeddedHeader, writeEmbedded } from './embedded.ts';
import { readParents, writeParents } from './parents.ts';
import {
  ascendingBytesProblem,
  ascendingTypeProblem,
  booleanByteProblem,
  distinctProblem,
  milestoneOptionKindProblem,
} from './rules.ts';
import { decodeWhole, encodeWith, failAt, writeCount, writeFixed, writePrefixed } from './common.ts';

/** A sorted list of a milestone: what its order errors call it and its key, and the key's field. */
export interface SortedListOrder<K extends string> {
  elements: string;
  key: string;
  field: K;
}

/** The migrated funds entries of a receipt and the signatures of a milestone (the decoder's and the validator's). */
export const MIGRATED_FUNDS_ORDER: SortedListOrder<'tailTransactionHash'> = {
  elements: 'migrated funds entries',
  key: 'tail transaction hash',
  field: 'tailTransactionHash',
};
export const MILESTONE_SIGNATURES_ORDER: SortedListOrder<'publicKey'> = {
  elements: 'milestone signatures',
  key: 'milestone signature public key',
  field: 'publicKey',
};

/**
 * Reads `n` elements of `field` whose serialized bytes must be strictly ascending (compared in place, no copies) and
 * whose keys (`order.field`) must be distinct; a failure is at the element's offset.
 */
function readSortedUnique<K extends string, T extends Record<K, Uint8Array>>(
  r: ByteReader,
  n: number,
  field: string,
  order: SortedListOrder<K>,
  read: (r: ByteReader) => T,
): T[] {
  const out: T[] = new Array(n);
  let prevStart = 0;
  for (let i = 0; i < n; i++) {
    const start = r.offset;
    out[i] = read(r);
    if (i > 0) {
      const a = ascendingBytesProblem(
        order.elements,
        r.bytes.subarray(prevStart, start),
        r.bytes.subarray(start, r.offset),
      );
      if (a) failAt(r, a, field, start);
      const d = distinctProblem(order.key, out[i - 1]![order.field], out[i]![order.field]);
      if (d) failAt(r, d, field, start);
    }
    prevStart = start;
  }
  return out;
}

function readFundsEntry(r: ByteReader): MigratedFundsEntry {
  return {
    tailTransactionHash: r.fixed(LIMITS.tailTransactionHashLength, 'receipt.funds.tailTransactionHash'),
    address: readAddress(r, 'receipt.funds.address', 'ed25519'),
    deposit: r.u64('receipt.funds.deposit'),
  };
}

function readReceiptBody(r: ByteReader): ReceiptMilestoneOption {
  const migratedAt = r.u32('receipt.migratedAt');
  const finalAt = r.offset;
  const fin = r.u8('receipt.final');
  const bp = booleanByteProblem('final', fin);
  if (bp) failAt(r, bp, 'receipt.final', finalAt, String(fin));
  const n = r.count(2, 'receipt.funds', LIMITS.receiptFunds.min, LIMITS.receiptFunds.max);
  const funds = readSortedUnique(r, n, 'receipt.funds', MIGRATED_FUNDS_ORDER, readFundsEntry);
  const at = r.offset;
  const length = readEmbeddedHeader(r, 'receipt.transaction', 'receipt');
  if (length === 0) r.fail('MISSING_FIELD', 'receipt has no treasury transaction', 'receipt.transaction', at);
  const start = r.offset;
  const transaction = readTreasuryTransaction(r, 'receipt.transaction');
  checkEmbeddedEnd(r, 'receipt.transaction', start, length);
  return { type: MILESTONE_OPTION_RECEIPT, migratedAt, final: fin === 1, funds, transaction };
}

function readProtocolParamsBody(r: ByteReader): ProtocolParamsMilestoneOption {
  return {
    type: MILESTONE_OPTION_PROTOCOL_PARAMS,
    targetMilestoneIndex: r.u32('protocolParams.targetMilestoneIndex'),
    protocolVersion: r.u8('protocolParams.protocolVersion'),
    params: r.prefixed(2, 'protocolParams.params', LIMITS.protocolParamsBytes.min, LIMITS.protocolParamsBytes.max),
  };
}

export function readMilestoneOption(r: ByteReader, field: string): MilestoneOption {
  const at = r.offset;
  const type = r.u8(field);
  const p = milestoneOptionKindProblem(type);
  if (p) failAt(r, p, field, at, String(type));
  return type === MILESTONE_OPTION_RECEIPT ? readReceiptBody(r) : readProtocolParamsBody(r);
}

function writeFundsEntry(w: ByteWriter, f: MigratedFundsEntry): void {
  writeFixed(w, f.tailTransactionHash, LIMITS.tailTransactionHashLength, 'tail transaction hash');
  writeAddress(w, f.address);
  w.u64(f.deposit);
}

export function writeMilestoneOption(w: ByteWriter, o: MilestoneOption): void {
  if (o.type === MILESTONE_OPTION_RECEIPT) {
    w.u8(o.type)
      .u32(o.migratedAt)
      .u8(o.final ? 1 : 0);
    writeCount(w, o.funds.length, 2, 'migrated funds');
    for (let i = 0; i < o.funds.length; i++) writeFundsEntry(w, o.funds[i]!);
    if (!o.transaction) throw new RangeError('Cannot encode receipt: the treasury transaction is missing');
    writeEmbedded(w, writeTreasuryTransaction, o.transaction);
  } else if (o.type === MILESTONE_OPTION_PROTOCOL_PARAMS) {
    w.u8(o.type).u32(o.targetMilestoneIndex).u8(o.protocolVersion);
    writePrefixed(w, o.params, 2, 'protocol parameters option params');
  } else {
    throw new RangeError(`Cannot encode milestone option: unknown type ${String((o as MilestoneOption).type)}`);
  }
}

/** Reads from the u32 payload type. */
export function readMilestone(r: ByteReader, field: string): MilestonePayload {
  const at = r.offset;
  const type = r.u32(field);
  if (type !== PAYLOAD_MILESTONE)
    r.fail('TYPE_NOT_ALLOWED', `expected milestone payload (7), got type ${type}`, field, at, String(type));
  const index = r.u32('milestone.index');
  const timestamp = r.u32('milestone.timestamp');
  const protocolVersion = r.u8('milestone.protocolVersion');
  const previousMilestoneId = r.fixed(ID_LENGTH, 'milestone.previousMilestoneId');
  const parents = readParents(r, 'milestone.parents', LIMITS.parents.min);
  const inclusionMerkleRoot = r.fixed(ID_LENGTH, 'milestone.inclusionMerkleRoot');
  const appliedMerkleRoot = r.fixed(ID_LENGTH, 'milestone.appliedMerkleRoot');
  const metadata = r.prefixed(2, 'milestone.metadata', LIMITS.milestoneMetadata.min, LIMITS.milestoneMetadata.max);
  const no = r.count(1, 'milestone.options', LIMITS.milestoneOptions.min, LIMITS.milestoneOptions.max);
  const options: MilestoneOption[] = new Array(no);
  for (let i = 0; i < no; i++) {
    const start = r.offset;
    const o = readMilestoneOption(r, 'milestone.options');
    if (i > 0) {
      const p = ascendingTypeProblem('milestone option', options[i - 1]!.type, o.type);
      if (p) failAt(r, p, 'milestone.options', start, String(o.type));
    }
    options[i] = o;
  }
  const ns = r.count(1, 'milestone.signatures', LIMITS.milestoneSignatures.min, LIMITS.milestoneSignatures.max);
  const signatures = readSortedUnique(r, ns, 'milestone.signatures', MILESTONE_SIGNATURES_ORDER, (r) =>
    readSignature(r, 'milestone.signatures'),
  );
  return {
    type: PAYLOAD_MILESTONE,
    index,
    timestamp,
    protocolVersion,
    previousMilestoneId,
    parents,
    inclusionMerkleRoot,
    appliedMerkleRoot,
    metadata,
    options,
    signatures,
  };
}

/** Index .. options: the milestone ID preimage (docs/protocol.md §12.7). */
export function writeMilestoneEssence(w: ByteWriter, m: MilestonePayload): void {
  w.u32(m.index).u32(m.timestamp).u8(m.protocolVersion);
  writeFixed(w, m.previousMilestoneId, ID_LENGTH, 'previous milestone ID');
  writeParents(w, m.parents);
  writeFixed(w, m.inclusionMerkleRoot, ID_LENGTH, 'inclusion merkle root');
  writeFixed(w, m.appliedMerkleRoot, ID_LENGTH, 'applied merkle root');
  writePrefixed(w, m.metadata, 2, 'milestone metadata');
  writeCount(w, m.options.length, 1, 'milestone options');
  for (let i = 0; i < m.options.length; i++) writeMilestoneOption(w, m.options[i]!);
}

export function writeMilestone(w: ByteWriter, m: MilestonePayload): void {
  w.u32(PAYLOAD_MILESTONE);
  writeMilestoneEssence(w, m);
  writeCount(w, m.signatures.length, 1, 'milestone signatures');
  for (let i = 0; i < m.signatures.length; i++) writeSignature(w, m.signatures[i]!);
}

export function encodeMilestoneEssence(m: MilestonePayload): Uint8Array {
  return encodeWith(writeMilestoneEssence, m);
}

export function encodeMilestoneOption(o: MilestoneOption): Uint8Array {
  return encodeWith(writeMilestoneOption, o);
}

export function decodeMilestoneOption(bytes: Uint8Array): MilestoneOption {
  return decodeWhole(bytes, 'milestone option', (r) => readMilestoneOption(r, 'milestoneOption'));
}

export function encodeMigratedFundsEntry(f: MigratedFundsEntry): Uint8Array {
  return encodeWith(writeFundsEntry, f);
}

export function decodeMigratedFundsEntry(bytes: Uint8Array): MigratedFundsEntry {
  return decodeWhole(bytes, 'migrated funds entry', readFundsEntry);
}
