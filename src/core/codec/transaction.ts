/**
 * Transaction payload (type 6, docs/protocol.md §3.2) and Treasury Transaction payload
 * (type 4, docs/protocol.md §3.4).
 */
import {
  PAYLOAD_TRANSACTION,
  PAYLOAD_TREASURY_TRANSACTION,
  type TransactionPayload,
  type TreasuryTransactionPayload,
} from '../model/payload.ts';
import type { Unlock } from '../model/transaction.ts';
import { LIMITS } from '../model/limits.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readEssence, writeEssence } from './essence.ts';
import { readUnlock, writeUnlock } from './unlock.ts';
import { readTreasuryInput, writeInput } from './input.ts';
import { readTreasuryOutput, writeOutput } from './output.ts';
import { writeCount } from './common.ts';

function expectType(r: ByteReader, field: string, expected: number, name: string): void {
  const at = r.offset;
  const type = r.u32(field);
  if (type !== expected)
    r.fail('TYPE_NOT_ALLOWED', `expected ${name} payload (${expected}), got type ${type}`, field, at, String(type));
}

/** Reads from the u32 payload type. */
export function readTransaction(r: ByteReader, field: string): TransactionPayload {
  expectType(r, field, PAYLOAD_TRANSACTION, 'transaction');
  const essence = readEssence(r, 'essence');
  const n = r.count(2, 'unlocks', LIMITS.inputs.min, LIMITS.inputs.max);
  const unlocks: Unlock[] = new Array(n);
  for (let i = 0; i < n; i++) unlocks[i] = readUnlock(r, 'unlocks');
  return { type: PAYLOAD_TRANSACTION, essence, unlocks };
}

export function writeTransaction(w: ByteWriter, p: TransactionPayload): void {
  w.u32(PAYLOAD_TRANSACTION);
  writeEssence(w, p.essence);
  writeCount(w, p.unlocks.length, 2, 'unlocks');
  for (let i = 0; i < p.unlocks.length; i++) writeUnlock(w, p.unlocks[i]!);
}

/** Reads from the u32 payload type. */
export function readTreasuryTransaction(r: ByteReader, field: string): TreasuryTransactionPayload {
  expectType(r, field, PAYLOAD_TREASURY_TRANSACTION, 'treasury transaction');
  return {
    type: PAYLOAD_TREASURY_TRANSACTION,
    input: readTreasuryInput(r, 'treasuryTransaction.input'),
    output: readTreasuryOutput(r, 'treasuryTransaction.output'),
  };
}

export function writeTreasuryTransaction(w: ByteWriter, p: TreasuryTransactionPayload): void {
  w.u32(PAYLOAD_TREASURY_TRANSACTION);
  writeInput(w, p.input);
  writeOutput(w, p.output);
}
