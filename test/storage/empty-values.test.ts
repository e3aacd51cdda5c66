/**
 * The RocksDB binding copies each key and value it is given into a `new char[size]` and frees the copy only when it is
 * not empty: an empty value written as an empty Buffer leaked one small allocation, about 0.15 KB of RSS per block of
 * the node (children, tips and index entries have empty values). The adapter hands empty values over as `undefined`,
 * which the binding copies nowhere (src/storage/rocksdb.ts). Two million empty-value writes in a child process of their
 * own: RSS stays within a few MB after the first fifth (before the fix it grew by about 65 MB).
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./fixtures/empty-values.ts', import.meta.url));

describe('RocksDB adapter: empty values cost no native memory', function () {
  this.timeout(120_000);

  it('two million empty-value writes leave RSS flat, and the values read back empty', async function () {
    if (process.platform !== 'linux') this.skip();
    const dir = await mkdtemp(join(tmpdir(), 'rocks-empty-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', CHILD, join(dir, 'db'), '2000000'], {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, LD_PRELOAD: '' },
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code, out).to.equal(0);
      const r = JSON.parse(out.trim().split('\n').pop()!) as { warm: number; end: number; readBack: number | string };
      expect(r.readBack).to.equal(0);
      const grewMb = (r.end - r.warm) / 2 ** 20;
      expect(grewMb, `RSS grew ${grewMb.toFixed(1)} MB over 1.6 million empty-value writes`).to.be.below(20);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
