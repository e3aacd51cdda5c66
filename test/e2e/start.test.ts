/**
 * The README's first command, `npm start` (scripts/start.sh), as an operator runs it: the node comes up on the given
 * data folder with the V8 heap cap and on jemalloc (found, or installed when root; CI runs as root on Debian), says so
 * in its start-up lines, serves REST, and stops on SIGTERM. With LEDGER_NODE_ALLOCATOR=glibc it runs on the C
 * library's malloc and says what jemalloc would bring.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode } from '../../harness/process.ts';

/** `npm start` on `dataDir` until its REST API answers /info, then SIGTERM; its output and exit code. */
async function start(dataDir: string, env: Record<string, string>): Promise<{ out: string; code: number | null }> {
  const node = await spawnNode(dataDir, [], {
    startScript: true,
    env,
    timeoutMs: 90_000,
    ready: [/(memory allocator)/],
  });
  try {
    const info = await fetch(`${node.rest}/api/core/v2/info`);
    expect(info.status).to.equal(200);
    const code = await node.proc.stop(60_000);
    return { out: node.proc.output(), code };
  } finally {
    await node.proc.stop(0);
  }
}

describe('npm start (scripts/start.sh)', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  const dir = (): string => {
    const d = mkdtempSync(join(tmpdir(), 'ledger-start-'));
    dirs.push(d);
    return d;
  };
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('runs the node on jemalloc and stops cleanly on SIGTERM', async function () {
    const r = await start(dir(), {});
    if (!/memory allocator: jemalloc/.test(r.out)) {
      // Without root or a Debian registry there is no jemalloc to be had: the script says why and runs on glibc.
      if (process.env.CI) expect.fail(`no jemalloc on CI:\n${r.out}`);
      expect(r.out).to.match(/ensure-jemalloc: .*\n[\s\S]*C library's malloc/);
      this.skip();
    }
    expect(r.code).to.equal(0);
  });

  it("LEDGER_NODE_ALLOCATOR=glibc: glibc's malloc, and the start-up line says what jemalloc would bring", async () => {
    const r = await start(dir(), { LEDGER_NODE_ALLOCATOR: 'glibc' });
    expect(r.out).to.match(/memory allocator: the C library's malloc; jemalloc stores blocks faster/);
    expect(r.code).to.equal(0);
  });
});
