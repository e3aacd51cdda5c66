import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '../../src/core/store/errors.ts';
import { LevelKeyValueStore } from '../../src/storage/level.ts';
import { storeContract } from '../core/store/contract.ts';

storeContract('LevelDB (classic-level)', () => {
  let dir: string | undefined;
  return {
    persistent: true,
    async open() {
      dir ??= await mkdtemp(join(tmpdir(), 'ledger-store-'));
      return LevelKeyValueStore.open(dir);
    },
    async cleanup() {
      if (dir) await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('LevelKeyValueStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ledger-store-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('fails with STORE_LOCKED while another open store holds the folder, and opens once it is closed', async () => {
    const first = await LevelKeyValueStore.open(dir);
    const e = await LevelKeyValueStore.open(dir).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).to.be.instanceOf(StoreError);
    expect((e as StoreError).code).to.equal('STORE_LOCKED');
    expect((e as StoreError).message).to.contain(dir).and.contain('locked');
    await first.close();
    const again = await LevelKeyValueStore.open(dir);
    await again.close();
  });

  it('fails with STORE_LOCKED while another process holds the folder', async () => {
    const holder = spawn(process.execPath, ['-e', `
      const { ClassicLevel } = require('classic-level');
      const db = new ClassicLevel(process.argv[1]);
      db.open().then(() => { process.stdout.write('open\\n'); setInterval(() => {}, 1000); });
    `, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout!.on('data', (d: Buffer) => d.toString().includes('open') && resolve());
        holder.on('exit', (code) => reject(new Error(`holder exited with ${code}`)));
      });
      const e = await LevelKeyValueStore.open(dir).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect((e as StoreError).code).to.equal('STORE_LOCKED');
    } finally {
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
    }
  });

  it('fails with STORE_OPEN_FAILED for a missing folder when creation is off', async () => {
    const e = await LevelKeyValueStore.open(join(dir, 'missing'), { createIfMissing: false }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((e as StoreError).code).to.equal('STORE_OPEN_FAILED');
    expect((e as StoreError).message).to.contain('missing');
  });
});
