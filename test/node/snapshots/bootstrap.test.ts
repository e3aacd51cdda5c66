/**
 * Issue 15, the parts of the bootstrap from a peer that need no network: the flags, the snapshot layout as it is
 * read back (format.ts: strict layout, ascending unique outputs, the file and ledger state hashes) and the checks of
 * an offered milestone block (verify.ts). The exchange end to end is test/e2e/network/bootstrap.test.ts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { compareBytes, fromHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { BootstrapRefusal } from '../../../src/node/snapshots/verify.ts';
import { readSnapshotFile, SnapshotFormatError } from '../../../src/node/snapshots/format.ts';
import { verifyMilestoneBlock } from '../../../src/node/snapshots/verify.ts';
import { ConfigError, parseRunArgs } from '../../../src/node/config.ts';
import { genesisFromJson, genesisToJson, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';

/** A genesis in the layout snapshot/snapshot.ts writes: the head, then one output per line, ascending by ID. */
function layout(g: Genesis): string {
  const json = genesisToJson(g);
  const outputs = (json['outputs'] as { outputId: string }[])
    .slice()
    .sort((a, b) => compareBytes(fromHex0x(a.outputId), fromHex0x(b.outputId)));
  delete json['outputs'];
  const text = JSON.stringify(json, null, 2);
  const lines = outputs.map((o, i) => `${i === 0 ? '' : ','}\n    ${JSON.stringify(o)}`).join('');
  const head = text.slice(0, text.lastIndexOf('}')).trimEnd();
  return `${head},\n  "outputs": [${lines}${outputs.length > 0 ? '\n  ' : ''}]\n}\n`;
}

describe('bootstrap from a peer: flags, snapshot layout, milestone checks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bootstrap-'));
  const genesis = genesisFromJson(
    JSON.parse(JSON.stringify(genesisToJson(devNetworkGenesis({ minPowScore: 0, funds: ['0x' + '42'.repeat(32)] })))),
  );
  const good = layout(genesis);
  after(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  const refused = async (text: string): Promise<string> => {
    const e = await readSnapshotFile(file('bad.json', text)).catch((x: Error) => x);
    expect(e).to.be.instanceOf(SnapshotFormatError);
    return (e as Error).message;
  };

  it('--genesis-keys needs --peer and excludes --genesis', () => {
    expect(() => parseRunArgs(['--genesis-keys', 'g.json'])).to.throw(ConfigError, /--genesis-keys needs --peer/);
    expect(() =>
      parseRunArgs(['--genesis-keys', 'g.json', '--genesis', 'g.json', '--peer', '127.0.0.1:15600']),
    ).to.throw(ConfigError, /exclude each other/);
    expect(parseRunArgs(['--genesis-keys', 'g.json', '--peer', '127.0.0.1:15600']).genesisKeys).to.equal('g.json');
  });

  it('reads the layout back with the supply, the outputs and stable hashes', async () => {
    const r = await readSnapshotFile(file('good.json', good));
    expect(r.outputs).to.equal(2);
    expect(r.total).to.equal(genesis.protocol.tokenSupply);
    expect(r.head.protocol.networkName).to.equal(genesis.protocol.networkName);
    expect(r.bytes).to.equal(Buffer.byteLength(good));
    const again = await readSnapshotFile(file('good2.json', good));
    expect(again.ledgerHash).to.deep.equal(r.ledgerHash);
    expect(again.fileHash).to.deep.equal(r.fileHash);
    // the same ledger in another file (other whitespace in the head) has another file hash, the same ledger hash
    const other = await readSnapshotFile(file('good3.json', good.replace('"protocol": {', '"protocol":   {')));
    expect(other.ledgerHash).to.deep.equal(r.ledgerHash);
    expect(other.fileHash).to.not.deep.equal(r.fileHash);
  });

  it('refuses outputs out of order or twice, stray commas, a cut file, trailing data, no outputs line', async () => {
    const lines = good.split('\n');
    const at = lines.indexOf('  "outputs": [') + 1;
    const swapped = [...lines];
    [swapped[at], swapped[at + 1]] = [lines[at + 1]!.replace(/,?$/, ','), lines[at]!.replace(/,$/, '')];
    expect(await refused(swapped.join('\n'))).to.match(/out of order or listed twice/);
    const twice = [...lines];
    twice[at + 1] = lines[at]!.replace(/,?$/, '');
    expect(await refused(twice.join('\n'))).to.match(/listed twice/);
    const end = good.lastIndexOf('\n  ]\n}');
    expect(await refused(`${good.slice(0, end)},${good.slice(end)}`)).to.match(/a "," after the last output/);
    expect(await refused(good.slice(0, good.lastIndexOf('\n  ]')))).to.match(/ends inside "outputs"/);
    expect(await refused(good.slice(0, good.length - 8))).to.match(/output line 2 is not JSON/);
    expect(await refused(good.slice(0, good.length - 2))).to.match(/not followed by the closing/);
    expect(await refused(`${good}{}\n`)).to.match(/data after the closing/);
    expect(await refused(good.replace('  "outputs": [', '  "outputz": ['))).to.match(/ends before its "outputs" line/);
  });

  it('refuses an offered milestone block that is no milestone, of another index, or before the genesis', () => {
    const tagged = encodeBlock({
      protocolVersion: 2,
      parents: [new Uint8Array(32)],
      payload: { type: 5, tag: new Uint8Array(1), data: new Uint8Array(1) },
      nonce: 0n,
    });
    expect(() => verifyMilestoneBlock(tagged, 5, genesis)).to.throw(BootstrapRefusal, /milestone block is invalid/);
    expect(() => verifyMilestoneBlock(new Uint8Array(), 5, genesis)).to.throw(BootstrapRefusal, /no milestone block/);
    expect(() => verifyMilestoneBlock(new Uint8Array([1, 2, 3]), 5, genesis)).to.throw(BootstrapRefusal, /invalid/);
  });
});
