/**
 * A pure-TypeScript ordered key-value store: a sorted array of sorted chunks (a two-level B+ tree), with
 * binary search at both levels, so an insert moves at most one chunk's worth of entries.
 *
 * - Reads and writes are copy-isolated: callers never alias stored bytes.
 * - A batch is validated first, then applied in one synchronous step (atomic for every reader).
 * - Iterators read the snapshot taken when they are created: taking one marks the current chunks as shared,
 *   and the next write copies the top-level array and each shared chunk it touches (copy-on-write).
 * - Durability options are accepted and ignored: there is no disk.
 */
import { compareBytes } from '../bytes.ts';
import { StoreError } from './errors.ts';
import { KeyValueStoreAdapter } from './adapter.ts';
import type { BatchOp, Entry, RangeOptions, WriteOptions } from './kv.ts';
import { checkKey, checkOps, checkRange } from './range.ts';

type Slot = { readonly key: Uint8Array; readonly value: Uint8Array };
type Chunk = Slot[];
/** A position: chunk index and slot index; `[chunks.length, 0]` is the end. */
type Pos = readonly [number, number];

export interface MemoryStoreOptions {
  /** Target entries per chunk (a chunk splits at twice this). Small values exercise chunk edges in tests. */
  chunkSize?: number;
}

