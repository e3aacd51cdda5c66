/**
 * Both storage engines (LevelDB, RocksDB): the store contract, locks and open errors; and the choice between them
 * (open.ts): a store folder is never opened with the other engine, a data folder keeps its engine.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '../../src/core/store/errors.ts';
import type { EngineKeyValueStore, EngineOpenOptions } from '../../src/storage/engine.ts';
import { LevelKeyValueStore } from '../../src/storage/level.ts';
import {
  DB_ENGINES,
  ENGINE_FOLDERS,
  engineOfDataDir,
  engineOfStoreFolder,
  openDataDirStore,
  openKeyValueStore,
  type DbEngine,
} from '../../src/storage/open.ts';
import { RocksKeyValueStore } from '../../src/storage/rocksdb.ts';
import { storeContract } from '../core/store/contract.ts';

const ENGINES: Record<
  DbEngine,
  { name: string; open(dir: string, options?: EngineOpenOptions): Promise<EngineKeyValueStore>; holder: string }
> = {
  leveldb: {
    name: 'LevelDB (classic-level)',
    open: (dir, options) => LevelKeyValueStore.open(dir, options),
    holder: "const { ClassicLevel } = require('classic-level'); new ClassicLevel(process.argv[1]).open().then(ready);",
  },
  rocksdb: {
    name: 'RocksDB (rocksdb)',
    open: (dir, options) => RocksKeyValueStore.open(dir, options),
    holder: "require('rocksdb')(process.argv[1]).open({}, (e) => { if (e) throw e; ready(); });",
  },
};

async function rejection(p: Promise<unknown>): Promise<StoreError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).to.be.instanceOf(StoreError);
  return e as StoreError;
}

for (const engine of DB_ENGINES) {
  const { name, open, holder: holderScript } = ENGINES[engine];

  storeContract(name, () => {
    let dir: string | undefined;
    return {
      persistent: true,
      async open() {
        dir ??= await mkdtemp(join(tmpdir(), 'ledger-store-'));
        return open(dir);
      },
      async cleanup() {
        if (dir) await rm(dir, { recursive: true, force: true });
      },
    };
  });

  describe(`${name}: open and close`, () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ledger-store-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('fails with STORE_LOCKED while another open store holds the folder, and opens once it is closed', async () => {
      const first = await open(dir);
      const e = await rejection(open(dir));
      expect(e.code).to.equal('STORE_LOCKED');
      expect(e.message).to.contain(dir).and.contain('locked');
      await first.close();
      const again = await open(dir);
      await again.close();
    });

    it('fails with STORE_LOCKED while another process holds the folder', async () => {
      const ready = `const ready = () => { process.stdout.write('open\\n'); setInterval(() => {}, 1000); };`;
      const script = `${ready} ${holderScript}`;
      const holder = spawn(process.execPath, ['-e', script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      try {
        await new Promise<void>((resolve, reject) => {
          holder.stdout!.on('data', (d: Buffer) => d.toString().includes('open') && resolve());
          holder.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
        });
        expect((await rejection(open(dir))).code).to.equal('STORE_LOCKED');
      } finally {
        holder.kill('SIGKILL');
        await new Promise((r) => holder.once('exit', r));
      }
    });

    it('fails with STORE_OPEN_FAILED for a missing folder when creation is off', async () => {
      const e = await rejection(open(join(dir, 'missing'), { createIfMissing: false }));
      expect(e.code).to.equal('STORE_OPEN_FAILED');
      expect(e.message).to.contain('missing');
    });

    it('waits for writes in flight when closed, and rejects reads of an iterator opened before the close', async () => {
      const kv = await open(dir);
      const ops = Array.from({ length: 200 }, (_, i) => ({
        type: 'put' as const,
        key: Uint8Array.of(1, i),
        value: new Uint8Array(100).fill(i),
      }));
      await kv.write(ops);
      const it = kv.entries();
      expect((await it.next()).done).to.equal(false);
      const writes = [kv.write(ops.slice(0, 10)), kv.put(Uint8Array.of(2), Uint8Array.of(2))];
      await kv.close();
      await Promise.all(writes);
      const e = await rejection(
        (async () => {
          for (;;) if ((await it.next()).done) return;
        })(),
      );
      expect(e.code).to.equal('STORE_CLOSED');
      expect((await it.next()).done).to.equal(true);
      const again = await open(dir);
      expect(await again.get(Uint8Array.of(2))).to.deep.equal(Uint8Array.of(2));
      await again.close();
    });
  });
}

describe('choosing the storage engine (open.ts)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-engine-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function storeOf(engine: DbEngine, location: string): Promise<void> {
    const kv = await openKeyValueStore(engine, location);
    expect(kv.engine).to.equal(engine);
    await kv.put(Uint8Array.of(1), Uint8Array.of(engine.length));
    await kv.close();
  }

  it('recognises the store folder of each engine by its files', async () => {
    expect(engineOfStoreFolder(join(dir, 'none'))).to.equal(undefined);
    expect(engineOfStoreFolder(dir)).to.equal(undefined);
    for (const engine of DB_ENGINES) {
      await storeOf(engine, join(dir, engine));
      expect(engineOfStoreFolder(join(dir, engine))).to.equal(engine);
    }
  });

  it('never opens a store folder with the other engine, and leaves it untouched', async () => {
    for (const [engine, other] of [
      ['leveldb', 'rocksdb'],
      ['rocksdb', 'leveldb'],
    ] as const) {
      const location = join(dir, engine);
      await storeOf(engine, location);
      const e = await rejection(openKeyValueStore(other, location));
      expect(e.code).to.equal('STORE_OPEN_FAILED');
      expect(e.message).to.contain(location).and.contain(`use --db-engine ${engine}`);
      expect(engineOfStoreFolder(location)).to.equal(engine);
      const kv = await openKeyValueStore(engine, location);
      expect(await kv.get(Uint8Array.of(1))).to.deep.equal(Uint8Array.of(engine.length));
      await kv.close();
    }
  });

  it('keeps the engine of a data folder (its store folder is named after it), refuses an explicit other', async () => {
    for (const engine of DB_ENGINES) {
      const dataDir = join(dir, `data-${engine}`);
      await mkdir(dataDir);
      const kv = await openDataDirStore(dataDir, { engine });
      expect(kv.location).to.equal(join(dataDir, ENGINE_FOLDERS[engine]));
      await kv.close();
      expect(engineOfDataDir(dataDir)).to.equal(engine);
      const other = DB_ENGINES.find((x) => x !== engine)!;
      const e = await rejection(openDataDirStore(dataDir, { engine: other }));
      expect(e.code).to.equal('STORE_OPEN_FAILED');
      expect(e.message).to.contain(dataDir).and.contain(`--db-engine ${engine}`);
      // A default engine (not asked for) applies to a new folder only; without any engine the folder's own is used.
      for (const options of [{ engine: other, engineIsDefault: true }, { createIfMissing: false }]) {
        const reopened = await openDataDirStore(dataDir, options);
        expect(reopened.engine).to.equal(engine);
        await reopened.close();
      }
    }
    const e = await rejection(openDataDirStore(join(dir, 'empty'), { createIfMissing: false }));
    expect(e.message).to.contain('db or db-rocksdb');
  });

  it('refuses a data folder holding both store folders', async () => {
    await mkdir(join(dir, ENGINE_FOLDERS.leveldb));
    await mkdir(join(dir, ENGINE_FOLDERS.rocksdb));
    await writeFile(join(dir, 'genesis.json'), '{}');
    const e = await rejection(openDataDirStore(dir, { engine: 'leveldb' }));
    expect(e.message).to.contain('both');
  });
});
