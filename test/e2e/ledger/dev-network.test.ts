/**
 * End-to-end on the dev network with the reference client (iota.js 2.0.0-rc.4 SingleNodeClient): a genesis from
 * `tool genesis`'s logic (coordinator keys, funded dev wallet, low PoW score, fast milestones), the node with its
 * built-in coordinator and remote PoW. Transactions are built and signed by iota.js's `sendAdvanced` (its
 * `buildTransactionPayload`: inputs commitment, essence hash, Ed25519 signatures), which needs no indexer or
 * /outputs route because the test knows its outputs; `sendAdvanced` submits them with no parents and nonce "0", so
 * the node selects tips and does the proof of work. Confirmation is awaited by polling block metadata.
 */
import { sendAdvanced, type IBlock, type SingleNodeClient } from '@iota/iota.js';
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { blockId as blockIdOf } from '../../../src/core/ids/index.ts';
import { CONFLICT } from '../../../src/core/ledger/index.ts';
import {
  addressHex,
  created,
  genesisWallet,
  randomSeed,
  referenced,
  spend,
  startIotaJsNode,
  txIdOf,
  type Owned,
} from './iota.ts';
import { getJson, waitFor, type LedgerTestNode } from './support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const hex = (b: Uint8Array): string => toHex0x(b);

describe('e2e ledger: dev network with the built-in coordinator and iota.js', function () {
  this.timeout(120000);
  let n: LedgerTestNode;
  let client: SingleNodeClient;
  let genesis: Json;
  const wallet2 = randomSeed();

  before(async () => {
    ({ n, client, genesis } = await startIotaJsNode());
  });
  after(async () => {
    await n?.close();
  });

  const confirmed = (blockId: string): Promise<Json> => referenced(client, blockId);

  it('the coordinator issues milestones and /info reports them with a healthy node', async () => {
    const info = await waitFor('milestone 2', async () => {
      const i = (await client.info()) as Json;
      return i.status.confirmedMilestone.index >= 2 ? i : undefined;
    });
    expect(info.status.isHealthy).to.equal(true);
    expect(info.status.latestMilestone.milestoneId).to.match(/^0x[0-9a-f]{64}$/);
    expect(info.status.latestMilestone.timestamp).to.be.a('number');
    expect(await client.health()).to.equal(true);
  });

  let first: { blockId: string; block: IBlock };
  let mine: Owned[];

  it('a signed transfer without parents and nonce is confirmed; included-block returns it, JSON and raw', async () => {
    const start = genesisWallet(genesis);
    const seed = start.seed;
    const total = BigInt(start.output.amount);
    first = await sendAdvanced(
      client,
      [spend(start)],
      [
        { address: addressHex(wallet2), addressType: 0, amount: 1_000_000n },
        { address: addressHex(seed), addressType: 0, amount: total - 1_000_000n },
      ],
    );
    // The client sent no parents: the node chose them (URTS) and mined the nonce.
    expect(first.block.parents).to.deep.equal([]);
    const stored = await client.block(first.blockId);
    expect(stored.parents.length).to.be.within(1, 4);
    expect(stored.nonce).to.not.equal('0');
    const md = await confirmed(first.blockId);
    expect(md.ledgerInclusionState).to.equal('included');
    expect(md.whiteFlagIndex).to.be.a('number');
    const txId = txIdOf(first.block);
    const included = await client.transactionIncludedBlock(txId);
    expect(txIdOf(included)).to.equal(txId);
    const raw = await client.transactionIncludedBlockRaw(txId);
    expect(hex(blockIdOf(raw))).to.equal(first.blockId);
    mine = created(first.block, [seed, wallet2]);
    expect(mine.map((m) => m.seed !== undefined)).to.deep.equal([true, true]);
  });

  let second: { blockId: string; block: IBlock };

  it('the new outputs are spendable: a second transfer from the received output is confirmed', async () => {
    const received = mine[0]!;
    second = await sendAdvanced(
      client,
      [spend(received)],
      [{ address: addressHex(mine[1]!.seed), addressType: 0, amount: 1_000_000n }],
    );
    const md = await confirmed(second.blockId);
    expect(md.ledgerInclusionState).to.equal('included');
    expect(hex(blockIdOf(await client.transactionIncludedBlockRaw(txIdOf(second.block))))).to.equal(second.blockId);
  });

  it('a double spend of the same input ends conflicting; included-block keeps answering the first block', async () => {
    const received = mine[0]!;
    // Another transaction spending the already spent output.
    const other = await sendAdvanced(
      client,
      [spend(received)],
      [{ address: addressHex(received.seed), addressType: 0, amount: 1_000_000n }],
    );
    const md = await confirmed(other.blockId);
    expect(md.ledgerInclusionState).to.equal('conflicting');
    expect(md.conflictReason).to.equal(CONFLICT.inputAlreadySpent);
    const res = await getJson(`${n.base}/transactions/${txIdOf(other.block)}/included-block`);
    expect(res.status).to.equal(404);
    // The same transaction as the second transfer, re-attached in a new block: conflicting too, and the lookup
    // still answers with the block that was applied.
    const reattached = await client.blockSubmit({ payload: second.block.payload! });
    expect(reattached).to.not.equal(second.blockId);
    const md2 = await confirmed(reattached);
    expect([md2.ledgerInclusionState, md2.conflictReason]).to.deep.equal(['conflicting', CONFLICT.inputAlreadySpent]);
    expect(hex(blockIdOf(await client.transactionIncludedBlockRaw(txIdOf(second.block))))).to.equal(second.blockId);
    const incMd = (await getJson(`${n.base}/transactions/${txIdOf(second.block)}/included-block/metadata`)).body;
    expect([incMd.blockId, incMd.ledgerInclusionState]).to.deep.equal([second.blockId, 'included']);
  });
});
