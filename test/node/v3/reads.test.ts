/**
 * The v3 reads of issue 24 (src/node/v3/reads.ts through the V3Service) over an engine on a memory store with a test
 * clock: a block with its metadata, a transaction's metadata, the included block's metadata, from submission to a
 * committed slot; NOT_FOUND for what the node does not hold.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { blockToJsonV3, decodeBlockV3, slotOfId } from '../../../src/core/v3/index.ts';
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

  it('NOT_FOUND for an unknown block or transaction; INVALID_REQUEST for a wrong-length ID', async () => {
    const unknown = new Uint8Array(36).fill(7);
    for (const p of [
      svc.getBlockWithMetadata({ blockId: unknown, view: UNSPECIFIED }),
      svc.getTransactionMetadata({ transactionId: unknown, view: UNSPECIFIED }),
      svc.getIncludedBlockMetadata({ transactionId: unknown, view: UNSPECIFIED }),
    ])
      expect((await rejection(p)).code).to.equal('NOT_FOUND');
    const e = await rejection(svc.getTransactionMetadata({ transactionId: new Uint8Array(32), view: UNSPECIFIED }));
    expect(e.code).to.equal('INVALID_REQUEST');
  });
});
