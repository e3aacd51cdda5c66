/** Unlock conditions (docs/protocol.md §7). */
import {
  UC_ADDRESS,
  UC_EXPIRATION,
  UC_GOVERNOR,
  UC_IMMUTABLE_ALIAS,
  UC_STATE_CONTROLLER,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
  type AliasAddress,
  type UnlockCondition,
} from '../model/index.ts';
import type { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readAddress, writeAddress } from './address.ts';
import {
  ascendingTypeProblem,
  countProblem,
  mandatoryUnlockConditionsProblem,
  unlockConditionKindProblem,
  type Bounds,
} from './rules.ts';
import { decodeWhole, encodeWith, failAt, writeCount } from './common.ts';

/** Reads one unlock condition whose type byte was already consumed. */
function readBody(r: ByteReader, type: number, field: string): UnlockCondition {
  switch (type) {
    case UC_ADDRESS:
      return { type, address: readAddress(r, field) };
    case UC_STORAGE_DEPOSIT_RETURN:
      return { type, returnAddress: readAddress(r, field), amount: r.u64(field) };
    case UC_TIMELOCK:
      return { type, unixTime: r.u32(field) };
    case UC_EXPIRATION:
      return { type, returnAddress: readAddress(r, field), unixTime: r.u32(field) };
    case UC_STATE_CONTROLLER:
      return { type, address: readAddress(r, field) };
    case UC_GOVERNOR:
      return { type, address: readAddress(r, field) };
    default:
      return { type: UC_IMMUTABLE_ALIAS, address: readAddress(r, field, 'alias') as AliasAddress };
  }
}

/** One unlock condition allowed in an output of `outputType` (any known type when outputType is -1). */
export function readUnlockCondition(r: ByteReader, field: string, outputType = -1): UnlockCondition {
  const at = r.offset;
  const type = r.u8(field);
  const p = unlockConditionKindProblem(outputType, type);
  if (p) failAt(r, p, field, at, String(type));
  return readBody(r, type, field);
}

/** The unlock condition list of an output: count, allowed kinds, ascending one-per-type, mandatory kinds. */
export function readUnlockConditions(
  r: ByteReader,
  field: string,
  outputType: number,
  bounds: Bounds,
): UnlockCondition[] {
  const at = r.offset;
  const n = r.u8(field);
  const cp = countProblem('unlock conditions', n, bounds);
  if (cp) failAt(r, cp, field, at, String(n));
  const out: UnlockCondition[] = new Array(n);
  let prev = -1;
  let present = 0;
  for (let i = 0; i < n; i++) {
    const start = r.offset;
    const uc = readUnlockCondition(r, field, outputType);
    if (i > 0) {
      const p = ascendingTypeProblem('unlock condition', prev, uc.type);
      if (p) failAt(r, p, field, start, String(uc.type));
    }
    prev = uc.type;
    present |= 1 << uc.type;
    out[i] = uc;
  }
  const mp = mandatoryUnlockConditionsProblem(outputType, present);
  if (mp) failAt(r, mp, field, at);
  return out;
}

export function writeUnlockCondition(w: ByteWriter, uc: UnlockCondition): void {
  w.u8(uc.type);
  switch (uc.type) {
    case UC_ADDRESS:
    case UC_STATE_CONTROLLER:
    case UC_GOVERNOR:
    case UC_IMMUTABLE_ALIAS:
      writeAddress(w, uc.address);
      return;
    case UC_STORAGE_DEPOSIT_RETURN:
      writeAddress(w, uc.returnAddress);
      w.u64(uc.amount);
      return;
    case UC_TIMELOCK:
      w.u32(uc.unixTime);
      return;
    case UC_EXPIRATION:
      writeAddress(w, uc.returnAddress);
      w.u32(uc.unixTime);
      return;
    default:
      throw new RangeError(`Cannot encode unlock condition: unknown type ${String((uc as UnlockCondition).type)}`);
  }
}

export function writeUnlockConditions(w: ByteWriter, list: UnlockCondition[]): void {
  writeCount(w, list.length, 1, 'unlock conditions');
  for (let i = 0; i < list.length; i++) writeUnlockCondition(w, list[i]!);
}

export function encodeUnlockCondition(uc: UnlockCondition): Uint8Array {
  return encodeWith(writeUnlockCondition, uc);
}

export function decodeUnlockCondition(bytes: Uint8Array): UnlockCondition {
  return decodeWhole(bytes, 'unlock condition', (r) => readUnlockCondition(r, 'unlockCondition'));
}
