/**
 * End to end with the reference client: iota.js 2.0.0-rc.4's SingleNodeClient reads outputs, milestones, their UTXO
 * changes, receipts and the treasury from a running node (startNode: LevelDB, built-in coordinator, remote PoW, REST
 * gateway) on a dev genesis with a treasury. A transfer from the dev wallet (signed by iota.js's `sendAdvanced`) is
 * confirmed; then the spent genesis output, the created outputs and the confirming milestone read as the ledger says,
 * the binary answers decode with iota.js's own deserializers, and unknown data is iota.js's ClientError 404.
 */
import {
  ClientError,
  deserializeMilestonePayload,
  deserializeOutput,
  Ed25519Address,
  Ed25519Seed,
  sendAdvanced,
  SingleNodeClient,
} from '@iota/iota.js';
import { ReadStream } from '@iota/util.js';
import { expect } from 'chai';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { encodePayload } from '../../../src/core/codec/index.ts';
import { milestoneIdOf, transactionIdOf } from '../../../src/core/ids/index.ts';
import { outputFromJson, outputToJson, payloadFromJson } from '../../../src/core/json/index.ts';
import type { MilestonePayload, TransactionPayload } from '../../../src/core/model/index.ts';
import { genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { startLedgerNode, waitFor, type LedgerTestNode } from '../ledger/support.ts';

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
  const wallet2 = new Ed25519Seed(crypto.getRandomValues(new Uint8Array(32)));
  const address = (seed: Ed25519Seed): string => toHex0x(new Ed25519Address(seed.keyPair().publicKey).toAddress());

  before(async () => {
    genesis = genesisToJson(devNetworkGenesis({ minPowScore: 10, milestoneInterval: 0.25 }));
    genesis.outputs[0].output.amount = (BigInt(genesis.outputs[0].output.amount) - TREASURY).toString();
    genesis.treasury = { milestoneId: TREASURY_MILESTONE, amount: TREASURY.toString() };
    n = await startLedgerNode(genesis, { powWorkers: 1 });
    client = new SingleNodeClient(`http://127.0.0.1:${n.node.restPort}`);
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

  it('after a confirmed transfer: the input is spent by it, its outputs are booked, and its milestone lists both', async () => {
    const g = genesis.outputs[0];
    const seed = new Ed25519Seed(fromHex0x(genesis.devWallet.seed));
    const sent = await sendAdvanced(
      client,
      [
        {
          input: { type: 0, transactionId: g.outputId.slice(0, 66), transactionOutputIndex: 0 },
          addressKeyPair: seed.keyPair(),
          consumingOutput: g.output,
        },
      ],
      [
        { address: address(wallet2), addressType: 0, amount: SENT },
        { address: address(seed), addressType: 0, amount: BigInt(g.output.amount) - SENT },
      ],
    );
    const md: Json = await waitFor('confirmation', async () => {
      const m: Json = await client.blockMetadata(sent.blockId);
      return m.referencedByMilestoneIndex !== undefined ? m : undefined;
    });
    expect(md.ledgerInclusionState).to.equal('included');
    const msIndex: number = md.referencedByMilestoneIndex;
    const txId = toHex0x(transactionIdOf(payloadFromJson(sent.block.payload) as TransactionPayload));

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
