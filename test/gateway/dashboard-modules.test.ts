/**
 * The explorer page's pure browser modules (gateway/dashboard/bech32.js, explorer-ids.js), loaded in Node as the
 * browser loads them (ES modules, no build step), checked against the node's own code: the bech32 encoder against
 * src/core/ids (BIP-173; addresses of type 0, 8 and 16 from their TIP-25 JSON), the checksum check, output IDs, the
 * search box's classification and the owner of each output type. And the page's module graph: every module an
 * explorer module imports is one the dashboard serves (gateway/dashboard.ts), so the page loads without a 404.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toHex0x } from '../../src/core/bytes.ts';
import { bech32Encode, bech32EncodeAddress, outputId } from '../../src/core/ids/index.ts';
import { addressToJson } from '../../src/core/json/address.ts';
import type { Address } from '../../src/core/model/index.ts';
import { EXPLORER_MODULES } from '../../gateway/dashboard.ts';

const folder = new URL('../../gateway/dashboard/', import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Module = any;
const load = (name: string): Promise<Module> => import(pathToFileURL(fileURLToPath(new URL(name, folder))).href);

/** A deterministic byte stream (xorshift), so a failure can be replayed. */
function bytes(seed: number, n: number): Uint8Array {
  let x = seed | 1;
  return Uint8Array.from({ length: n }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  });
}

describe('dashboard explorer modules in Node, against the node', () => {
  let b32: Module;
  let ids: Module;
  before(async () => {
    b32 = await load('bech32.js');
    ids = await load('explorer-ids.js');
  });

  it('bech32Encode equals the node bech32 encoding for any data and prefix', () => {
    for (const hrp of ['smr', 'rms', 'iota', 'atoi', 'tst', 'a', 'x1y']) {
      for (let n = 0; n <= 40; n += 3) {
        const data = bytes(n * 131 + hrp.length, n);
        expect(b32.bech32Encode(hrp, data), `${hrp} ${n}`).to.equal(bech32Encode(hrp, data));
      }
    }
  });

  it('addressToBech32 of TIP-25 address JSON equals bech32EncodeAddress (Ed25519, alias, NFT)', () => {
    for (let i = 0; i < 30; i++) {
      const body = bytes(i + 7, 32);
      const address = [
        { type: 0, pubKeyHash: body },
        { type: 8, aliasId: body },
        { type: 16, nftId: body },
      ][i % 3] as Address;
      for (const hrp of ['smr', 'rms', 'iota']) {
        const json = addressToJson(address);
        expect(b32.addressToBech32(hrp, json)).to.equal(bech32EncodeAddress(hrp, address));
      }
    }
    expect(b32.addressToBech32('smr', { type: 0, pubKeyHash: '0x1234' })).to.equal(undefined);
    expect(b32.addressToBech32('smr', { type: 4, pubKeyHash: toHex0x(bytes(1, 32)) })).to.equal(undefined);
  });

  it('bech32Prefix accepts valid text of one case and refuses a changed character or mixed case', () => {
    const text = bech32EncodeAddress('smr', { type: 0, pubKeyHash: bytes(3, 32) });
    expect(b32.bech32Prefix(text)).to.equal('smr');
    expect(b32.bech32Prefix(text.toUpperCase())).to.equal('smr');
    expect(b32.bech32Prefix(`S${text.slice(1)}`)).to.equal(undefined);
    for (let i = 4; i < text.length; i += 5) {
      const c = text[i] === 'q' ? 'p' : 'q';
      expect(b32.bech32Prefix(text.slice(0, i) + c + text.slice(i + 1)), `position ${i}`).to.equal(undefined);
    }
    for (const bad of ['', 'smr1', 'smr1qqqqq', '1qqqqqqqq', `smr1${'b'.repeat(10)}`, 42]) {
      expect(b32.bech32Prefix(bad), String(bad)).to.equal(undefined);
    }
  });

  it('outputIdOf is the transaction ID and the index as u16 little-endian', () => {
    const tx = bytes(9, 32);
    for (const index of [0, 1, 2, 15, 16, 127]) {
      expect(ids.outputIdOf(toHex0x(tx), index)).to.equal(toHex0x(outputId(tx, index)));
      expect(ids.inputOutputId({ type: 0, transactionId: toHex0x(tx), transactionOutputIndex: index })).to.equal(
        toHex0x(outputId(tx, index)),
      );
    }
  });

  it('classify: the shape of the search text, and why it is none', () => {
    const address = bech32EncodeAddress('smr', { type: 8, aliasId: bytes(5, 32) });
    const cases: [string, unknown][] = [
      ['12', 'index'],
      [' 0 ', 'index'],
      [`0x${'ab'.repeat(32)}`, 'id'],
      [`0x${'AB'.repeat(34)}`, 'output'],
      [address, 'address'],
      [address.toUpperCase(), 'address'],
    ];
    for (const [text, shape] of cases) expect(ids.classify(text, 'smr'), text).to.equal(shape);
    const errors: [string, RegExp][] = [
      ['', /type a milestone index/],
      ['4294967296', /at most 4294967295/],
      ['hello', /neither a milestone index/],
      ['0x12', /neither/],
      [bech32EncodeAddress('rms', { type: 0, pubKeyHash: bytes(5, 32) }), /another network \(rms1…\); this network's/],
      [`${address.slice(0, -1)}${address.endsWith('q') ? 'p' : 'q'}`, /checksum fails/],
    ];
    for (const [text, message] of errors) expect(ids.classify(text, 'smr').error, text).to.match(message);
  });

  it('addressesOf puts the owner first: address, state controller, immutable alias', () => {
    const a = (n: number) => ({ type: 0, pubKeyHash: toHex0x(bytes(n, 32)) });
    const basic = {
      type: 3,
      unlockConditions: [
        { type: 1, returnAddress: a(1), amount: '1' },
        { type: 0, address: a(2) },
      ],
    };
    expect(ids.addressesOf(basic)).to.deep.equal([
      { role: 'owner', address: a(2) },
      { role: 'storage deposit return', address: a(1) },
    ]);
    const alias = {
      type: 4,
      unlockConditions: [
        { type: 5, address: a(3) },
        { type: 4, address: a(4) },
      ],
    };
    expect(ids.addressesOf(alias).map((x: Module) => x.role)).to.deep.equal(['owner', 'governor']);
    expect(ids.addressesOf(alias)[0].address).to.deep.equal(a(4));
    const foundry = { type: 5, unlockConditions: [{ type: 6, address: { type: 8, aliasId: a(5).pubKeyHash } }] };
    expect(ids.addressesOf(foundry)).to.deep.equal([{ role: 'owner', address: { type: 8, aliasId: a(5).pubKeyHash } }]);
  });

  it('every module an explorer module imports is served', () => {
    const served = new Set(EXPLORER_MODULES);
    const page = readFileSync(new URL('explorer.html', folder), 'utf8');
    expect(page).to.contain('<script type="module" src="/dashboard/explorer.js"></script>');
    for (const name of EXPLORER_MODULES) {
      const text = readFileSync(new URL(name, folder), 'utf8');
      for (const m of text.matchAll(/^import [^'"]*from '\.\/([^']+)';$/gm)) {
        expect(served.has(m[1]!), `${name} imports ${m[1]}`).to.equal(true);
      }
      // the house rule for lines holds for the page's files too
      const long = text.split('\n').filter((l) => [...l].length > 120);
      expect(long, name).to.deep.equal([]);
    }
  });
});
