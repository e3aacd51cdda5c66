/**
 * End to end with the IOTA 2.0 SDK (`@iota/sdk-wasm` 2.0.0-beta.1, as test/e2e/v3/sdk.test.ts loads it) against
 * `ledger-node run` as a process: every SDK read method of issue 24 the node serves parses the node's answer, and
 * every ID in it equals the SDK's own computation (`Utils.blockId`, `Utils.transactionId`, `Utils.computeOutputId`,
 * `Utils.computeSlotCommitmentId`). One SDK transaction is sent and confirmed first; the reads follow. The SDK hands
 * `getOutputRaw`'s bytes back undecoded, so the test decodes them as iota-core's serializer (serix) lays out iota.go's
 * `OutputResponse` and checks the proof as iota.go's node client does.
 */
import { expect } from 'chai';
import type { Client, ProtocolParameters, SignedTransactionPayload } from '@iota/sdk-wasm-v2/node';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { ByteReader } from '../../../src/core/codec/reader.ts';
import { readKind } from '../../../src/core/v3/codec/binary.ts';
import { kinds } from '../../../src/core/v3/codec/layouts.ts';
import {
  outputIdFromProofV3,
  outputIdProofToJsonV3,
  outputToJsonV3,
  slotOfId,
  verifyOutputIdProofV3,
  type OutputIdProofV3,
  type OutputV3,
  type ProtocolParametersV3,
} from '../../../src/core/v3/index.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { genesisOutputId, key, type Key } from '../../../harness/fixtures/v3.ts';
import { sdk, sendBySdk, waitFor } from './sdk-support.ts';
import { startV3Node, type V3SdkNode } from './support.ts';

/** An SDK object as plain JSON (key order aside). */
const plain = (o: unknown): unknown => JSON.parse(JSON.stringify(o));

describe('e2e v3: the IOTA 2.0 SDK reads every route of issue 24', function () {
  this.timeout(40000);
  let node: V3SdkNode;
  let client: Client;
  let pp: ProtocolParameters;
  let params: ProtocolParametersV3;
  let g: GenesisV3;
  let sent: { blockId: string; txId: string; payload: SignedTransactionPayload };

  before(async () => {
    node = await startV3Node({ name: 'sdk-reads', funded: 2, validationIntervalMs: 200, sdk: true });
    ({ client, params, genesis: g } = node);
    pp = await client.getProtocolParameters();
    await node.firstRound();
    sent = await send(0, key(70));
    await waitFor('confirmation', async () =>
      (await client.getBlockMetadata(sent.blockId)).blockState === 'confirmed' ? true : undefined,
    );
  });
  after(() => node?.stop());

  const send = (input: number, to: Key) => sendBySdk(client, params, g, input, to);

  it('getBlockWithMetadata, getTransactionMetadata, getIncludedBlockMetadata', async () => {
    const { blockId, txId } = sent;
    const full = await client.getBlockWithMetadata(blockId);
    expect(sdk.Utils.blockId(full.block, pp)).to.equal(blockId);
    expect(full.metadata).to.deep.include({ blockId, blockState: 'confirmed' });
    const md = await client.getTransactionMetadata(txId);
    expect(md.transactionId).to.equal(txId);
    expect(['accepted', 'committed', 'finalized']).to.include(md.transactionState);
    expect(md.earliestAttachmentSlot).to.equal(slotOfId(fromHex0x(blockId)));
    const included = await client.getIncludedBlockMetadata(txId);
    expect(included).to.deep.include({ blockId, blockState: 'confirmed' });
  });

  it('getOutput, getOutputMetadata, getOutputWithMetadata, getOutputs, IDs agree', async () => {
    const { blockId, txId, payload } = sent;
    const outputId = sdk.Utils.computeOutputId(txId, 0);
    const o = await client.getOutput(outputId);
    expect(plain(o.output)).to.deep.equal(plain(payload.transaction.outputs[0]));
    expect(o.outputIdProof).to.include({ slot: payload.transaction.creationSlot, outputIndex: 0 });
    const md = await client.getOutputMetadata(outputId);
    expect(md).to.deep.include({ outputId, blockId });
    expect(md.included).to.include({ transactionId: txId, slot: slotOfId(fromHex0x(blockId)) });
    expect(md.spent).to.equal(undefined);
    const full = await client.getOutputWithMetadata(outputId);
    expect(full.metadata).to.deep.equal(md);
    expect(plain(full.output)).to.deep.equal(plain(o.output));
    const both = await client.getOutputs([outputId, sdk.Utils.computeOutputId(txId, 1)]);
    expect(both.map((x) => plain(x.output))).to.deep.equal(payload.transaction.outputs.map(plain));
    const spent = await client.getOutputMetadata(toHex0x(genesisOutputId(g, 0)));
    expect(spent.spent).to.include({ transactionId: txId });
    const missing = sdk.Utils.computeOutputId(txId, 5);
    expect(await client.getOutputsIgnoreNotFound([missing, outputId])).to.have.length(1);
  });

  it("getOutputRaw: iota.go's OutputResponse, output then proof, as iota-core's serializer writes it", async () => {
    const { txId } = sent;
    for (const index of [0, 1]) {
      const outputId = sdk.Utils.computeOutputId(txId, index);
      const raw = Uint8Array.from(await client.getOutputRaw(outputId));
      // serix over OutputResponse{Output TxEssenceOutput; OutputIDProof *OutputIDProof}: no length prefixes; the
      // output's type byte picks its layout, which ends where the proof starts; nothing may follow the proof
      const r = new ByteReader(raw, 'OutputResponse');
      const output = readKind(r, kinds.output, 'output') as OutputV3;
      const outputEnd = r.offset;
      const proof = readKind(r, kinds.outputIdProof, 'outputIdProof') as OutputIdProofV3;
      r.end();
      // the JSON answer says the same, and the output's bytes are the SDK's own serialization of it
      const json = await client.getOutput(outputId);
      expect(toHex0x(raw.subarray(0, outputEnd))).to.equal(sdk.Utils.outputHexBytes(json.output));
      expect(outputToJsonV3(output)).to.deep.equal(plain(json.output));
      expect(outputIdProofToJsonV3(proof)).to.deep.equal(plain(json.outputIdProof));
      // as iota.go's nodeclient OutputByID: the proof must derive the requested output ID from this output
      expect(verifyOutputIdProofV3(proof, fromHex0x(outputId), output)).to.equal(true);
      expect(toHex0x(outputIdFromProofV3(proof))).to.equal(outputId);
    }
  });

  it('getCommitment, getCommitmentRaw, getCommitmentBySlot[Raw]: IDs as Utils.computeSlotCommitmentId', async () => {
    const latest = (await client.getIssuance()).latestCommitment;
    const id = sdk.Utils.computeSlotCommitmentId(latest);
    const byId = await client.getCommitment(id);
    expect(sdk.Utils.computeSlotCommitmentId(byId)).to.equal(id);
    const bySlot = await client.getCommitmentBySlot(latest.slot);
    expect(sdk.Utils.computeSlotCommitmentId(bySlot)).to.equal(id);
    const previous = await client.getCommitment(latest.previousCommitmentId);
    expect(sdk.Utils.computeSlotCommitmentId(previous)).to.equal(latest.previousCommitmentId);
    const raw = Uint8Array.from(await client.getCommitmentRaw(id));
    expect(toHex0x(Uint8Array.from(await client.getCommitmentBySlotRaw(latest.slot)))).to.equal(toHex0x(raw));
    expect(raw.length).to.equal(89);
  });
});