/** First slot index in `chunk` whose key is >= `key` (or > `key` when `after`). */
function searchChunk(chunk: Chunk, key: Uint8Array, after: boolean): number {
  let lo = 0;
  let hi = chunk.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareBytes(chunk[mid]!.key, key);
    if (c < 0 || (after && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The position of the first slot whose key is >= `key` (or > `key` when `after`); the end when none. */
function locate(chunks: readonly Chunk[], key: Uint8Array, after: boolean): Pos {
  // First chunk whose last key is >= key (> key when `after`): the slot, if any, is in it.
  let lo = 0;
  let hi = chunks.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const chunk = chunks[mid]!;
    const c = compareBytes(chunk[chunk.length - 1]!.key, key);
    if (c < 0 || (after && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  if (lo === chunks.length) return [lo, 0];
  return [lo, searchChunk(chunks[lo]!, key, after)];
}

function before(a: Pos, b: Pos): boolean {
  return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
}

export class MemoryKeyValueStore extends KeyValueStoreAdapter {
  private chunks: Chunk[] = [];
  /** Chunks (and the top-level array) that no snapshot holds; only these may be mutated in place. */
  private owned = new Set<Chunk>();
  private topOwned = true;
  private count = 0;
  private closed = false;
  private readonly chunkSize: number;

  constructor(options: MemoryStoreOptions = {}) {
    super();
    const size = options.chunkSize ?? 256;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunkSize must be a positive integer, got ${size}`);
    this.chunkSize = size;
  }

  /** Number of keys stored. */
  get size(): number {
    return this.count;
  }

  async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.open();
    checkKey(key);
    return this.lookup(key);
  }

  async getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]> {
    this.open();
    keys.forEach((k, i) => {
      checkKey(k, `keys[${i}]`);
    });
    return keys.map((k) => this.lookup(k));
  }

  async has(key: Uint8Array): Promise<boolean> {
    this.open();
    checkKey(key);
    return this.find(key) !== undefined;
  }

  async write(ops: readonly BatchOp[], _options?: WriteOptions): Promise<void> {
    this.open();
    checkOps(ops);
    for (const op of ops) {
      if (op.type === 'put') this.insert({ key: op.key.slice(), value: op.value.slice() });
      else this.remove(op.key);
    }
  }

  entries(range: RangeOptions = {}): AsyncIterableIterator<Entry> {
    return this.cursor(range, (s) => [s.key.slice(), s.value.slice()] as const);
  }

  keys(range: RangeOptions = {}): AsyncIterableIterator<Uint8Array> {
    return this.cursor(range, (s) => s.key.slice());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.chunks = [];
    this.owned = new Set();
    this.count = 0;
  }

  // ---- reads

  private find(key: Uint8Array): Slot | undefined {
    const [ci, si] = locate(this.chunks, key, false);
    const slot = this.chunks[ci]?.[si];
    return slot !== undefined && compareBytes(slot.key, key) === 0 ? slot : undefined;
  }

  private lookup(key: Uint8Array): Uint8Array | undefined {
    return this.find(key)?.value.slice();
  }

  private cursor<T>(range: RangeOptions, pick: (s: Slot) => T): AsyncIterableIterator<T> {
    this.open();
    checkRange(range);
    const chunks = this.chunks;
    // From now on a snapshot holds these arrays: writes must copy before changing them.
    this.owned = new Set();
    this.topOwned = false;
    let lo: Pos = [0, 0];
    let hi: Pos = [chunks.length, 0];
    const later = (a: Pos, b: Pos): Pos => (before(a, b) ? b : a);
    const sooner = (a: Pos, b: Pos): Pos => (before(a, b) ? a : b);
    if (range.gte !== undefined) lo = later(lo, locate(chunks, range.gte, false));
    if (range.gt !== undefined) lo = later(lo, locate(chunks, range.gt, true));
    if (range.lt !== undefined) hi = sooner(hi, locate(chunks, range.lt, false));
    if (range.lte !== undefined) hi = sooner(hi, locate(chunks, range.lte, true));
    const norm = (p: Pos): Pos => (p[0] < chunks.length && p[1] >= chunks[p[0]]!.length ? [p[0] + 1, 0] : p);
    lo = norm(lo);
    hi = norm(hi);
    const reverse = range.reverse === true;
    let left = range.limit === undefined || range.limit < 0 ? Infinity : range.limit;
    // Forward: `at` is the next slot to yield. Reverse: `at` is one past it.
    let at: Pos = reverse ? hi : lo;
    const done = (): IteratorResult<T> => ({ done: true, value: undefined });
    const it: AsyncIterableIterator<T> = {
      next: async () => {
        if (left <= 0 || !before(lo, hi)) return done();
        let slot: Slot;
        if (reverse) {
          if (!before(lo, at)) return done();
          at = at[1] > 0 ? [at[0], at[1] - 1] : [at[0] - 1, chunks[at[0] - 1]!.length - 1];
          slot = chunks[at[0]]![at[1]]!;
        } else {
          if (!before(at, hi)) return done();
          slot = chunks[at[0]]![at[1]]!;
          at = at[1] + 1 < chunks[at[0]]!.length ? [at[0], at[1] + 1] : [at[0] + 1, 0];
        }
        left--;
        return { done: false, value: pick(slot) };
      },
      return: async () => {
        left = 0;
        return done();
      },
      [Symbol.asyncIterator]() {
        return it;
      },
    };
    return it;
  }

  // ---- writes (copy-on-write against snapshots)

  private top(): Chunk[] {
    if (!this.topOwned) {
      this.chunks = this.chunks.slice();
      this.topOwned = true;
    }
    return this.chunks;
  }

  /** The chunk at `ci`, copied first when a snapshot may hold it. */
  private mutable(ci: number): Chunk {
    const chunks = this.top();
    let chunk = chunks[ci]!;
    if (!this.owned.has(chunk)) {
      chunk = chunk.slice();
      chunks[ci] = chunk;
      this.owned.add(chunk);
    }
    return chunk;
  }

  private insert(slot: Slot): void {
    const chunks = this.top();
    if (chunks.length === 0) {
      const chunk = [slot];
      chunks.push(chunk);
      this.owned.add(chunk);
      this.count++;
      return;
    }
    let [ci, si] = locate(chunks, slot.key, false);
    if (ci === chunks.length) {
      ci = chunks.length - 1; // beyond every key: append to the last chunk
      si = chunks[ci]!.length;
    }
    const chunk = this.mutable(ci);
    if (si < chunk.length && compareBytes(chunk[si]!.key, slot.key) === 0) {
      chunk[si] = slot;
      return;
    }
    chunk.splice(si, 0, slot);
    this.count++;
    if (chunk.length >= 2 * this.chunkSize) {
      const tail = chunk.splice(this.chunkSize);
      chunks.splice(ci + 1, 0, tail);
      this.owned.add(tail);
    }
  }

  private remove(key: Uint8Array): void {
    const [ci, si] = locate(this.chunks, key, false);
    const current = this.chunks[ci]?.[si];
    if (current === undefined || compareBytes(current.key, key) !== 0) return;
    const chunk = this.mutable(ci);
    chunk.splice(si, 1);
    this.count--;
    if (chunk.length === 0) {
      this.top().splice(ci, 1);
      this.owned.delete(chunk);
    }
  }

  private open(): void {
    if (this.closed) throw new StoreError('STORE_CLOSED', 'Cannot use the in-memory store: it is closed');
  }
}
