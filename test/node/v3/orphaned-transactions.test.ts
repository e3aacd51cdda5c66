/**
 * Transactions whose every attachment is orphaned (src/node/v3/ledger.ts `failOrphaned`, pruning.ts): they fail with
 * iota.go's reason 2 (orphaned) in the commitment's batch, and pruning deletes their records with their last
 * attachment, so distinct transactions spending one output, each in a block the committee never accepts, cannot make
 * the store grow without bound (docs/decisions.md §36). The engine over a memory store with a clock the test sets
 * (one-second slots, minCommittableAge 10, no commitment lag).
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import type { SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { TX_FAILURE_V3 } from '../../../src/node/v3/ledger.ts';
import { V3_TABLES } from '../../../src/node/v3/tables.ts';
import { genesisOutputId, key, txIdOf, WALLET } from '../../../harness/fixtures/v3.ts';
import { collect, EngineHarness, TARGET } from './support.ts';

describe('v3 transactions whose every attachment is orphaned', function () {
  this.timeout(60_000);

  const h = new EngineHarness();
  const txs: SignedTransactionPayloadV3[] = [];
  const blocks: Uint8Array[] = [];
  let late: Uint8Array;

  const txMetadata = async (block: Uint8Array) => (await h.engine.blockMetadata(block)).transaction!;

  before(async () => {
    await h.open();
    h.at(1010); // committed up to slot 1000: slots 1001-1005 are old but not committed yet
    const output = genesisOutputId(h.g, 0);
    for (let i = 0; i < 6; i++) {
      const tx = h.spend(output, WALLET, 1001, key(70 + i)); // distinct transactions, one output
      txs.push(tx);
      blocks.push(await h.submit({ slot: 1001 + (i % 2), parents: [h.engine.genesisBlockId], payload: tx }));
    }
    // the first transaction also in a later slot: it fails only when that attachment is orphaned too
    late = await h.submit({ slot: 1005, parents: [h.engine.genesisBlockId], payload: txs[0]! });
    for (const b of blocks) expect((await txMetadata(b)).state).to.equal('pending');
  });

  after(() => h.store.close());

  it('fail with reason 2 (orphaned) once their last attachment is orphaned', async () => {
    h.at(1012);
    await h.engine.read(() => undefined);
    expect(h.engine.commitments.latestSlot).to.equal(1000); // the clock alone commits nothing more
    await h.acceptBeside(); // a block of slot 1012 accepted: slots up to 1002 committed
    await h.engine.read(() => undefined);
    expect(h.engine.commitments.latestSlot).to.equal(1002); // every attachment but `late` is orphaned
    for (const b of blocks) expect(await h.state(b)).to.equal('orphaned');
    expect((await txMetadata(blocks[0]!)).state).to.equal('pending'); // `late` is not orphaned yet
    for (const [i, b] of blocks.entries()) {
      if (i === 0) continue;
      const md = await txMetadata(b);
      expect(md).to.deep.include({ state: 'failed', failureReason: TX_FAILURE_V3.orphaned });
      expect(md.earliestAttachmentSlot).to.equal(1001 + (i % 2));
      expect(md.failureDetails).to.match(/orphaned/);
    }
    h.at(1015);
    await h.acceptBeside(); // a block of slot 1015 accepted: slot 1005 committed
    await h.engine.read(() => undefined);
    expect(h.engine.commitments.latestSlot).to.equal(1005);
    expect(await h.state(late)).to.equal('orphaned');
    expect(await txMetadata(late)).to.deep.include({ state: 'failed', failureReason: 2 });
    const stored = await h.store.get(V3_TABLES.transactions, txIdOf(txs[0]!));
    expect(stored).to.deep.include({ state: 'failed', failureCode: 2 });
    // a restart reads them failed
    await h.open();
    for (const tx of txs) expect(h.engine.transactionState(txIdOf(tx))).to.deep.include({ failureCode: 2 });
  });

  it('leave no record in memory or store once pruning passed their slots', async () => {
    h.at(1100);
    const progress = await h.engine.prune(TARGET);
    expect(progress.transactions).to.equal(txs.length);
    for (const tx of txs) {
      expect(h.engine.transactionState(txIdOf(tx)), 'in memory').to.equal(undefined);
      expect(await h.store.get(V3_TABLES.transactions, txIdOf(tx)), 'in the store').to.equal(undefined);
      expect(await h.store.transactionBlocks(txIdOf(tx))).to.deep.equal([]);
    }
    expect(await collect(h.store.entries(V3_TABLES.transactions))).to.deep.equal([]);
    expect(await h.leftovers()).to.deep.equal([]);
    await h.open();
    for (const tx of txs) expect(h.engine.transactionState(txIdOf(tx)), 'after a restart').to.equal(undefined);
    // the output they all spent is still unspent, and a transaction spending it is applied
    const tx = h.spend(genesisOutputId(h.g, 0), WALLET, 1100);
    const b = await h.submit({ slot: 1100, payload: tx });
    await h.confirm();
    expect(toHex0x(h.engine.includedBlockId(txIdOf(tx)))).to.equal(toHex0x(b));
  });
});
