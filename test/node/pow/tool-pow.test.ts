import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fromHex, toHex } from '../../../src/core/bytes.ts';
import { powScore } from '../../../src/core/pow/index.ts';

const BIN = fileURLToPath(new URL('../../../bin/ledger-node.js', import.meta.url));

function run(args: string[], input: string) {
  return spawnSync(process.execPath, [BIN, 'tool', 'pow', ...args], { input, encoding: 'utf8', timeout: 15000 });
}

describe('cli: ledger-node tool pow', function () {
  this.timeout(20000);
  it('prints the block with a nonce that reaches the score, then score, nonce, hashes and hash rate', () => {
    const body = new Uint8Array(92).map((_, i) => (i * 13) & 0xff);
    const input = toHex(body) + 'ffffffffffffffff'; // the given nonce is ignored
    const r = run(['--score', '200', '--workers', '1'], `0x${input}\n`);
    expect(r.status, r.stderr).to.equal(0);
    const lines = r.stdout.trim().split('\n');
    const mined = fromHex(lines[0]!);
    expect(toHex(mined.subarray(0, 92))).to.equal(toHex(body));
    expect(powScore(mined)).to.be.at.least(200);
    expect(lines[1]).to.match(
      new RegExp(`^score: ${powScore(mined)} \\(\\d+ trailing zeros, 10 needed for 200 at 100 bytes\\)$`),
    );
    expect(lines[2]).to.match(/^nonce: \d+$/);
    expect(lines[3]).to.match(/^hashes: \d+$/);
    expect(lines[4]).to.match(/^hash rate: [\d.]+ MH\/s \([\d.]+ MH\/s per worker, 1 worker, [\d.]+ s\)$/);
  });
  it('rejects a missing score and a short block', () => {
    expect(run([], '00').status).to.equal(2);
    const short = run(['--score', '1'], '0011');
    expect(short.status).to.equal(1);
    expect(short.stderr).to.match(/2 bytes, at least 8/);
  });
});
