/** `ledger-node tool block` driven as a user runs it: the real command, lines on standard input, JSON lines out. */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadVectors } from '../../harness/vectors.ts';

const bin = fileURLToPath(new URL('../../bin/ledger-node.js', import.meta.url));

function runTool(input: string, args: string[] = []): { status: number | null; lines: any[]; stderr: string } {
  const r = spawnSync(process.execPath, [bin, 'tool', 'block', ...args], { input, encoding: 'utf8', timeout: 60_000 });
  const lines = r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l));
  return { status: r.status, lines, stderr: r.stderr };
}

describe('cli: ledger-node tool block', function () {
  this.timeout(120_000);
  const blocks = loadVectors('stardust/blocks.json');
  // Every positive vector decodes (some are not valid on a network, e.g. protocol version 1: that is for --network).
  const valid = blocks.vectors;

  it('answers every real block given as hex with its ID, transaction ID, JSON, hex and PoW score', () => {
    const { status, lines } = runTool(valid.map((v: any) => '0x' + v.bytes).join('\n') + '\n');
    expect(status).to.equal(0);
    expect(lines).to.have.length(valid.length);
    valid.forEach((v: any, i: number) => {
      const out = lines[i];
      expect(out.error, v.name).to.equal(undefined);
      expect(out.blockId, v.name).to.equal(v.derived.blockId);
      expect(out.hex).to.equal('0x' + v.bytes);
      expect(out.powScore).to.be.closeTo(v.derived.powScore, 1e-9);
      if (v.derived.transactionId) expect(out.transactionId).to.equal(v.derived.transactionId);
      else expect(out).not.to.have.property('transactionId');
      if (v.derived.jsonDecodedLocally) expect(out.json).to.deep.equal(v.derived.jsonDecodedLocally);
    });
  });

  it('accepts TIP-25 JSON lines and gives the same answer as for the bytes', () => {
    const v = blocks.vectors.find((x: any) => x.name === 'shimmer-mainnet-ms2418187-wf44');
    const { lines } = runTool(JSON.stringify(v.derived.jsonDecodedLocally) + '\n\n' + '0x' + v.bytes + '\n');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.deep.equal(lines[1]);
    expect(lines[0].blockId).to.equal(v.derived.blockId);
  });

  it('turns every bad line into an error line with a stable code, and goes on', () => {
    const neg = blocks.negativeVectors.map((v: any) => '0x' + v.bytes);
    const input = [
      '0xzz',
      '{"protocolVersion":2,',
      '{"protocolVersion":2,"parents":[],"nonce":"0"}',
      ...neg,
      '0x' + blocks.vectors[0].bytes,
    ].join('\n');
    const { status, lines } = runTool(input + '\n');
    expect(status).to.equal(0);
    expect(lines).to.have.length(4 + neg.length);
    expect(lines[0].error.code).to.equal('INVALID_HEX');
    expect(lines[1].error.code).to.equal('INVALID_JSON');
    expect(lines[2].error.code).to.equal('COUNT_OUT_OF_RANGE');
    for (let i = 0; i < neg.length; i++) {
      expect(lines[3 + i].error.code).to.be.a('string');
      expect(lines[3 + i].error.message).to.match(/^Cannot decode block/);
    }
    expect(lines[3 + neg.length].blockId).to.equal(blocks.vectors[0].derived.blockId);
  });

  it('checks the network rules with --network shimmer', () => {
    const shimmerTx = blocks.vectors.find((x: any) => x.derived.transactionId && x.name.startsWith('shimmer'));
    const iotajsTx = blocks.vectors.find((x: any) => x.name === 'iotajs-transaction-block');
    const { lines } = runTool(`0x${shimmerTx.bytes}\n0x${iotajsTx.bytes}\n`, ['--network', 'shimmer']);
    expect(lines[0].error).to.equal(undefined);
    // The iota.js fixture is serialization-only test data with protocol version 1 (its notes say so).
    expect(lines[1].error.code).to.equal('PROTOCOL_VERSION_MISMATCH');
  });

  it('refuses unknown options with exit status 2', () => {
    expect(runTool('', ['--frobnicate']).status).to.equal(2);
    expect(runTool('', ['--network', 'nowhere']).status).to.equal(2);
  });
});
