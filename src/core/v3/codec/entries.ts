/**
 * Metadata / State Metadata feature entries (TIP-38): a map of printable-ASCII keys to byte values.
 * Binary order follows iota.go: entries sorted by their serialized bytes (key length first), so "b" < "aa"
 * (docs/protocol.md §V12.2 D6).
 */
import { compareBytes } from '../../bytes.ts';
import { reject } from '../../errors.ts';

/** Key -> value. Keys are 1..64 chars of ASCII 33..126. */
export type Entries = Record<string, Uint8Array>;

/** The whole map (count byte + entries) must not exceed this many bytes. */
export const MAX_METADATA_BYTES = 8192;

/** Why `key` is not a valid entry key, or undefined. */
export function checkEntryKey(key: string): string | undefined {
  if (key.length < 1 || key.length > 64) return `length ${key.length} is outside 1..64`;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 33 || c > 126) return `character ${c} at ${i} is not printable ASCII (33..126)`;
  }
  return undefined;
}

/** Sets an own property even for keys such as "__proto__". */
export function setEntry(out: Entries, key: string, value: Uint8Array): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

export interface SerializedEntry {
  key: string;
  bytes: Uint8Array;
}

/** The entries of a model map with their serialized bytes; rejects bad keys and values. */
export function entriesOf(v: unknown, path: string): SerializedEntry[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    return reject('INVALID_FIELD', `Cannot encode ${path}: expected an entries object`, { field: path });
  }
  const out: SerializedEntry[] = [];
  for (const key of Object.keys(v)) {
    const problem = checkEntryKey(key);
    if (problem)
      reject('INVALID_FIELD', `Cannot encode ${path}: key ${JSON.stringify(key)}: ${problem}`, {
        field: path,
        value: key,
      });
    const value = (v as Record<string, unknown>)[key];
    if (!(value instanceof Uint8Array) || value.length > 0xffff) {
      reject('INVALID_FIELD', `Cannot encode ${path}.${key}: expected a Uint8Array of at most 65535 bytes`, {
        field: `${path}.${key}`,
      });
    }
    const b = new Uint8Array(1 + key.length + 2 + value.length);
    b[0] = key.length;
    for (let i = 0; i < key.length; i++) b[1 + i] = key.charCodeAt(i);
    b[1 + key.length] = value.length & 0xff;
    b[2 + key.length] = value.length >> 8;
    b.set(value, 3 + key.length);
    out.push({ key, bytes: b });
  }
  return out;
}

export function sortEntries(list: SerializedEntry[]): SerializedEntry[] {
  return [...list].sort((a, b) => compareBytes(a.bytes, b.bytes));
}
