/**
 * The dev network's faucet on a node over a memory store (support.ts), with the built-in coordinator issuing
 * milestones on demand: one waiting request per address, requests batched into one transaction (change back to the
 * faucet), the next transaction only after the previous one is decided, a conflicting transaction's requests paid
 * again, the small amount and the refusals of inx-faucet, the storage deposit rule of a payout plan; and the REST
 * routes in front.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed } from '../../../src/core/crypto/index.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import type { BasicOutput, Block } from '../../../src/core/model/index.ts';
import type { FaucetSettings } from '../../../src/node/faucet/faucet.ts';
import { FAUCET_TAG, planPayouts } from '../../../src/node/faucet/transaction.ts';
import { ZERO_BLOCK_ID, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { devWalletOf, ledgerGenesisOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { inProcess, startTestGateway, type TestGateway } from '../../gateway/harness.ts';
import type { TestNode } from '../../../harness/node.ts';
import { addressOf, basicOutput, spend } from '../support.ts';
import { amountsOf, faucetNode, faucetOn, freshAddress, refusal, transactionOf } from './support.ts';

const RICH_SEED = new Uint8Array(32).fill(0x42);
const AMOUNT = 1_000_000n;
const SMALL = 100_000n;
const SETTINGS: Partial<FaucetSettings> = {
  amount: AMOUNT,
  smallAmount: SMALL,
  maxAddressBalance: 2_000_000n,
  batchTimeoutMs: 60_000,
};

/** A node with its genesis. */
type Node = TestNode & { genesis: Genesis };

/** `faucet`: its settings, or null for a node without one. */
async function composed(faucet: Partial<FaucetSettings> | null = SETTINGS): Promise<Node> {
  const genesis = devNetworkGenesis({
    minPowScore: 0,
    timestamp: Math.floor(Date.now() / 1000) - 10,
    funds: [toHex0x(RICH_SEED)],
  });
  return Object.assign(await faucetNode(genesis, faucet), { genesis });
}

