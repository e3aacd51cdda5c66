/**
 * A key-value store that counts what is written to it, by table (the v3 benchmarks' write accounting): puts, deletes,
 * the key + value bytes put, the batches and those synced. Reads pass through.
 */
import {
  PREFIX,
  type BatchOp,
  type Entry,
  type KeyValueStore,
  type RangeOptions,
  type WriteOptions,
} from '../../src/core/store/index.ts';
import { V3_PREFIX } from '../../src/node/v3/tables.ts';

/** Table names by key prefix; the shared `blocks` table's v3 blocks (36-byte IDs) apart from v2's. */
const NAMES = new Map<number, string>([
  ...Object.entries(PREFIX).map(([n, p]) => [p, n] as [number, string]),
  ...Object.entries(V3_PREFIX).map(([n, p]) => [p, `v3 ${n}`] as [number, string]),
]);
export const tableOf = (k: Uint8Array): string => {
  if (k[0] === PREFIX.blocks) return k[1] === 36 ? 'v3 blocks' : 'blocks';
  if (k[0] === PREFIX.transactionBlocks) return k[1] === 36 ? 'v3 transactionBlocks' : 'transactionBlocks';
  return NAMES.get(k[0]!) ?? `0x${k[0]!.toString(16)}`;
};

export interface Count {
  puts: number;
  putBytes: number;
  dels: number;
}

/** A store that counts what is written to it, by table. */
export class Counting implements KeyValueStore {
  readonly tables = new Map<string, Count>();
  batches = 0;
  synced = 0;
  constructor(private readonly inner: KeyValueStore) {}
  reset(): void {
    this.tables.clear();
    this.batches = 0;
    this.synced = 0;
  }
  private count(op: BatchOp): void {
    const name = tableOf(op.key);
    const c = this.tables.get(name) ?? { puts: 0, putBytes: 0, dels: 0 };
    if (op.type === 'put') {
      c.puts++;
      c.putBytes += op.key.length + op.value.length;
    } else c.dels++;
    this.tables.set(name, c);
  }
  get(key: Uint8Array): Promise<Uint8Array | undefined> {
    return this.inner.get(key);
  }
  getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    return this.inner.getMany(keys);
  }
  has(key: Uint8Array): Promise<boolean> {
    return this.inner.has(key);
  }
  put(key: Uint8Array, value: Uint8Array, options?: WriteOptions): Promise<void> {
    return this.write([{ type: 'put', key, value }], options);
  }
  del(key: Uint8Array, options?: WriteOptions): Promise<void> {
    return this.write([{ type: 'del', key }], options);
  }
  write(ops: readonly BatchOp[], options?: WriteOptions): Promise<void> {
    this.batches++;
    if (options?.sync !== false) this.synced++;
    for (const op of ops) this.count(op);
    return this.inner.write(ops, options);
  }
  entries(range?: RangeOptions): AsyncIterableIterator<Entry> {
    return this.inner.entries(range);
  }
  keys(range?: RangeOptions): AsyncIterableIterator<Uint8Array> {
    return this.inner.keys(range);
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}

/**
 * The writes counted so far by table, largest first, as text lines: puts, deletes and bytes put per `per` (e.g. per
 * round: the number of rounds), and as MB a day when `perDay` units make a day.
 */
export function writesTable(kv: Counting, per: number, unit: string, perDay?: number): string {
  const lines = [`table | puts ${unit} | deletes ${unit} | bytes put ${unit}${perDay ? ' | MB put/day' : ''}`];
  const f = (n: number): string => (n / per).toFixed(per === 1 ? 0 : 2);
  const day = (bytes: number): string => (perDay ? ` | ${(((bytes / per) * perDay) / 1e6).toFixed(1)}` : '');
  let total = 0;
  for (const [name, c] of [...kv.tables].sort((a, b) => b[1].putBytes - a[1].putBytes)) {
    total += c.putBytes;
    lines.push(`${name} | ${f(c.puts)} | ${f(c.dels)} | ${f(c.putBytes)}${day(c.putBytes)}`);
  }
  lines.push(`all | | | ${f(total)}${day(total)}`);
  return lines.join('\n');
}

/** Entries and key + value bytes each table holds now. */
export async function heldByTable(kv: KeyValueStore): Promise<Map<string, { entries: number; bytes: number }>> {
  const held = new Map<string, { entries: number; bytes: number }>();
  for await (const [k, v] of kv.entries()) {
    const name = tableOf(k);
    const h = held.get(name) ?? { entries: 0, bytes: 0 };
    h.entries++;
    h.bytes += k.length + v.length;
    held.set(name, h);
  }
  return held;
}
