/** Migrated funds entry of a receipt (docs/protocol.md §3.3.1): `{ tailTransactionHash (49 B), address, deposit }`. */
import { LIMITS, type MigratedFundsEntry } from '../model/index.ts';
import { addressToJson, parseEd25519Address } from './address.ts';
import { fromJson } from './entry.ts';
import type { JsonPath } from './path.ts';
import { readFixed, readObject, readU64, required } from './read.ts';
import type { MigratedFundsEntryJson } from './types.ts';
import { bytesToJson, u64ToJson } from './write.ts';

export function migratedFundsEntryToJson(e: MigratedFundsEntry): MigratedFundsEntryJson {
  return {
    tailTransactionHash: bytesToJson(e.tailTransactionHash),
    address: addressToJson(e.address),
    deposit: u64ToJson(e.deposit),
  };
}

/** The minimum deposit is the syntactic validator's rule. */
export function parseMigratedFundsEntry(v: unknown, p: JsonPath): MigratedFundsEntry {
  const o = readObject(v, p);
  return {
    tailTransactionHash: readFixed(
      required(o, 'tailTransactionHash', p),
      p.key('tailTransactionHash'),
      LIMITS.tailTransactionHashLength,
    ),
    address: parseEd25519Address(required(o, 'address', p), p.key('address')),
    deposit: readU64(required(o, 'deposit', p), p.key('deposit')),
  };
}

export function migratedFundsEntryFromJson(json: unknown): MigratedFundsEntry {
  return fromJson('migrated funds entry', json, parseMigratedFundsEntry);
}
