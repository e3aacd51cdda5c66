/**
 * Real wallets on this node. The Rust SDK's wallet (`@iota/sdk-wasm` 1.1.3, node target; the code Firefly runs)
 * syncs an account whose address the genesis funds, sends a transfer to a second account and waits until a milestone
 * includes it, and both accounts see their balances after the next sync. Everything the wallet needs goes through the
 * node's REST API as Hornet with inx-indexer serves it: `/info`, the indexer's `/outputs?unlockableByAddress=`, the
 * core `/outputs/{id}` reads, tips, block submission and inclusion. The figures are then checked on the node's own
 * routes: the spent genesis output, the transaction's included block and the milestone's UTXO changes. Then iota.js
 * (2.0.0-rc.4) does the same with its high-level functions: getBalance over its BIP44 addresses, send, addressBalance
 * and the indexer's basic outputs.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  addressBalance,
  Bech32Helper,
  COIN_TYPE_IOTA,
  Ed25519Address,
  Ed25519Seed,
  generateBip44Path,
  getBalance,
  IndexerPluginClient,
  send,
  SingleNodeClient,
} from '@iota/iota.js';
import { BIN, spawnNode, type SpawnedNode } from '../../../harness/process.ts';

// The package's node target is CommonJS with its wasm next to it; load it as such.
const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require('@iota/sdk-wasm/node') as typeof import('@iota/sdk-wasm/node');

// iota.js takes amounts as big-integer values; its own copy of the package makes them.
const bigInt = createRequire(require.resolve('@iota/iota.js'))('big-integer') as (v: string) => unknown;

/** A fixed development mnemonic (BIP39), so the wallet's addresses are the same in every run. */
const MNEMONIC =
  'giant dynamic museum toddler six deny defense ostrich bomb access mercy blood ' +
  'explain muscle shoot shallow glad autumn author calm heavy hawk abuse rally';
const HRP = 'rms';
const SENT = 1_000_000n;
const ED25519_ADDRESS_TYPE = 0;

/** The first address iota.js's high-level functions use for `seed` (BIP44, IOTA coin type, account 0). */
function iotaJsAddress(seed: Ed25519Seed): string {
  const keyPair = seed.generateSeedFromPath(generateBip44Path(0, 0, false, COIN_TYPE_IOTA)).keyPair();
  return Bech32Helper.toBech32(ED25519_ADDRESS_TYPE, new Ed25519Address(keyPair.publicKey).toAddress(), HRP);
}

interface GenesisFile {
  outputs: { outputId: string; output: { amount: string; unlockConditions: { address: { pubKeyHash: string } }[] } }[];
}

async function addressOf(mnemonic: string, accountIndex: number): Promise<string> {
  const sm = new sdk.SecretManager({ mnemonic });
  const [address] = await sm.generateEd25519Addresses({
    coinType: sdk.CoinType.Shimmer,
    accountIndex,
    range: { start: 0, end: 1 },
    bech32Hrp: HRP,
  });
  return address!;
}

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url);
  expect(res.status, `${url}: ${res.status}`).to.equal(200);
  return (await res.json()) as T;
}