describe('faucet: a composed dev-network node pays enqueued addresses from the dev wallet', function () {
  this.timeout(30000);
  let node: Node | undefined;

  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  it('info: the dev wallet address, its balance, the token name and the prefix', async () => {
    node = await composed();
    const wallet = devWalletOf(node.genesis)!;
    const funded = ledgerGenesisOf(node.genesis).unspentOutputs[0]!.output.amount;
    const info = await node.testing.faucet!.info();
    expect(info).to.deep.equal({
      isHealthy: true,
      address: wallet.address,
      balance: funded,
      tokenName: node.genesis.baseToken.name,
      bech32Hrp: 'rms',
    });
  });

  it('batches waiting requests into one transaction, one per address, the next after confirmation', async () => {
    node = await composed();
    const { service, coordinator } = node.testing;
    const faucet = node.testing.faucet!;
    const before = (await faucet.info()).balance;
    const [a, b, c, d] = [freshAddress(), freshAddress(), freshAddress(), freshAddress()];
    expect(await faucet.enqueue(a)).to.deep.equal({ address: a, waitingRequests: 1 });
    expect(await faucet.enqueue(b)).to.deep.equal({ address: b, waitingRequests: 2 });
    expect((await refusal(faucet.enqueue(a))).message).to.equal('Address is already in the queue.');
    expect((await refusal(faucet.enqueue(a.toUpperCase()))).message).to.equal('Address is already in the queue.');
    expect(await faucet.enqueue(c)).to.deep.equal({ address: c, waitingRequests: 3 });
    expect((await faucet.info()).balance).to.equal(before - 3n * AMOUNT);

    await faucet.flush();
    const first = faucet.state.pending!;
    expect(faucet.state).to.deep.include({ waiting: 3, queued: 0 });
    const tx = await transactionOf(service, first.blockId);
    const wallet = ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(devWalletOf(node.genesis)!.seed));
    const outputs = tx.essence.outputs as BasicOutput[];
    expect(outputs.map((o) => o.amount)).to.deep.equal([AMOUNT, AMOUNT, AMOUNT, before - 3n * AMOUNT]);
    expect(outputs[3]!.unlockConditions).to.deep.equal([{ type: 0, address: wallet }]);
    expect(new TextDecoder().decode(tx.essence.payload!.tag)).to.equal(FAUCET_TAG);

    // While the transaction waits: its addresses still wait, a new request queues but no second transaction goes out.
    expect((await refusal(faucet.enqueue(b))).message).to.equal('Address is already in the queue.');
    expect(await faucet.enqueue(d)).to.deep.equal({ address: d, waitingRequests: 4 });
    await faucet.flush();
    expect(toHex0x(faucet.state.pending!.blockId)).to.equal(toHex0x(first.blockId));
    expect(faucet.state).to.deep.include({ waiting: 4, queued: 1 });

    await coordinator!.issue();
    await faucet.idle();
    expect(faucet.state).to.deep.equal({ waiting: 1, queued: 1 });
    for (const addr of [a, b, c]) expect(await amountsOf(service, addr)).to.deep.equal([AMOUNT]);
    expect(await amountsOf(service, d)).to.deep.equal([]);

    // Paid once: the address may ask again and, holding the amount already, gets the small amount.
    expect(await faucet.enqueue(a)).to.deep.equal({ address: a, waitingRequests: 2 });
    await faucet.flush();
    const second = await transactionOf(service, faucet.state.pending!.blockId);
    expect(second.essence.inputs.map((i) => toHex0x(i.transactionId))).to.deep.equal([toHex0x(first.transactionId)]);
    await coordinator!.issue();
    await faucet.idle();
    expect(await amountsOf(service, d)).to.deep.equal([AMOUNT]);
    expect((await amountsOf(service, a)).sort()).to.deep.equal([SMALL, AMOUNT].sort());
    expect(faucet.state).to.deep.equal({ waiting: 0, queued: 0 });
    expect((await faucet.info()).balance).to.equal(before - 4n * AMOUNT - SMALL);
  });

  it("refuses with inx-faucet's messages: bad bech32, other network, enough funds, more than it holds", async () => {
    node = await composed();
    const faucet = node.testing.faucet!;
    for (const bad of ['', 'rms1notbech32', 'hello']) {
      const e = await refusal(faucet.enqueue(bad));
      expect([e.code, e.message]).to.deep.equal(['INVALID_REQUEST', 'Invalid bech32 address provided!']);
    }
    const other = bech32EncodeAddress('smr', { type: 0, pubKeyHash: new Uint8Array(32).fill(1) });
    expect((await refusal(faucet.enqueue(other))).message).to.equal(
      'Invalid bech32 address provided! Address does not start with "rms".',
    );
    const rich = bech32EncodeAddress('rms', ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(RICH_SEED)));
    expect((await refusal(faucet.enqueue(rich))).message).to.equal('You already have enough funds on your address.');
    expect(faucet.state).to.deep.equal({ waiting: 0, queued: 0 });
    await node.close();

    node = await composed({ ...SETTINGS, amount: node.genesis.protocol.tokenSupply });
    const e = await refusal(node.testing.faucet!.enqueue(freshAddress()));
    expect([e.code, e.message, e.retryAfterSeconds]).to.deep.equal([
      'UNAVAILABLE',
      'Faucet does not have enough funds to process your request. Please try again later!',
      60,
    ]);
  });

  it('a transaction whose input another transaction spent first: its requests are paid by the next one', async () => {
    node = await composed(null);
    const { genesis } = node;
    const { service, coordinator } = node.testing;
    const seed = devWalletOf(genesis)!.seed;
    const genesisOutput = ledgerGenesisOf(genesis).unspentOutputs[0]!;
    const spent = { outputId: genesisOutput.outputId, output: genesisOutput.output as BasicOutput };
    // The dev wallet moves its genesis output itself, confirmed before the faucet's transaction is even stored.
    const move: Block = {
      protocolVersion: 2,
      parents: [ZERO_BLOCK_ID],
      nonce: 1n,
      payload: spend(genesis, seed, spent, [basicOutput(spent.output.amount, addressOf(seed))]),
    };
    let moved = false;
    const faucet = faucetOn(
      node,
      genesis,
      {
        synced: () => true,
        logger: node.logger,
        beforeSubmit: async () => {
          if (moved) return;
          moved = true;
          await service.submitBlock({ block: { $case: 'raw', value: encodeBlock(move) } });
          await coordinator!.issue();
        },
      },
      SETTINGS,
    );
    try {
      await faucet.start();
      const [a, b] = [freshAddress(), freshAddress()];
      await faucet.enqueue(a);
      await faucet.enqueue(b);
      await faucet.flush();
      const conflicting = faucet.state.pending!;
      await coordinator!.issue();
      await faucet.idle();
      const md = await service.getBlockMetadata({ blockId: conflicting.blockId });
      expect(md.conflictReason).to.be.greaterThan(0);
      expect(faucet.state).to.deep.equal({ waiting: 2, queued: 2 });
      expect(node.logger.lines.some((l) => l.includes('was not included; its 2 request(s) are queued again'))).to.equal(
        true,
      );

      await faucet.flush();
      await coordinator!.issue();
      await faucet.idle();
      expect(await amountsOf(service, a)).to.deep.equal([AMOUNT]);
      expect(await amountsOf(service, b)).to.deep.equal([AMOUNT]);
      expect(faucet.state).to.deep.equal({ waiting: 0, queued: 0 });
    } finally {
      await faucet.stop();
    }
  });

  it('a payout plan keeps the change at zero or at least the storage deposit, and at most 127 payouts', () => {
    const r = (amount: bigint, id: number) => ({ amount, id });
    const plan = planPayouts([r(100n, 1), r(60n, 2), r(30n, 3), r(500n, 4)], 200n, 50n);
    expect([
      plan.paid.map((p) => p.id),
      plan.later.map((p) => p.id),
      plan.unpayable.map((p) => p.id),
      plan.change,
    ]).to.deep.equal([[1, 3], [2], [4], 70n]);
    expect(planPayouts([r(150n, 1), r(50n, 2)], 200n, 50n)).to.deep.include({ change: 0n });
    const many = planPayouts(
      Array.from({ length: 130 }, (_, i) => r(1n, i)),
      1000n,
      1n,
    );
    expect([many.paid.length, many.later.length]).to.deep.equal([127, 3]);
  });
});

