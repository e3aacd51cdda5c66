/**
 * The treasury output (TIP-34) in the `treasury` table, keyed by the ID of the milestone that created it.
 * Version 1, 10 bytes: version (1) ‖ amount u64 ‖ spent u8 (0 = the current treasury, 1 = replaced by a receipt).
 */
import { ByteReader } from '../codec/reader.ts';
import { ByteWriter } from '../codec/writer.ts';
import { endRecord, readVersion } from '../store/record.ts';

export const TREASURY_RECORD_VERSION = 1;

/** A treasury output: the milestone that created it and the amount it holds. */
export interface TreasuryState {
  milestoneId: Uint8Array;
  amount: bigint;
}

export interface TreasuryRecord {
  amount: bigint;
  spent: boolean;
}

export function encodeTreasuryRecord(t: TreasuryRecord): Uint8Array {
  if (typeof t.amount !== 'bigint' || t.amount < 0n || t.amount > 0xffffffffffffffffn)
    throw new RangeError(`treasury record: amount must be a u64, got ${String(t.amount)}`);
  return new ByteWriter(10)
    .u8(TREASURY_RECORD_VERSION)
    .u64(t.amount)
    .u8(t.spent ? 1 : 0)
    .finish();
}

export function decodeTreasuryRecord(bytes: Uint8Array, subject = 'treasury record'): TreasuryRecord {
  const r: ByteReader = new ByteReader(bytes, subject);
  const version = readVersion(r, TREASURY_RECORD_VERSION);
  const amount = r.u64('amount');
  const at = r.offset;
  const spent = r.u8('spent');
  if (spent > 1) r.fail('VALUE_OUT_OF_RANGE', `spent flag ${spent} is neither 0 nor 1`, 'spent', at, String(spent));
  endRecord(r, version, TREASURY_RECORD_VERSION);
  return { amount, spent: spent === 1 };
}
