/**
 * End to end with the reference client: iota.js 2.0.0-rc.4's SingleNodeClient reads outputs, milestones, their UTXO
 * changes, receipts and the treasury from a running node (in process, harness/node.ts: built-in coordinator, remote
 * PoW, REST gateway) on a dev genesis with a treasury. A transfer from the dev wallet (signed by iota.js's
 * `sendAdvanced`) is confirmed; then the spent genesis output, the created outputs and the confirming milestone read
 * as the ledger says, the binary answers decode with iota.js's own deserializers, and unknown data is iota.js's
 * ClientError 404.
 */
import {
  ClientError,
  deserializeMilestonePayload,
  deserializeOutput,
  sendAdvanced,
  type SingleNodeClient,
} from '@iota/iota.js';
import { ReadStream } from '@iota/util.js';
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { encodePayload } from '../../../src/core/codec/index.ts';
import { milestoneIdOf } from '../../../src/core/ids/index.ts';
import { outputFromJson, outputToJson, payloadFromJson } from '../../../src/core/json/index.ts';
import type { MilestonePayload } from '../../../src/core/model/index.ts';
import { addressHex, genesisWallet, randomSeed, referenced, spend, startIotaJsNode, txIdOf } from '../ledger/iota.ts';
import type { LedgerTestNode } from '../ledger/support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const TREASURY = 10_000_000n;
const TREASURY_MILESTONE = `0x${'77'.repeat(32)}`;
const SENT = 1_000_000n;

/** An output's JSON as the node renders it. */
const canonical = (output: unknown): unknown => JSON.parse(JSON.stringify(outputToJson(outputFromJson(output))));

const outputIdHex = (txId: string, index: number): string => `${txId}${index.toString(16).padStart(2, '0')}00`;

async function rejection(p: Promise<unknown>): Promise<ClientError> {
  try {
    await p;
  } catch (e) {
    return e as ClientError;
  }
  return expect.fail('the call should have failed');
}

describe('e2e REST: iota.js reads outputs, milestones, receipts and treasury from a running node', function () {
  this.timeout(120000);
  let n: LedgerTestNode;
  let client: SingleNodeClient;
  let genesis: Json;
  const wallet2 = randomSeed();

  before(async () => {
    ({ n, client, genesis } = await startIotaJsNode((g) => {
      g.outputs[0].output.amount = (BigInt(g.outputs[0].output.amount) - TREASURY).toString();
      g.treasury = { milestoneId: TREASURY_MILESTONE, amount: TREASURY.toString() };
    }));
  });
  after(async () => {
    await n?.close();
  });

  it('a genesis output, its metadata; the treasury and no receipts', async () => {
    const g = genesis.outputs[0];
    const res = await client.output(g.outputId);
    expect(res.output).to.deep.equal(g.output);
    expect(res.metadata).to.deep.include({
      blockId: g.blockId,
      transactionId: g.outputId.slice(0, 66),
      outputIndex: 0,
      isSpent: false,
      milestoneIndexBooked: g.milestoneIndexBooked,
    });
    expect(await client.outputMetadata(g.outputId)).to.deep.equal(res.metadata);
    expect(await client.treasury()).to.deep.equal({ milestoneId: TREASURY_MILESTONE, amount: TREASURY.toString() });
    expect(await client.receipts()).to.deep.equal({ receipts: [] });
    expect(await client.receipts(3)).to.deep.equal({ receipts: [] });
  });

  it('a confirmed transfer: it spends the input, its outputs are booked, and its milestone lists both', async () => {
    const g = genesis.outputs[0];
    const wallet = genesisWallet(genesis);
    const sent = await sendAdvanced(
      client,
      [spend(wallet)],
      [
        { address: addressHex(wallet2), addressType: 0, amount: SENT },
        { address: addressHex(wallet.seed), addressType: 0, amount: BigInt(g.output.amount) - SENT },
      ],
    );
    const md: Json = await referenced(client, sent.blockId);
    expect(md.ledgerInclusionState).to.equal('included');
    const msIndex: number = md.referencedByMilestoneIndex;
    const txId = txIdOf(sent.block);

    const spent = await client.outputMetadata(g.outputId);
    expect(spent).to.deep.include({ isSpent: true, milestoneIndexSpent: msIndex, transactionIdSpent: txId });
    expect(spent.ledgerIndex).to.be.at.least(msIndex);

    const created = await client.output(outputIdHex(txId, 0));
    expect(created.metadata).to.deep.include({
      blockId: sent.blockId,
      transactionId: txId,
      outputIndex: 0,
      isSpent: false,
      milestoneIndexBooked: msIndex,
    });
    // iota.js writes empty lists ([]) the node omits (TIP-25, as Hornet): compared through the node's JSON mapping.
    expect(created.output).to.deep.equal(canonical((sent.block.payload as Json).essence.outputs[0]));
    expect(canonical(deserializeOutput(new ReadStream(await client.outputRaw(outputIdHex(txId, 0)))))).to.deep.equal(
      created.output,
    );

    const ms = await client.milestoneByIndex(msIndex);
    expect(ms.index).to.equal(msIndex);
    const msId = toHex0x(milestoneIdOf(payloadFromJson(ms) as MilestonePayload));
    expect(await client.milestoneById(msId)).to.deep.equal(ms);
    const raw = await client.milestoneByIndexRaw(msIndex);
    expect(raw).to.deep.equal(encodePayload(payloadFromJson(ms)));
    expect(await client.milestoneByIdRaw(msId)).to.deep.equal(raw);
    const decoded = deserializeMilestonePayload(new ReadStream(raw));
    expect([decoded.index, decoded.previousMilestoneId, decoded.parents]).to.deep.equal([
      ms.index,
      ms.previousMilestoneId,
      ms.parents,
    ]);

    const changes = await client.milestoneUtxoChangesByIndex(msIndex);
    expect(changes.index).to.equal(msIndex);
    expect(changes.createdOutputs).to.include.members([outputIdHex(txId, 0), outputIdHex(txId, 1)]);
    expect(changes.consumedOutputs).to.include(g.outputId);
    expect(await client.milestoneUtxoChangesById(msId)).to.deep.equal(changes);
  });

  it('unknown outputs and milestones are ClientError 404; a malformed output ID is 400', async () => {
    const unknown = await rejection(client.output(`0x${'ee'.repeat(32)}0000`));
    expect(unknown).to.be.instanceOf(ClientError);
    expect(unknown.httpStatus).to.equal(404);
    expect(unknown.message).to.match(/output not found/);
    expect((await rejection(client.milestoneByIndex(4_000_000_000))).httpStatus).to.equal(404);
    expect((await rejection(client.milestoneUtxoChangesById(`0x${'ee'.repeat(32)}`))).httpStatus).to.equal(404);
    expect((await rejection(client.outputMetadata('0x1234'))).httpStatus).to.equal(400);
  });
});