describe('faucet over REST: /api/faucet/v1 (in-process transport)', function () {
  this.timeout(30000);
  let node: Node;
  let off: Node;
  let gw: TestGateway;
  let offGw: TestGateway;
  const gateway = (n: Node) => startTestGateway(inProcess(n.service));

  before(async () => {
    node = await composed();
    off = await composed(null);
    gw = await gateway(node);
    offGw = await gateway(off);
  });
  after(async () => {
    await gw?.close();
    await offGw?.close();
    await node?.close();
    await off?.close();
  });

  const post = (url: string, body: string, type = 'application/json') =>
    fetch(`${url}/api/faucet/v1/enqueue`, { method: 'POST', headers: { 'content-type': type }, body });

  it("GET info and POST enqueue answer inx-faucet's shapes; /api/routes lists faucet/v1", async () => {
    const info = await fetch(`${gw.url}/api/faucet/v1/info`);
    expect(info.status).to.equal(200);
    const body = (await info.json()) as Record<string, unknown>;
    expect(Object.keys(body)).to.deep.equal(['isHealthy', 'address', 'balance', 'tokenName', 'bech32Hrp']);
    expect(body).to.deep.include({ isHealthy: true, address: devWalletOf(node.genesis)!.address, bech32Hrp: 'rms' });
    const address = freshAddress();
    const res = await post(gw.url, JSON.stringify({ address }));
    expect([res.status, await res.json()]).to.deep.equal([202, { address, waitingRequests: 1 }]);
    const again = await post(gw.url, JSON.stringify({ address }));
    expect([again.status, await again.json()]).to.deep.equal([
      400,
      { error: { code: 400, message: 'invalid data provided: Address is already in the queue.' } },
    ]);
    expect(((await (await fetch(`${gw.url}/api/routes`)).json()) as { routes: string[] }).routes).to.include(
      'faucet/v1',
    );
  });

  const bad: [string, string, string, number, RegExp][] = [
    [
      'a malformed address',
      JSON.stringify({ address: 'rms1qqq' }),
      'application/json',
      400,
      /^invalid data provided: Invalid bech32 address provided!$/,
    ],
    [
      'an address of another network',
      JSON.stringify({ address: bech32EncodeAddress('smr', { type: 0, pubKeyHash: new Uint8Array(32) }) }),
      'application/json',
      400,
      /Address does not start with "rms"\.$/,
    ],
    ['no address', '{}', 'application/json', 400, /^invalid data provided: Invalid bech32 address provided!$/],
    [
      'an address that is not a string',
      '{"address":5}',
      'application/json',
      400,
      /^invalid data provided: Invalid Request! Error: "address" must be a string/,
    ],
    [
      'malformed JSON',
      '{"address":',
      'application/json',
      400,
      /^invalid data provided: Invalid Request! Error: malformed JSON body/,
    ],
    ['a body that is not JSON', 'address=rms1', 'text/plain', 415, /^invalid data provided: unsupported media type/],
  ];
  for (const [what, body, type, status, message] of bad) {
    it(`${what}: ${status}`, async () => {
      const res = await post(gw.url, body, type);
      const json = (await res.json()) as { error: { code: number; message: string } };
      expect([res.status, json.error.code]).to.deep.equal([status, status]);
      expect(json.error.message).to.match(message);
    });
  }

  it('a node without a dev wallet: both routes answer 503 saying the faucet is off', async () => {
    for (const res of [
      await fetch(`${offGw.url}/api/faucet/v1/info`),
      await post(offGw.url, JSON.stringify({ address: freshAddress() })),
    ]) {
      const json = (await res.json()) as { error: { message: string } };
      expect(res.status).to.equal(503);
      expect(json.error.message).to.match(/^service unavailable: the faucet is off: .*no devWallet in the genesis/);
    }
  });
});
