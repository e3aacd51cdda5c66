/** `--peer HOST:PORT` (repeatable) and the `peers` list of the config file. */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, parseRunArgs } from '../../../src/node/config.ts';

describe('peering: --peer configuration', () => {
  it('collects repeated --peer flags in order', () => {
    const c = parseRunArgs(['--peer', '127.0.0.1:15001', '--peer=node-b.local:15002', '--peer', '[::1]:15003']);
    expect(c.peers).to.deep.equal(['127.0.0.1:15001', 'node-b.local:15002', '[::1]:15003']);
    expect(parseRunArgs([]).peers).to.equal(undefined);
    const key = `0x${'ab'.repeat(32)}`;
    expect(parseRunArgs(['--peer', `${key}@10.0.0.1:15600`]).peers).to.deep.equal([`${key}@10.0.0.1:15600`]);
  });
  it('refuses addresses without a valid port', () => {
    for (const bad of [
      '127.0.0.1',
      '127.0.0.1:0',
      'host:70000',
      ':15000',
      'a b:1',
      'http://x:1',
      `0x${'ab'.repeat(31)}@h:1`,
      `${'ab'.repeat(32)}@h:1`,
    ]) {
      expect(() => parseRunArgs(['--peer', bad]), bad).to.throw(ConfigError, /expected HOST:PORT/);
    }
  });
  it('reads a peers list from the config file; flags add to it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'peer-config-'));
    try {
      const file = join(dir, 'config.json');
      writeFileSync(file, JSON.stringify({ peers: ['127.0.0.1:1', '127.0.0.1:2'] }));
      expect(parseRunArgs(['--config', file, '--peer', '127.0.0.1:3']).peers).to.deep.equal([
        '127.0.0.1:1',
        '127.0.0.1:2',
        '127.0.0.1:3',
      ]);
      writeFileSync(file, JSON.stringify({ peers: ['nope'] }));
      expect(() => parseRunArgs(['--config', file])).to.throw(ConfigError, /peers\[0\]: expected HOST:PORT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
