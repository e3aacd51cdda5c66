/**
 * The storage watch (src/node/status/storage.ts): the store's growth over its window and the time the free disk lasts
 * at it, from samples on a fake clock; none before the samples span the minimum; none left when the store shrinks or
 * holds; measurements cached; and the real data folder's figures from the file system.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureDataDir, StorageWatch, type DiskFigures } from '../../../src/node/status/storage.ts';

const MIN = 60_000;

function fake(start: DiskFigures) {
  let t = 0;
  let figures = { ...start };
  let measured = 0;
  const watch = new StorageWatch('unused', {
    now: () => t,
    measure: async () => {
      measured++;
      return { ...figures };
    },
  });
  return {
    watch,
    advance: async (ms: number, change: Partial<DiskFigures>) => {
      t += ms;
      figures = { ...figures, ...change };
      await watch.sample();
    },
    measured: () => measured,
    tick: (ms: number) => {
      t += ms;
    },
  };
}

describe('storage watch: what runs out first', () => {
  it('no growth before the samples span 10 minutes; then bytes per hour and the time until full', async () => {
    const f = fake({ databaseBytes: 1_000_000, diskFreeBytes: 100_000_000, diskSizeBytes: 1e9 });
    await f.watch.sample();
    await f.advance(5 * MIN, { databaseBytes: 1_500_000, diskFreeBytes: 99_500_000 });
    expect(await f.watch.figures()).to.deep.equal({
      databaseBytes: 1_500_000,
      diskFreeBytes: 99_500_000,
      diskSizeBytes: 1e9,
    });
    await f.advance(5 * MIN, { databaseBytes: 2_000_000, diskFreeBytes: 99_000_000 });
    // 1 MB in 10 minutes: 6 MB/h; 99 MB free: 16.5 h
    const g = await f.watch.figures();
    expect(g.growthBytesPerHour).to.equal(6_000_000);
    expect(g.secondsUntilFull).to.equal(16.5 * 3600);
  });

  it('a store that shrinks or holds has a growth but no time left', async () => {
    const f = fake({ databaseBytes: 5_000_000, diskFreeBytes: 10_000_000, diskSizeBytes: 1e9 });
    await f.watch.sample();
    await f.advance(30 * MIN, { databaseBytes: 4_000_000 }); // pruned
    const shrinking = await f.watch.figures();
    expect(shrinking.growthBytesPerHour).to.equal(-2_000_000);
    expect(shrinking.secondsUntilFull).to.equal(undefined);
    await f.advance(30 * MIN, { databaseBytes: 5_000_000 });
    expect((await f.watch.figures()).growthBytesPerHour).to.equal(0);
    expect((await f.watch.figures()).secondsUntilFull).to.equal(undefined);
  });

  it('the window keeps the last 6 hours: an old burst stops counting', async () => {
    const f = fake({ databaseBytes: 0, diskFreeBytes: 1e12, diskSizeBytes: 2e12 });
    await f.watch.sample();
    await f.advance(10 * MIN, { databaseBytes: 1e9 }); // a burst of 1 GB
    for (let i = 0; i < 36; i++) await f.advance(10 * MIN, {}); // 6 hours flat
    expect((await f.watch.figures()).growthBytesPerHour).to.equal(0);
  });

  it('measures at most every 10 s between samples', async () => {
    const f = fake({ databaseBytes: 1, diskFreeBytes: 1, diskSizeBytes: 1 });
    await f.watch.figures();
    await f.watch.figures();
    f.tick(9_999);
    await f.watch.figures();
    expect(f.measured()).to.equal(1);
    f.tick(1);
    await f.watch.figures();
    expect(f.measured()).to.equal(2);
  });

  it('reads a real folder: its files, and its file system as statfs tells it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-storage-'));
    try {
      writeFileSync(join(dir, 'a'), new Uint8Array(1000));
      const m = await measureDataDir(dir);
      expect(m.databaseBytes).to.equal(1000);
      expect(m.diskFreeBytes).to.be.above(0);
      expect(m.diskSizeBytes).to.be.above(m.diskFreeBytes);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
