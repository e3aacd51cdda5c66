/**
 * The v3 reads of issue 24 (src/node/v3/reads.ts through the V3Service) over an engine on a memory store with a test
 * clock: a block with its metadata, a transaction's metadata, the included block's metadata, from submission to a
 * committed slot; NOT_FOUND for what the node does not hold.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import {
  blockToJsonV3,
  decodeBlockV3,
  encodeOutputIdProofV3,
  encodeOutputV3,
  outputIdFromProofV3,
  outputIdProofFromJsonV3,
  outputIdV3,
  outputToJsonV3,
  slotOfId,
} from '../../../src/core/v3/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { V3Service } from '../../../src/node/grpc/service-v3.ts';
import { genesisOutputId, txIdOf, WALLET } from '../../../harness/fixtures/v3.ts';
import { EngineHarness, rejection } from './support.ts';

const UNSPECIFIED = BlockView.BLOCK_VIEW_UNSPECIFIED;

describe('v3 reads: blocks and transactions (service over the engine)', () => {
  let h: EngineHarness;
  let svc: V3Service;
  const json = async (p: Promise<{ json: string }>) => JSON.parse((await p).json);

  beforeEach(async () => {
    h = await new EngineHarness().open();
    h.at(1001);
    svc = new V3Service(h.engine, { name: 'n', version: 'v', baseToken: {} });
  });

  it('blocks/{id}/full, transactions/{id}/metadata and included-block/metadata follow the transaction', async () => {
    const tx = h.spend(genesisOutputId(h.g, 0), WALLET, 1001);
    const txId = txIdOf(tx);
    const id = await h.submit({ slot: 1001, payload: tx });
    const transactionId = toHex0x(txId);
    const pending = { transactionId, transactionState: 'pending', earliestAttachmentSlot: 1001 };
    expect(await json(svc.getTransactionMetadata({ transactionId: txId, view: UNSPECIFIED }))).to.deep.equal(pending);
    const e = await rejection(svc.getIncludedBlockMetadata({ transactionId: txId, view: UNSPECIFIED }));
    expect(e.code).to.equal('NOT_FOUND');

    await h.confirm();
    const full = await json(svc.getBlockWithMetadata({ blockId: id, view: UNSPECIFIED }));
    const block = blockToJsonV3(decodeBlockV3(await h.engine.blockBytes(id), h.engine.params));
    const accepted = { ...pending, transactionState: 'accepted', earliestAttachmentSlot: slotOfId(id) };
    const metadata = { blockId: toHex0x(id), blockState: 'confirmed', transactionMetadata: accepted };
    expect(full).to.deep.equal({ block, metadata });
    expect(await json(svc.getIncludedBlockMetadata({ transactionId: txId, view: UNSPECIFIED }))).to.deep.equal(
      metadata,
    );
    expect(await json(svc.getTransactionMetadata({ transactionId: txId, view: UNSPECIFIED }))).to.deep.equal(accepted);

    // ten slots later the slot is committed, and a commitment covers the transaction
    h.at(1012);
    const committed = await json(svc.getTransactionMetadata({ transactionId: txId, view: UNSPECIFIED }));
    expect(committed.transactionState).to.equal('committed');
  });

  it('outputs: with proof (JSON and bytes), metadata created then spent, full; genesis outputs', async () => {
    const g0 = genesisOutputId(h.g, 0);
    const tx = h.spend(g0, WALLET, 1001);
    const blockId = await h.submit({ slot: 1001, payload: tx });
    await h.confirm();
    h.at(1012); // the slot is committed: the commitment that covers the transaction
    const oid = outputIdV3(txIdOf(tx), 0);
    const req = { outputId: oid, view: UNSPECIFIED };
    const answer = await svc.getOutput(req);
    const o = JSON.parse(answer.json);
    expect(o.output).to.deep.equal(outputToJsonV3(tx.transaction.outputs[0]!));
    const proof = outputIdProofFromJsonV3(o.outputIdProof);
    expect(toHex0x(outputIdFromProofV3(proof))).to.equal(toHex0x(oid));
    const out = encodeOutputV3(tx.transaction.outputs[0]!);
    expect(toHex0x(answer.raw)).to.equal(toHex0x(new Uint8Array([...out, ...encodeOutputIdProofV3(proof)])));

    const latest = toHex0x(h.engine.latestCommitmentId);
    const covering = toHex0x((await h.engine.commitment(1001))!.id);
    const included = { slot: 1001, transactionId: toHex0x(txIdOf(tx)), commitmentId: covering };
    const md = await json(svc.getOutputMetadata(req));
    expect(md).to.deep.equal({
      outputId: toHex0x(oid),
      blockId: toHex0x(blockId),
      included,
      latestCommitmentId: latest,
    });
    expect(await json(svc.getOutputWithMetadata(req))).to.deep.equal({ ...o, metadata: md });

    const spent = await json(svc.getOutputMetadata({ outputId: g0, view: UNSPECIFIED }));
    expect(spent).to.deep.equal({
      outputId: toHex0x(g0),
      blockId: toHex0x(h.engine.genesisBlockId),
      included: {
        slot: h.engine.params.genesisSlot,
        transactionId: toHex0x(g0.subarray(0, 36)),
        commitmentId: toHex0x(h.engine.genesisCommitmentId),
      },
      spent: included,
      latestCommitmentId: latest,
    });
    // a genesis output has no transaction, hence no proof
    expect((await rejection(svc.getOutput({ outputId: g0, view: UNSPECIFIED }))).message).to.match(/genesis output/);
  });

  it('NOT_FOUND for an unknown block or transaction; INVALID_REQUEST for a wrong-length ID', async () => {
    const unknown = new Uint8Array(36).fill(7);
    for (const p of [
      svc.getBlockWithMetadata({ blockId: unknown, view: UNSPECIFIED }),
      svc.getTransactionMetadata({ transactionId: unknown, view: UNSPECIFIED }),
      svc.getIncludedBlockMetadata({ transactionId: unknown, view: UNSPECIFIED }),
      svc.getOutput({ outputId: new Uint8Array(38).fill(7), view: UNSPECIFIED }),
      svc.getOutputMetadata({ outputId: new Uint8Array(38).fill(7), view: UNSPECIFIED }),
    ])
      expect((await rejection(p)).code).to.equal('NOT_FOUND');
    const e = await rejection(svc.getTransactionMetadata({ transactionId: new Uint8Array(32), view: UNSPECIFIED }));
    expect(e.code).to.equal('INVALID_REQUEST');
  });
});
