/**
 * What one milestone changed in the ledger (the `milestoneDiffs` table): the outputs it created and consumed, in
 * White-Flag order, and the treasury it replaced (receipts only).
 *
 * Version 1, little-endian: version (1) ‖ created count u32 ‖ created output IDs (34 each) ‖ consumed count u32
 * ‖ consumed output IDs (34 each) ‖ treasury flag u8 (0/1) ‖ [spent treasury milestone ID (32) ‖ its amount u64
 * ‖ new treasury milestone ID (32) ‖ new amount u64].
 */
import { ByteReader } from '../codec/reader.ts';
import { ByteWriter } from '../codec/writer.ts';
import { ID_LENGTH, OUTPUT_ID_LENGTH } from '../model/limits.ts';
import { endRecord, readVersion } from '../store/record.ts';
import { checkId } from './output-record.ts';
import type { TreasuryState } from './treasury-record.ts';

export const MILESTONE_DIFF_VERSION = 1;

export interface TreasuryMutation {
  spent: TreasuryState;
  created: TreasuryState;
}

export interface MilestoneDiff {
  created: Uint8Array[];
  consumed: Uint8Array[];
  treasury?: TreasuryMutation;
}

export function encodeMilestoneDiff(d: MilestoneDiff): Uint8Array {
  const w = new ByteWriter(16 + (d.created.length + d.consumed.length) * OUTPUT_ID_LENGTH + 80).u8(
    MILESTONE_DIFF_VERSION,
  );
  for (const [name, ids] of [
    ['created', d.created],
    ['consumed', d.consumed],
  ] as const) {
    w.u32(ids.length);
    ids.forEach((id, i) => {
      checkId(id, 'milestone diff', `${name}[${i}]`, OUTPUT_ID_LENGTH);
      w.bytes(id);
    });
  }
  if (d.treasury === undefined) return w.u8(0).finish();
  for (const t of [d.treasury.spent, d.treasury.created])
    checkId(t.milestoneId, 'milestone diff', 'treasury milestoneId');
  return w
    .u8(1)
    .bytes(d.treasury.spent.milestoneId)
    .u64(d.treasury.spent.amount)
    .bytes(d.treasury.created.milestoneId)
    .u64(d.treasury.created.amount)
    .finish();
}

export function decodeMilestoneDiff(bytes: Uint8Array, subject = 'milestone diff'): MilestoneDiff {
  const r: ByteReader = new ByteReader(bytes, subject);
  const version = readVersion(r, MILESTONE_DIFF_VERSION);
  const list = (field: string): Uint8Array[] => {
    const at = r.offset;
    const n = r.u32(`${field} count`);
    if (n * OUTPUT_ID_LENGTH > r.remaining)
      r.fail('TRUNCATED', `${field} count ${n} exceeds the ${r.remaining} bytes left`, field, at, String(n));
    return Array.from({ length: n }, (_, i) => r.fixed(OUTPUT_ID_LENGTH, `${field}[${i}]`));
  };
  const created = list('created');
  const consumed = list('consumed');
  const flagAt = r.offset;
  const flag = r.u8('treasury flag');
  const diff: MilestoneDiff = { created, consumed };
  if (flag === 1) {
    const spent = {
      milestoneId: r.fixed(ID_LENGTH, 'treasury.spent.milestoneId'),
      amount: r.u64('treasury.spent.amount'),
    };
    const made = {
      milestoneId: r.fixed(ID_LENGTH, 'treasury.created.milestoneId'),
      amount: r.u64('treasury.created.amount'),
    };
    diff.treasury = { spent, created: made };
  } else if (flag !== 0) {
    r.fail('VALUE_OUT_OF_RANGE', `treasury flag ${flag} is neither 0 nor 1`, 'treasury flag', flagAt, String(flag));
  }
  endRecord(r, version, MILESTONE_DIFF_VERSION);
  return diff;
}
