/**
 * `ledger-node run`'s abuse limits reach its in-process REST gateway: rate limit (429) and JSON depth (400), v2 and v3.
 */
import { expect } from 'chai';
import { parseRunArgs, ConfigError } from '../../src/node/config.ts';
import { startConfiguredNode, type ConfiguredNode } from '../../harness/node.ts';

describe('node: REST limits from the run flags', function () {
  this.timeout(30_000);
  let node: ConfiguredNode | undefined;
  afterEach(async () => {
    await node?.stop();
    node = undefined;
  });

  it('parses the flags and refuses a burst without a rate', () => {
    const c = parseRunArgs([
      '--rate-limit',
      '5',
      '--rate-burst',
      '7',
      '--rate-limit-loopback',
      'true',
      '--max-json-depth',
      '3',
    ]);
    expect(c).to.include({ rateLimit: 5, rateBurst: 7, rateLimitLoopback: true, maxJsonDepth: 3 });
    expect(() => parseRunArgs(['--rate-burst', '7'])).to.throw(ConfigError, /need --rate-limit/);
    expect(() => parseRunArgs(['--max-json-depth', '0'])).to.throw(ConfigError);
  });

  it('answers 429 beyond the rate and 400 for JSON deeper than the limit', async () => {
    node = await startConfiguredNode({
      powWorkers: 0,
      rateLimit: 1,
      rateBurst: 2,
      rateLimitLoopback: true,
      maxJsonDepth: 3,
    });
    const base = node.rest;
    const deep = JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x01', x: { y: { z: 1 } } } });
    for (const path of ['/api/core/v2/blocks', '/api/core/v3/blocks']) {
      const r = await fetch(base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: deep,
      });
      expect(r.status, path).to.equal(400);
      expect(((await r.json()) as { error: { message: string } }).error.message).to.match(/nested deeper than 3/);
    }
    const r = await fetch(`${base}/api/core/v2/info`);
    expect(r.status).to.equal(429);
    expect(r.headers.get('retry-after')).to.match(/^\d+$/);
  });
});
