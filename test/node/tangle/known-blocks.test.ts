import { expect } from 'chai';
import { MemoryKeyValueStore, NodeStore, TABLES } from '../../../src/core/store/index.ts';
import { KnownBlocks } from '../../../src/node/tangle/known-blocks.ts';

/** Block IDs are BLAKE2b outputs; any well-spread bytes do here. */
function ids(n: number, seed: number): Uint8Array[] {
  let x = seed >>> 0 || 1;
  return Array.from({ length: n }, () => {
    const id = new Uint8Array(32);
    for (let i = 0; i < 32; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      id[i] = x & 0xff;
    }
    return id;
  });
}

async function storeBlocks(store: NodeStore, blocks: Uint8Array[]): Promise<void> {
  const batch = store.batch();
  for (const id of blocks) batch.put(TABLES.blocks, id, new Uint8Array([1]));
  await batch.commit({ sync: false });
}

async function deleteBlocks(store: NodeStore, blocks: Uint8Array[]): Promise<void> {
  const batch = store.batch();
  for (const id of blocks) batch.del(TABLES.blocks, id);
  await batch.commit({ sync: false });
}

const now = <T>(fn: () => Promise<T>): Promise<T> => fn();

describe('KnownBlocks: the stored-block filter after pruning', () => {
  it('is rebuilt from the kept blocks past twice their count: pruned IDs leave, kept ones answer "maybe"', async () => {
    const store = await NodeStore.open(new MemoryKeyValueStore());
    const known = new KnownBlocks(1000);
    const old = ids(5000, 1);
    const kept = ids(500, 2);
    await storeBlocks(store, [...old, ...kept]);
    for (const id of [...old, ...kept]) known.add(id);
    const before = known.size;
    expect(before.entries).to.equal(5500);

    await deleteBlocks(store, old); // what pruning does to the blocks table
    expect(await known.afterPrune(store, now)).to.equal(true);
    expect(known.size.entries).to.equal(500);
    expect(known.size.bytes).to.be.below(before.bytes / 4);
    for (const id of kept) expect(known.mightContain(id)).to.equal(true);
    const falsePositives = old.filter((id) => known.mightContain(id)).length;
    expect(falsePositives).to.be.below(old.length / 20); // about 1% by design

    // Below twice the new baseline (and the first capacity) nothing is rebuilt.
    expect(await known.afterPrune(store, now)).to.equal(false);
  });

  it('keeps every block stored while it rebuilds: those in the snapshot and those added after the hold', async () => {
    const store = await NodeStore.open(new MemoryKeyValueStore());
    const known = new KnownBlocks(100);
    const first = ids(3000, 3);
    await storeBlocks(store, first);
    for (const id of first) known.add(id);
    await deleteBlocks(store, first.slice(0, 2500));

    const during = ids(300, 4);
    let recordedWhileRebuilding = false;
    const rebuilt = known.afterPrune(store, async (fn) => {
      const r = await fn();
      // The hold is over and the keys are not read yet: blocks arriving now are stored after the snapshot.
      for (const id of during) known.add(id);
      await storeBlocks(store, during);
      recordedWhileRebuilding = true;
      return r;
    });
    expect(await rebuilt).to.equal(true);
    expect(recordedWhileRebuilding).to.equal(true);
    for (const id of [...first.slice(2500), ...during]) expect(known.mightContain(id)).to.equal(true);
    // the late ones once or (in the snapshot too) twice
    expect(known.size.entries).to.be.within(500 + 300, 500 + 300 + 300);
    expect(known.size.entries).to.be.below(3000);
  });

  it('a failed rebuild (the store closed under it) keeps the old filter whole', async () => {
    const store = await NodeStore.open(new MemoryKeyValueStore());
    const known = new KnownBlocks(10);
    const blocks = ids(100, 5);
    await storeBlocks(store, blocks);
    for (const id of blocks) known.add(id);
    await store.close();
    let failed = false;
    await known.afterPrune(store, now).catch(() => (failed = true));
    expect(failed).to.equal(true);
    for (const id of blocks) expect(known.mightContain(id)).to.equal(true);
    expect(known.size.entries).to.equal(100);
  });
});
