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
    this.positions(id, (w, m) => ((this.bits[w]! |= m), true));
    this.count++;
  }

  mightContain(id: Uint8Array): boolean {
    return this.positions(id, (w, m) => (this.bits[w]! & m) !== 0);
  }
}

export class KnownBlocks {
  private readonly filters: Filter[] = [];

  constructor(private readonly firstCapacity = 1 << 20) {}

  /** Start-up: every stored block ID. */
  async load(store: NodeStore): Promise<void> {
    for await (const id of store.keys(TABLES.blocks)) this.add(id);
  }

  add(id: Uint8Array): void {
    let f = this.filters[this.filters.length - 1];
    if (!f || f.count >= f.capacity) this.filters.push((f = new Filter(this.firstCapacity * 2 ** this.filters.length)));
    f.add(id);
  }

  /** False: certainly not stored. True: stored, or (rarely) not. */
  mightContain(id: Uint8Array): boolean {
    for (const f of this.filters) if (f.mightContain(id)) return true;
    return false;
  }
}