describe('e2e: the Rust SDK wallet (@iota/sdk-wasm 1.1.3) syncs and sends through the node', function () {
  this.timeout(120_000);
  let dir: string;
  let node: SpawnedNode | undefined;
  let genesis: GenesisFile;
  let mnemonic: string;
  let alice: string;
  let bob: string;
  let iotaJsSeed: Ed25519Seed;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-wallet-'));
    mnemonic = MNEMONIC;
    alice = await addressOf(mnemonic, 0);
    bob = await addressOf(mnemonic, 1);
    iotaJsSeed = Ed25519Seed.fromMnemonic(sdk.Utils.generateMnemonic());
    const file = join(dir, 'genesis.json');
    const funds = ['--funds', alice, iotaJsAddress(iotaJsSeed)]; // genesis outputs 1 and 2 (0 is the dev wallet's)
    execFileSync(
      process.execPath,
      [BIN, 'tool', 'genesis', '--out', file, '--min-pow-score', '0', '--milestone-interval', '1', ...funds],
      { stdio: 'pipe' },
    );
    genesis = JSON.parse(readFileSync(file, 'utf8')) as GenesisFile;
    node = await spawnNode(join(dir, 'data'), ['--genesis', file]);
  });

  after(async () => {
    await node?.proc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('syncs the funded account, sends to a second account and both see the transfer', async () => {
    const funded = BigInt(genesis.outputs[1]!.output.amount); // outputs[0] is the dev wallet, [1] the --funds entry
    const wallet = new sdk.Wallet({
      storagePath: join(dir, 'wallet'),
      coinType: sdk.CoinType.Shimmer,
      clientOptions: { nodes: [node!.rest] },
      secretManager: { mnemonic },
    });
    try {
      const a = await wallet.createAccount({ alias: 'alice', bech32Hrp: HRP });
      const b = await wallet.createAccount({ alias: 'bob', bech32Hrp: HRP });
      expect((await a.addresses())[0]!.address).to.equal(alice);
      expect((await b.addresses())[0]!.address).to.equal(bob);

      const before = await a.sync();
      expect(BigInt(before.baseCoin.total)).to.equal(funded);
      expect(BigInt(before.baseCoin.available)).to.equal(funded);

      const tx = await a.send(SENT, bob);
      const blockId = await a.retryTransactionUntilIncluded(tx.transactionId, 1, 60);
      expect(blockId).to.match(/^0x[0-9a-f]{64}$/);

      const afterA = await a.sync();
      const afterB = await b.sync();
      expect(BigInt(afterB.baseCoin.total)).to.equal(SENT);
      expect(BigInt(afterA.baseCoin.total)).to.equal(funded - SENT);

      // The node's own view of what the wallet did.
      const included = await json<{
        payload: { essence: { inputs: { transactionId: string; transactionOutputIndex: number }[] } };
      }>(`${node!.rest}/api/core/v2/transactions/${tx.transactionId}/included-block`);
      const input = included.payload.essence.inputs[0]!;
      const spentId =
        input.transactionId +
        Buffer.from([input.transactionOutputIndex & 0xff, input.transactionOutputIndex >> 8]).toString('hex');
      expect(spentId).to.equal(genesis.outputs[1]!.outputId);
      const spent = await json<{ isSpent: boolean; transactionIdSpent: string; milestoneIndexSpent: number }>(
        `${node!.rest}/api/core/v2/outputs/${spentId}/metadata`,
      );
      expect(spent.isSpent).to.equal(true);
      expect(spent.transactionIdSpent).to.equal(tx.transactionId);
      const changes = await json<{ index: number; consumedOutputs: string[]; createdOutputs: string[] }>(
        `${node!.rest}/api/core/v2/milestones/by-index/${spent.milestoneIndexSpent}/utxo-changes`,
      );
      expect(changes.index).to.equal(spent.milestoneIndexSpent);
      expect(changes.consumedOutputs).to.include(spentId);
      const bobs = await json<{ items: string[] }>(`${node!.rest}/api/indexer/v1/outputs/basic?address=${bob}`);
      expect(bobs.items).to.have.length(1);
      expect(changes.createdOutputs).to.include(bobs.items[0]);
    } finally {
      await wallet.destroy();
    }
  });

  it("iota.js reads its seed's balance, sends, and reads the receiver's balance through the indexer", async () => {
    const client = new SingleNodeClient(node!.rest);
    const funded = BigInt(genesis.outputs[2]!.output.amount);
    expect(BigInt((await getBalance(client, iotaJsSeed, 0)).toString())).to.equal(funded);
    const carol = await addressOf(mnemonic, 2);
    const { blockId } = await send(client, iotaJsSeed, 0, carol, bigInt(SENT.toString()));
    const deadline = Date.now() + 30_000;
    let state: unknown;
    while (state === undefined && Date.now() < deadline) {
      state = (await client.blockMetadata(blockId))['ledgerInclusionState'];
      if (state === undefined) await new Promise((r) => setTimeout(r, 200));
    }
    expect(state).to.equal('included');
    expect((await addressBalance(client, carol)).balance.toString()).to.equal(SENT.toString());
    expect(BigInt((await getBalance(client, iotaJsSeed, 0)).toString())).to.equal(funded - SENT);
    const page = await new IndexerPluginClient(client).basicOutputs({
      addressBech32: carol,
      hasExpiration: false,
      hasTimelock: false,
      hasStorageDepositReturn: false,
    });
    expect(page.items).to.have.length(1);
  });

  it("the SDK's Client reads outputs, a milestone and its UTXO changes as the ledger has them", async () => {
    const client = new sdk.Client({ nodes: [node!.rest] });
    try {
      await readsAgree(client);
    } finally {
      await client.destroy();
    }
  });

  async function readsAgree(client: InstanceType<typeof sdk.Client>): Promise<void> {
    const funded = genesis.outputs[1]!;
    const ids = await client.basicOutputIds([{ address: alice }]);
    const all = await client.basicOutputIds([
      { address: alice },
      { hasExpiration: false },
      { hasTimelock: false },
      { hasStorageDepositReturn: false },
    ]);
    expect(all.items).to.deep.equal(ids.items);
    for (const id of ids.items) {
      const read = await client.getOutput(id);
      const ours = await json<{
        metadata: { isSpent: boolean; milestoneIndexBooked: number };
        output: { amount: string };
      }>(`${node!.rest}/api/core/v2/outputs/${id}`);
      expect(read.metadata.isSpent).to.equal(false);
      expect(read.metadata.milestoneIndexBooked).to.equal(ours.metadata.milestoneIndexBooked);
      expect(read.output.getAmount().toString()).to.equal(ours.output.amount);
    }
    // The genesis output of alice is spent by now (the first test) or still there: either way the node says which.
    const meta = await json<{ isSpent: boolean; milestoneIndexSpent?: number }>(
      `${node!.rest}/api/core/v2/outputs/${funded.outputId}/metadata`,
    );
    expect(ids.items.includes(funded.outputId)).to.equal(!meta.isSpent);
    const index =
      meta.milestoneIndexSpent ??
      (await json<{ status: { confirmedMilestone: { index: number } } }>(`${node!.rest}/api/core/v2/info`)).status
        .confirmedMilestone.index;
    const milestone = await client.getMilestoneByIndex(index);
    expect(milestone.index).to.equal(index);
    const ours = await json<{ index: number; timestamp: number; previousMilestoneId: string }>(
      `${node!.rest}/api/core/v2/milestones/by-index/${index}`,
    );
    expect([milestone.timestamp, milestone.previousMilestoneId]).to.deep.equal([
      ours.timestamp,
      ours.previousMilestoneId,
    ]);
    const changes = await client.getUtxoChangesByIndex(index);
    const ourChanges = await json<{ createdOutputs: string[]; consumedOutputs: string[] }>(
      `${node!.rest}/api/core/v2/milestones/by-index/${index}/utxo-changes`,
    );
    expect([changes.index, changes.createdOutputs, changes.consumedOutputs]).to.deep.equal([
      index,
      ourChanges.createdOutputs,
      ourChanges.consumedOutputs,
    ]);
    if (meta.isSpent) expect(changes.consumedOutputs).to.include(funded.outputId);
  }
});
