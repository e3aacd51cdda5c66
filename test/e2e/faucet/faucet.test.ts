/**
 * The dev network's faucet end to end: `ledger-node run` on a new dev network (`--min-pow-score 0
 * --milestone-interval 1`), the Rust SDK's `Client.requestFundsFromFaucet(url, address)` (`@iota/sdk-wasm` 1.1.3,
 * unchanged) funds a fresh address through `POST /api/faucet/v1/enqueue`; after a milestone confirms the payout, the
 * indexer lists the new output and the core output route shows its amount. A second request for the address while
 * the first waits gets inx-faucet's refusal; bad addresses get 400.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNode, type SpawnedNode } from '../../../harness/process.ts';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require('@iota/sdk-wasm/node') as typeof import('@iota/sdk-wasm/node');

/** inx-faucet's default amount, this node's default too. */
const AMOUNT = '1000000000';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** A new address of the dev network (`rms`), or of another network. */
async function freshAddress(bech32Hrp = 'rms'): Promise<string> {
  const sm = new sdk.SecretManager({ mnemonic: sdk.Utils.generateMnemonic() });
  const [address] = await sm.generateEd25519Addresses({
    coinType: sdk.CoinType.Shimmer,
    accountIndex: 0,
    range: { start: 0, end: 1 },
    bech32Hrp,
  });
  return address!;
}

async function getJson(url: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

describe('e2e: the faucet funds an address through the SDK (@iota/sdk-wasm 1.1.3 requestFundsFromFaucet)', function () {
  this.timeout(120_000);
  let dir: string;
  let node: SpawnedNode | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-faucet-'));
    node = await spawnNode(join(dir, 'data'), [
      '--min-pow-score',
      '0',
      '--milestone-interval',
      '1',
      '--pow-workers',
      '1',
    ]);
  });

  after(async () => {
    await node?.proc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('GET /api/faucet/v1/info: the dev wallet of the genesis, its balance, the token and the prefix', async () => {
    const genesis = JSON.parse(readFileSync(join(dir, 'data', 'genesis.json'), 'utf8')) as Json;
    const { status, body } = await getJson(`${node!.rest}/api/faucet/v1/info`);
    expect(status).to.equal(200);
    expect(body).to.deep.include({
      isHealthy: true,
      address: genesis.devWallet.address,
      tokenName: genesis.baseToken.name,
      bech32Hrp: 'rms',
    });
    expect(body.balance).to.be.a('number').and.be.greaterThan(Number(AMOUNT));
  });

  it('funds a new address, refuses a second request meanwhile; once confirmed, indexer and output agree', async () => {
    const client = new sdk.Client({ nodes: [node!.rest] });
    const address = await freshAddress();
    const url = `${node!.rest}/api/faucet/v1/enqueue`;
    const first = JSON.parse(await client.requestFundsFromFaucet(url, address)) as Json;
    expect(first).to.deep.equal({ address, waitingRequests: 1 });
    const second = JSON.parse(await client.requestFundsFromFaucet(url, address)) as Json;
    expect(second).to.deep.equal({
      error: { code: 400, message: 'invalid data provided: Address is already in the queue.' },
    });

    const deadline = Date.now() + 60_000;
    let items: string[] = [];
    while (items.length === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      const { status, body } = await getJson(`${node!.rest}/api/indexer/v1/outputs/basic?address=${address}`);
      expect(status).to.equal(200);
      items = body.items;
    }
    expect(items).to.have.length(1);
    const { status, body } = await getJson(`${node!.rest}/api/core/v2/outputs/${items[0]}`);
    expect(status).to.equal(200);
    expect(body.output).to.deep.include({ type: 3, amount: AMOUNT });
    expect(body.output.unlockConditions).to.have.length(1);
    expect(body.metadata).to.deep.include({ isSpent: false });

    // Paid: the address may ask again (it now holds the amount, so it gets inx-faucet's small amount).
    expect(JSON.parse(await client.requestFundsFromFaucet(url, address))).to.deep.include({ address });
  });

  it('bad addresses: 400 with the reason', async () => {
    const post = (body: string) =>
      fetch(`${node!.rest}/api/faucet/v1/enqueue`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const cases: [string, RegExp][] = [
      [JSON.stringify({ address: 'rms1notanaddress' }), /^invalid data provided: Invalid bech32 address provided!$/],
      [
        JSON.stringify({ address: await freshAddress('smr') }),
        /^invalid data provided: Invalid bech32 address provided! Address does not start with "rms"\.$/,
      ],
      ['{"address":', /^invalid data provided: Invalid Request! Error: malformed JSON body/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      const json = (await res.json()) as Json;
      expect([res.status, json.error.code], body).to.deep.equal([400, 400]);
      expect(json.error.message).to.match(message);
    }
  });
});
