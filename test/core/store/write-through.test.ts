import { expect } from 'chai';
import { MemoryKeyValueStore } from '../../../src/core/store/memory.ts';
import { PREFIX } from '../../../src/core/store/prefixes.ts';
import { WriteThroughCache } from '../../../src/core/store/write-through.ts';
import type { BatchOp, KeyValueStore, WriteOptions } from '../../../src/core/store/kv.ts';
import { storeContract } from './contract.ts';

// The cache must be invisible: the whole contract holds through it, with every table cached and with a tiny budget.
storeContract('write-through cache over in-memory, every table', () => ({
  open: async () =>
    new WriteThroughCache(new MemoryKeyValueStore(), {
      prefixes: Array.from({ length: 256 }, (_, i) => i),
      maxBytes: 1 << 20,
    }),
  persistent: false,
}));
storeContract('write-through cache over in-memory, 300 bytes', () => ({
  open: async () =>
    new WriteThroughCache(new MemoryKeyValueStore(), {
      prefixes: Array.from({ length: 256 }, (_, i) => i),
      maxBytes: 300,
    }),
  persistent: false,
}));

/**
 * A store that applies writes in the order they are issued (as LevelDB's write queue does) but acknowledges each when
 * the test says so, and counts reads.
 */
class SlowStore extends MemoryKeyValueStore {
  reads = 0;
  readonly pending: (() => void)[] = [];
  override async get(key: Uint8Array): Promise<Uint8Array | undefined> {
    this.reads++;
    return super.get(key);
  }
  override async write(ops: readonly BatchOp[], options?: WriteOptions): Promise<void> {
    const applied = super.write(ops, options);
    await new Promise<void>((resolve) => this.pending.push(resolve));
    return applied;
  }
}

const key = (prefix: number, n: number): Uint8Array => Uint8Array.of(prefix, n);
const val = (n: number): Uint8Array => Uint8Array.of(n, n, n);

describe('write-through cache', () => {
  it('answers reads of written keys of cached tables from memory, others from the store', async () => {
    const inner = new SlowStore();
    const kv: KeyValueStore = new WriteThroughCache(inner, { prefixes: [PREFIX.blocks], maxBytes: 1 << 20 });
    const w = kv.write([
      { type: 'put', key: key(PREFIX.blocks, 1), value: val(1) },
      { type: 'put', key: key(PREFIX.tips, 1), value: val(2) },
    ]);
    inner.pending.shift()!();
    await w;
    expect(await kv.get(key(PREFIX.blocks, 1))).to.deep.equal(val(1));
    expect(inner.reads).to.equal(0);
    expect(await kv.get(key(PREFIX.tips, 1))).to.deep.equal(val(2));
    expect(inner.reads).to.equal(1);
  });

  it('a value is cached only once its write succeeded, and writes to one key apply in issue order', async () => {
    const inner = new SlowStore();
    const kv = new WriteThroughCache(inner, { prefixes: [PREFIX.blocks], maxBytes: 1 << 20 });
    const k = key(PREFIX.blocks, 7);
    const first = kv.put(k, val(1));
    const second = kv.put(k, val(2));
    expect(kv.size.entries).to.equal(0); // nothing acknowledged yet: nothing cached
    const [a, b] = inner.pending.splice(0);
    b!(); // the later write is acknowledged first ...
    await new Promise((r) => setTimeout(r, 0));
    a!(); // ... then the earlier one: the cache keeps the later value, as the store does
    await Promise.all([first, second]);
    expect(await kv.get(k)).to.deep.equal(val(2));
    expect(await inner.get(k)).to.deep.equal(val(2));
  });

  it('keeps at most its byte budget, forgetting the oldest writes first', async () => {
    const kv = new WriteThroughCache(new MemoryKeyValueStore(), { prefixes: [PREFIX.blocks], maxBytes: 1000 });
    for (let i = 0; i < 100; i++) await kv.put(key(PREFIX.blocks, i), new Uint8Array(50));
    expect(kv.size.bytes).to.be.at.most(1000);
    expect(kv.size.entries).to.be.within(1, 10);
    expect(await kv.get(key(PREFIX.blocks, 0))).to.deep.equal(new Uint8Array(50)); // still in the store
  });
});
