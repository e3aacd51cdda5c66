/**
 * `ledger-node run` as a process: starts, logs where it listens, stops cleanly on SIGTERM / SIGINT; bad flags exit 2.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tempDir } from './support.ts';

const BIN = fileURLToPath(new URL('../../bin/ledger-node.js', import.meta.url));

interface Run {
  code: number | null;
  out: string;
}

function run(args: string[], onOutput?: (out: string, kill: (s: NodeJS.Signals) => void) => void): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const kill = (s: NodeJS.Signals) => child.kill(s);
    const on = (d: Buffer) => {
      out += d.toString();
      onOutput?.(out, kill);
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    const timer = setTimeout(() => child.kill('SIGKILL'), 25000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe('ledger-node run (process)', function () {
  this.timeout(30000);
  const dir = tempDir('ledger-node-cli-', 'suite');

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`starts, logs both listeners, and exits 0 on ${signal}`, async () => {
      let sent = false;
      const r = await run(
        ['run', '--data-dir', dir.path, '--grpc-port', '0', '--peer-port', '0', '--rest-port=0', '--pow-workers', '0'],
        (out, kill) => {
          if (!sent && /REST API listening on/.test(out) && /remote PoW off/.test(out)) {
            sent = true;
            kill(signal);
          }
        },
      );
      expect(r.out).to.match(/gRPC NodeService listening on 127\.0\.0\.1:\d+/);
      expect(r.out).to.match(/REST API listening on http:\/\/127\.0\.0\.1:\d+\/api\/core\/v2\//);
      expect(r.out).to.contain(`${signal} received: stopping`);
      expect(r.out).to.contain('node stopped');
      expect(r.code).to.equal(0);
    });
  }

  it('exits 2 with a clear message for an unknown flag or a bad value', async () => {
    const a = await run(['run', '--nope']);
    expect(a.code).to.equal(2);
    expect(a.out).to.contain('unknown flag --nope');
    const b = await run(['run', '--grpc-port', 'abc']);
    expect(b.code).to.equal(2);
    expect(b.out).to.contain('flag --grpc-port: expected a port number 0..65535, got "abc"');
  });
});
