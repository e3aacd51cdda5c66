/**
 * On each storage engine, an acknowledged write survives a crash: a child process stores blocks in sync batches and
 * prints each acknowledged block ID; it is killed with SIGKILL mid-stream, and the re-opened store must hold every
 * acknowledged block whole (bytes, metadata, children edge, tip) and no half-written batch.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromHex, toHex } from '../../src/core/bytes.ts';
import { NodeStore } from '../../src/core/store/node-store.ts';
import { TABLES } from '../../src/core/store/tables.ts';
import { DB_ENGINES, openKeyValueStore, type DbEngine } from '../../src/storage/open.ts';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const writer = join(here, 'fixtures', 'durable-writer.ts');

/** Runs the writer until `acks` batches are acknowledged, then SIGKILLs it; returns the acknowledged IDs. */
function writeAndKill(engine: DbEngine, dir: string, acks: number): Promise<string[]> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, engine, dir], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acked: string[] = [];
    let buffered = '';
    let stderr = '';
    let killed = false;
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout!.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!; // a partial line was not fully acknowledged: ignore it
      for (const line of lines) if (line.startsWith('ack ')) acked.push(line.slice(4));
      if (!killed && acked.length >= acks) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolvePromise(acked);
      else reject(new Error(`writer exited with code ${code} before being killed: ${stderr}`));
    });
  });
}

for (const engine of DB_ENGINES)
  describe(`${engine} durability`, function () {
    this.timeout(30000);
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'ledger-durable-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('keeps every acknowledged batch after SIGKILL, and no partial batch', async () => {
      const acked = await writeAndKill(engine, dir, 150);
      expect(acked.length).to.be.at.least(150);
      const store = await NodeStore.open(await openKeyValueStore(engine, dir), { networkName: 'durability' });
      try {
        for (const hex of acked) {
          const id = fromHex(hex);
          const bytes = await store.getBlock(id);
          expect(bytes, `block ${hex}`).to.not.equal(undefined);
          expect(bytes!.length).to.equal(2048);
          expect((await store.getBlockMetadata(id))?.solid).to.equal(true);
        }
        // Every stored block (acknowledged or in flight when killed) is whole: metadata and children edge present.
        const stored: Uint8Array[] = [];
        for await (const id of store.keys(TABLES.blocks)) stored.push(id);
        expect(stored.length).to.be.within(acked.length, acked.length + 1);
        for (const id of stored) {
          expect(await store.getBlockMetadata(id)).to.not.equal(undefined);
          const parent = id.slice();
          new DataView(parent.buffer).setUint32(0, new DataView(id.buffer).getUint32(0) - 1);
          expect((await store.children(parent)).map(toHex)).to.deep.equal([toHex(id)]);
        }
        // The tip moved with each batch: exactly one tip, the newest stored block.
        expect((await store.tips()).map(toHex)).to.deep.equal([toHex(stored[stored.length - 1]!)]);
      } finally {
        await store.close();
      }
    });
  });
