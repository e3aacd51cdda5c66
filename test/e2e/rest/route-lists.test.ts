/**
 * Issue 27: the public and protected route lists are settings of `run` and `gateway` (--public-route,
 * --protected-route, as Hornet's restAPI.publicRoutes / protectedRoutes). A node started with the indexer left out of
 * its public routes, and a standalone gateway over it with the same lists: the indexer answers 403 without a token or
 * with a wrong one and 200 with a valid one; the public routes stay open; a path in neither list stays 403, an unknown
 * path under a public pattern 404; a bad pattern is refused at start with exit code 2.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { signJwtHs256 } from '../../../src/grpc/jwt.ts';
import { BIN, spawnGateway, spawnNode, type Spawned } from '../../../harness/process.ts';

const SECRET = 'route-lists-e2e-secret-of-enough-length';
const LISTS = ['--public-route', '/health', '--public-route', '/api/core/v2/*', '--protected-route', '/api/indexer/*'];
const INDEXER = '/api/indexer/v1/outputs/basic';

describe('e2e: route lists as settings on run and on gateway', function () {
  this.timeout(60000);
  const dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-routes-'));
  const procs: Spawned[] = [];
  const bases: [string, string][] = [];

  before(async () => {
    const env = { LEDGER_GATEWAY_JWT_SECRET: SECRET };
    const node = await spawnNode(dir, ['--min-pow-score', '0', ...LISTS], { env });
    procs.push(node.proc);
    const gateway = await spawnGateway(node.grpcPort, LISTS, { env });
    procs.push(gateway.proc);
    bases.push(['run', node.rest], ['gateway', `http://127.0.0.1:${gateway.port}`]);
  });
  after(async () => {
    for (const p of procs.reverse()) await p.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = async (url: string, token?: string) => {
    const res = await fetch(url, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    return { status: res.status, body: (await res.json().catch(() => undefined)) as { error?: { message: string } } };
  };

  it('a route made protected answers 403 without a valid token and 200 with one', async () => {
    for (const [name, base] of bases) {
      const none = await get(`${base}${INDEXER}`);
      expect(none.status, name).to.equal(403);
      expect(none.body?.error?.message, name).to.match(/protected: missing or malformed bearer token/);
      expect((await get(`${base}${INDEXER}`, signJwtHs256({}, 'another-secret-of-enough-length'))).status).to.equal(
        403,
      );
      expect((await get(`${base}${INDEXER}`, signJwtHs256({}, SECRET))).status, name).to.equal(200);
    }
  });

  it('the public routes stay open; a path in neither list is 403, an unknown public path 404', async () => {
    for (const [name, base] of bases) {
      expect((await fetch(`${base}/health`)).status, name).to.equal(200);
      expect((await get(`${base}/api/core/v2/info`)).status, name).to.equal(200);
      // no longer public, in no list: hidden
      expect((await get(`${base}/api/routes`)).status, name).to.equal(403);
      expect((await get(`${base}/api/core/v2/nothing-here`)).status, name).to.equal(404);
    }
  });

  it('a pattern that is not a path is refused at start', async () => {
    for (const command of [
      ['run', '--data-dir', join(dir, 'refused')],
      ['gateway', '--node', '127.0.0.1:1'],
    ]) {
      const err = await promisify(execFile)(process.execPath, [BIN, ...command, '--public-route', 'api/*']).then(
        () => undefined,
        (e: { code: number; stderr: string }) => e,
      );
      expect(err?.code, command[0]).to.equal(2);
      expect(err?.stderr).to.match(/--public-route/);
    }
  });
});
