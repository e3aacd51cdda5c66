/**
 * The README's first command, `npm start` (scripts/start.sh), as an operator runs it: the node comes up on the given
 * data folder with the V8 heap cap and on jemalloc (found, or installed when root; CI runs as root on Debian), says so
 * in its start-up lines, serves REST, and stops on SIGTERM. With LEDGER_NODE_ALLOCATOR=glibc it runs on the C
 * library's malloc and says what jemalloc would bring.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

async function start(
  dataDir: string,
  env: Record<string, string>,
): Promise<{ out: string; rest: number; code: number | null }> {
  const child = spawn(
    'bash',
    ['scripts/start.sh', '--data-dir', dataDir, '--rest-port', '0', '--grpc-port', '0', '--peer-port', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  );
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const ready = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ready:\n${out}`)), 90_000);
    const onData = (d: Buffer): void => {
      out += d.toString();
      const port = /REST API listening on http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)?.[1];
      if (port && /memory allocator/.test(out)) {
        clearTimeout(timer);
        resolve(Number(port));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
  try {
    const rest = await ready;
    const info = await fetch(`http://127.0.0.1:${rest}/api/core/v2/info`);
    expect(info.status).to.equal(200);
    child.kill('SIGTERM');
    return { out, rest, code: await exited };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
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

  it("LEDGER_NODE_ALLOCATOR=glibc: the C library's malloc, and the start-up line says what jemalloc would bring", async () => {
    const r = await start(dir(), { LEDGER_NODE_ALLOCATOR: 'glibc' });
    expect(r.out).to.match(/memory allocator: the C library's malloc; jemalloc stores blocks faster/);
    expect(r.code).to.equal(0);
  });
});
