/**
 * Which blocks the store holds, answered in memory for the common case of a new block: a scalable Bloom filter over
 * every stored block ID (loaded by one pass over the blocks table at start, then kept by the attacher). "No" is
 * certain, so a new block costs no store read; "maybe" (every stored block, and about 1% of new ones) asks the store.
 * Without it the duplicate check of every arriving block is a LevelDB miss, which grows slower with the store.
 *
 * Block IDs are BLAKE2b-256 outputs (v3: plus a slot index), uniformly distributed, so the filter's bit positions are
 * taken from the ID bytes themselves (k disjoint 4-byte windows) instead of hashing again.
 */
import { TABLES, type NodeStore } from '../../core/store/index.ts';

const HASHES = 7; // k for a 1% false-positive rate at 9.6 bits per entry
const BITS_PER_ENTRY = 10;

class Filter {
  readonly bits: Uint32Array;
  count = 0;

  constructor(readonly capacity: number) {
    this.bits = new Uint32Array(Math.ceil((capacity * BITS_PER_ENTRY) / 32));
  }

  private positions(id: Uint8Array, visit: (word: number, mask: number) => boolean): boolean {
    const size = this.bits.length * 32;
    for (let i = 0; i < HASHES; i++) {
      const o = i * 4;
      const h = ((id[o]! << 24) | (id[o + 1]! << 16) | (id[o + 2]! << 8) | id[o + 3]!) >>> 0;
      const bit = h % size;
      if (!visit(bit >>> 5, 1 << (bit & 31))) return false;
    }
    return true;
  }

  add(id: Uint8Array): void {
    this.positions(id, (w, m) => {
      this.bits[w]! |= m;
      return true;
    });
    this.count++;
  }

  mightContain(id: Uint8Array): boolean {
    return this.positions(id, (w, m) => (this.bits[w]! & m) !== 0);
  }
}

/** Filters grown one after another (each twice the last), as many entries as added. */
class Filters {
  readonly list: Filter[] = [];
  count = 0;

  constructor(private readonly firstCapacity: number) {}

  add(id: Uint8Array): void {
    let f = this.list[this.list.length - 1];
    if (!f || f.count >= f.capacity) {
      f = new Filter(this.firstCapacity * 2 ** this.list.length);
      this.list.push(f);
    }
    f.add(id);
    this.count++;
  }

  mightContain(id: Uint8Array): boolean {
    for (const f of this.list) if (f.mightContain(id)) return true;
    return false;
  }

  get bytes(): number {
    return this.list.reduce((n, f) => n + f.bits.byteLength, 0);
  }
}

/**
 * The filter only grows, while a pruning node's store does not: the IDs of pruned blocks stay in it. So after pruning
 * the filter is rebuilt from the blocks the store holds, once it holds more than twice the entries of the last
 * (re)build and at least its first capacity; on a node that prunes, it stays the size of the kept blocks.
 */
export class KnownBlocks {
  private filters: Filters;
  /** The filter being rebuilt: every block added meanwhile goes into it too. */
  private rebuilding: Filters | undefined;
  /** Entries after the last load or rebuild. */
  private baseline = 0;

  constructor(private readonly firstCapacity = 1 << 20) {
    this.filters = new Filters(firstCapacity);
  }

  /** Start-up: every stored block ID. */
  async load(store: NodeStore): Promise<void> {
    for await (const id of store.keys(TABLES.blocks)) this.add(id);
    this.baseline = this.filters.count;
  }

  add(id: Uint8Array): void {
    this.filters.add(id);
    this.rebuilding?.add(id);
  }

  /** False: certainly not stored. True: stored, or (rarely) not. */
  mightContain(id: Uint8Array): boolean {
    return this.filters.mightContain(id);
  }

  /** Entries and bytes of the filters (pruned blocks count until a rebuild). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.filters.count, bytes: this.filters.bytes };
  }

  /**
   * After pruning: rebuilds the filter from the store's blocks when it has grown past twice the last build (and its
   * first capacity). `hold` runs its function where no block is being stored (the attacher's exclusive slot): there
   * the store's iterator takes its snapshot and recording starts, so a block is either in the snapshot or recorded.
   * The keys are read after the hold, while blocks go on arriving. True when it rebuilt.
   */
  async afterPrune(store: NodeStore, hold: <T>(fn: () => Promise<T>) => Promise<T>): Promise<boolean> {
    if (this.rebuilding || this.filters.count <= Math.max(2 * this.baseline, this.firstCapacity)) return false;
    const fresh = new Filters(this.firstCapacity);
    const keys = store.keys(TABLES.blocks)[Symbol.asyncIterator]();
    try {
      const first = await hold(async () => {
        this.rebuilding = fresh;
        return keys.next(); // opens the store iterator: its snapshot holds every block stored before this point
      });
      if (!first.done) fresh.add(first.value);
      for (let r = await keys.next(); !r.done; r = await keys.next()) fresh.add(r.value);
      this.filters = fresh;
      this.baseline = fresh.count;
      return true;
    } finally {
      this.rebuilding = undefined;
      await keys.return?.();
    }
  }
}
