/**
 * A typed table: a one-byte key prefix (see prefixes.ts) plus codecs for its keys and values. NodeStore reads
 * and StoreBatch writes any table, so later issues (the UTXO ledger) add tables without touching the adapters.
 */
import type { Codec } from './codec.ts';

export interface Table<K, V> {
  readonly name: string;
  readonly prefix: number;
  readonly key: Codec<K>;
  readonly value: Codec<V>;
}

export function defineTable<K, V>(name: string, prefix: number, key: Codec<K>, value: Codec<V>): Table<K, V> {
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 0xff)
    throw new RangeError(`table ${name}: prefix must be a byte, got ${prefix}`);
  return Object.freeze({ name, prefix, key, value });
}

/** The full store key: prefix ‖ encoded key. */
export function tableKey<K>(table: Table<K, unknown>, key: K): Uint8Array {
  return withPrefix(table.prefix, table.key.encode(key));
}

/** prefix ‖ raw bytes (for prefix scans inside a table). */
export function withPrefix(prefix: number, rest: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + rest.length);
  out[0] = prefix;
  out.set(rest, 1);
  return out;
}

/** Decodes the table key of a full store key (drops the prefix byte). */
export function decodeTableKey<K>(table: Table<K, unknown>, storeKey: Uint8Array): K {
  return table.key.decode(storeKey.subarray(1), `${table.name} key`);
}
