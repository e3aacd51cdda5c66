/**
 * The ledger part of a genesis file (src/node/genesis/genesis-ledger.ts, dev-genesis.ts): a dev genesis with its
 * coordinator keys, dev wallet and funds, the errors of bad entries naming the key, readGenesisFile's checks, `tool
 * genesis` and the run flags of the coordinator.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { equalBytes } from '../../../src/core/bytes.ts';
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed } from '../../../src/core/crypto/index.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import { toolGenesis, parseGenesisArgs } from '../../../src/cli/tool-genesis.ts';
import { parseRunArgs } from '../../../src/node/config.ts';
import { genesisFromJson } from '../../../src/node/genesis/genesis.ts';
import { DEV_ONLY_NOTE } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf, devWalletOf, ledgerGenesisOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { readGenesisFile } from '../../../src/node/node.ts';
import { devGenesisJson } from '../ledger/support.ts';

let counter = 0;
/** Deterministic "random" bytes. */
const fixedRandom = (n: number): Uint8Array => new Uint8Array(n).fill(++counter % 251);

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  return expect.fail('should have thrown');
}

describe('node ledger: genesis file <-> LedgerGenesis', function () {
  this.timeout(30000);

  it('a dev genesis: 3 coordinator keys (threshold 2), all supply to the dev wallet and --funds, dev notes', () => {
    const seed = '0x' + '11'.repeat(32);
    const other = bech32EncodeAddress(
      'rms',
      ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(new Uint8Array(32).fill(7))),
    );
    const json = devGenesisJson({
      minPowScore: 5,
      networkName: 'my-dev',
      milestoneInterval: 2,
      funds: [seed, other],
      randomBytes: fixedRandom,
    });
    const g = genesisFromJson(JSON.parse(JSON.stringify(json)));
    const lg = ledgerGenesisOf(g);
    expect(g.protocol.networkName).to.equal('my-dev');
    expect(g.protocol.minPowScore).to.equal(5);
    expect(lg.unspentOutputs).to.have.length(3);
    expect(lg.unspentOutputs.reduce((s, o) => s + o.output.amount, 0n)).to.equal(g.protocol.tokenSupply);
    expect(lg.milestonePublicKeyCount).to.equal(2);
    expect(lg.milestoneKeyRanges).to.have.length(3);
    const c = coordinatorOf(g)!;
    expect(c.milestoneInterval).to.equal(2);
    expect(c.seeds).to.have.length(3);
    expect(json['coordinator'].note).to.equal(DEV_ONLY_NOTE);
    expect(json['devWallet'].note).to.equal(DEV_ONLY_NOTE);
    const wallet = devWalletOf(g)!;
    expect(wallet.address).to.equal(
      bech32EncodeAddress('rms', ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(wallet.seed))),
    );
    // The --funds seed's address owns the second output.
    const owner = (lg.unspentOutputs[1]!.output.unlockConditions[0] as { address: { pubKeyHash: Uint8Array } }).address
      .pubKeyHash;
    expect(
      equalBytes(
        owner,
        ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(new Uint8Array(32).fill(0x11))).pubKeyHash,
      ),
    ).to.equal(true);
    // Top-level keys operators' scripts rely on.
    expect(Object.keys(json)).to.include.members([
      'protocol',
      'milestone',
      'milestonePublicKeyCount',
      'milestoneKeyRanges',
      'solidEntryPoints',
      'outputs',
      'treasury' in json ? 'treasury' : 'outputs',
      'coordinator',
    ]);
    expect(Object.keys(json['outputs'][0])).to.deep.equal([
      'outputId',
      'blockId',
      'milestoneIndexBooked',
      'milestoneTimestampBooked',
      'output',
    ]);
  });

  it('bad entries fail with an error naming the key', () => {
    const base = devGenesisJson();
    const cases: [string, (j: any) => void, RegExp][] = [
      [
        'missing milestoneIndexBooked',
        (j) => delete j.outputs[0].milestoneIndexBooked,
        /outputs\[0\]\.milestoneIndexBooked: missing required key/,
      ],
      ['bad amount', (j) => (j.outputs[0].output.amount = 'lots'), /outputs\[0\]\.output: .*amount/],
      ['short output ID', (j) => (j.outputs[0].outputId = '0x1234'), /outputs\[0\]\.outputId/],
      [
        'duplicate output',
        (j) => j.outputs.push(j.outputs[0]),
        /outputs\[1\]\.outputId: output 0x[0-9a-f]+ is listed twice/,
      ],
      [
        'treasury output among outputs',
        (j) => (j.outputs[0].output = { type: 2, amount: '5' }),
        /outputs\[0\]\.output/,
      ],
      [
        'more than the supply',
        (j) => (j.treasury = { milestoneId: '0x' + '00'.repeat(32), amount: '5' }),
        /more than the token supply/,
      ],
      ['outputs not an array', (j) => (j.outputs = {}), /outputs/],
    ];
    for (const [what, mutate, re] of cases) {
      const j = JSON.parse(JSON.stringify(base));
      mutate(j);
      expect(errorOf(() => ledgerGenesisOf(genesisFromJson(j))).message, what).to.match(re);
    }
    const coordinatorCases: [string, (j: any) => void, RegExp][] = [
      [
        'foreign coordinator key',
        (j) => (j.coordinator.privateKeys[0] = '0x' + '42'.repeat(32)),
        /coordinator\.privateKeys\[0\]: its public key .* is not in milestoneKeyRanges/,
      ],
      [
        'too few keys',
        (j) => (j.coordinator.privateKeys = j.coordinator.privateKeys.slice(0, 1)),
        /cannot reach the threshold/,
      ],
      ['bad interval', (j) => (j.coordinator.milestoneInterval = -1), /coordinator\.milestoneInterval/],
    ];
    for (const [what, mutate, re] of coordinatorCases) {
      const j = JSON.parse(JSON.stringify(base));
      mutate(j);
      expect(errorOf(() => coordinatorOf(genesisFromJson(j))).message, what).to.match(re);
    }
    const j = JSON.parse(JSON.stringify(base));
    j.devWallet.seed = '0x12';
    expect(errorOf(() => devWalletOf(genesisFromJson(j))).message).to.match(/devWallet\.seed/);
  });

  it('readGenesisFile checks the ledger entries up front and names the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-genesis-'));
    try {
      const j = devGenesisJson();
      delete j['outputs'][0].output;
      const file = join(dir, 'g.json');
      writeFileSync(file, JSON.stringify(j));
      expect(errorOf(() => readGenesisFile(file)).message).to.match(
        /^Cannot read genesis file .*g\.json: invalid genesis JSON at outputs\[0\]\.output: missing required key/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('tool genesis writes a file run --genesis accepts; bad flags exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-genesis-'));
    const errors: string[] = [];
    const orig = console.error;
    console.error = (m: string) => errors.push(m);
    try {
      const file = join(dir, 'dev.json');
      expect(
        await toolGenesis([
          '--out',
          file,
          '--network-name',
          'tooled',
          '--min-pow-score',
          '7',
          '--milestone-interval',
          '0.5',
        ]),
      ).to.equal(0);
      const g = readGenesisFile(file);
      expect([g.protocol.networkName, g.protocol.minPowScore, coordinatorOf(g)!.milestoneInterval]).to.deep.equal([
        'tooled',
        7,
        0.5,
      ]);
      expect(JSON.parse(readFileSync(file, 'utf8')).devWallet.seed).to.match(/^0x[0-9a-f]{64}$/);
      expect(await toolGenesis(['--out', file])).to.equal(2); // exists
      expect(await toolGenesis(['--min-pow-score', 'x'])).to.equal(2);
      expect(await toolGenesis(['--bogus', '1'])).to.equal(2);
      expect(await toolGenesis(['--out', join(dir, 'x.json'), '--funds', 'not-an-address'])).to.equal(2);
      expect(errors.join('\n')).to.match(
        /--funds not-an-address: neither a bech32 address nor a 0x-prefixed 32-byte seed/,
      );
      expect(parseGenesisArgs(['--funds', 'a', 'b', '--out', 'f'])).to.deep.include({ out: 'f' });
      expect((parseGenesisArgs(['--funds', 'a', 'b']) as { options: { funds: string[] } }).options.funds).to.deep.equal(
        ['a', 'b'],
      );
    } finally {
      console.error = orig;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('run flags: --milestone-interval seconds and --coordinator true|false', () => {
    expect(parseRunArgs(['--milestone-interval', '0.5', '--coordinator', 'false'])).to.include({
      milestoneInterval: 0.5,
      coordinator: false,
    });
    expect(() => parseRunArgs(['--milestone-interval', '0'])).to.throw(/expected seconds in \(0, 3600\]/);
    expect(() => parseRunArgs(['--coordinator', 'maybe'])).to.throw(/expected true or false/);
  });
});
