/**
 * Storage throughput, on demand (never run by the tests):
 *   npx tsx benchmarks/storage/run.ts [folder]
 * Each write is one NodeStore batch shaped like a stored block (raw bytes, metadata, two children edges,
 * tip add/remove = 6 ops); reads are random block gets. LevelDB and RocksDB run in temp folders under `folder`
 * (default: the OS temp dir; pass a folder on the disk you care about, since fsync cost depends on it).
 * The engine comparison at scale (node-shaped group commits, interleaved, 100k and 1M blocks) is engines.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryKeyValueStore } from '../../src/core/store/memory.ts';
import { NodeStore } from '../../src/core/store/node-store.ts';
import type { KeyValueStore } from '../../src/core/store/kv.ts';
import { LevelKeyValueStore } from '../../src/storage/level.ts';
import { RocksKeyValueStore } from '../../src/storage/rocksdb.ts';

const blockId = (i: number): Uint8Array => {
  const id = new Uint8Array(32);
  const v = new DataView(id.buffer);
  v.setUint32(0, Math.imul(i, 2654435761) >>> 0); // spread keys like hashes
  v.setUint32(28, i);
  return id;
};
const body = new Uint8Array(400).fill(7);

async function writes(store: NodeStore, from: number, n: number, sync: boolean): Promise<number> {
  const t0 = performance.now();
  for (let i = from; i < from + n; i++) {
    await store
      .batch()
      .addBlock({
        blockId: blockId(i),
        bytes: body,
        parents: [blockId(i - 1), blockId(i - 2)],
        metadata: { protocolVersion: 2, solid: true, arrivalTime: Date.now() },
      })
      .removeTip(blockId(i - 1))
      .addTip(blockId(i))
      .commit({ sync });
  }
  return n / ((performance.now() - t0) / 1000);
}

async function reads(store: NodeStore, count: number, n: number): Promise<number> {
  const t0 = performance.now();
  let found = 0;
  for (let i = 0; i < n; i++) if (await store.getBlock(blockId(1 + ((i * 7919) % count)))) found++;
  if (found !== n) throw new Error(`read ${found} of ${n}`);
  return n / ((performance.now() - t0) / 1000);
}

async function scan(store: NodeStore, count: number): Promise<number> {
  const t0 = performance.now();
  let n = 0;
  for await (const _ of store.kv.keys()) n++;
  if (n < count) throw new Error(`scanned ${n}`);
  return n / ((performance.now() - t0) / 1000);
}

async function run(name: string, kv: KeyValueStore): Promise<void> {
  const store = await NodeStore.open(kv);
  const syncN = 1000;
  const asyncN = 20000;
  const syncRate = await writes(store, 1, syncN, true);
  const asyncRate = await writes(store, 1 + syncN, asyncN, false);
  const total = syncN + asyncN;
  const readRate = await reads(store, total, 50000);
  const scanRate = await scan(store, total);
  await store.close();
  const f = (x: number): string => Math.round(x).toLocaleString('en-US').padStart(10);
  console.log(
    `${name.padEnd(10)} block batches/s sync=true ${f(syncRate)}   sync=false ${f(asyncRate)}   ` +
      `random gets/s ${f(readRate)}   keys scanned/s ${f(scanRate)}`,
  );
}

const base = process.argv[2] ?? tmpdir();
const dir = await mkdtemp(join(base, 'ledger-bench-'));
try {
  console.log(`node ${process.version}, store folders under ${dir}; 6 ops per batch`);
  await run('memory', new MemoryKeyValueStore());
  await run('leveldb', await LevelKeyValueStore.open(join(dir, 'leveldb')));
  await run('rocksdb', await RocksKeyValueStore.open(join(dir, 'rocksdb')));
} finally {
  await rm(dir, { recursive: true, force: true });
}
