/**
 * Tips after orphans (src/node/v3/dag.ts `orphan`): with three seats a validator round is a chain of three blocks,
 * so a stop longer than `minCommittableAge` slots orphans an unaccepted tail of two or more blocks when its slot is
 * committed. The accepted blocks below that tail must become tips again (not the genesis block), so the next rounds
 * still reference, and confirm, a user block accepted before the stop.
 */
import { expect } from 'chai';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import { genesisOutputId, testGenesisV3, txIdOf, WALLET } from '../../../harness/fixtures/v3.ts';
import { V3_TABLES } from '../../../src/node/v3/tables.ts';
import { collect, EngineHarness } from './support.ts';

class ThreeSeats extends EngineHarness {
  override readonly g = testGenesisV3({ seats: 3 });
}

describe('v3 tips after orphans', () => {
  it('three seats: the blocks below an orphaned tail are tips again; the user block is confirmed', async () => {
    const h = new ThreeSeats();
    await h.open();
    try {
      h.at(1001);
      const tx = h.spend(genesisOutputId(h.g, 0), WALLET, 1001);
      const user = await h.submit({ slot: 1001, payload: tx });
      const round = await h.engine.issueValidationBlocks();
      expect(round).to.have.length(3);
      expect(await h.state(user)).to.equal('accepted');
      const orphanedTail = [];
      for (const id of round) if ((await h.state(id)) === 'pending') orphanedTail.push(toHex0x(id));
      expect(orphanedTail.length).to.be.at.least(2);

      // a stop of more than minCommittableAge (+ the lag) slots, then a restart: slot 1001 is committed at start
      const { minCommittableAge } = h.engine.params;
      h.at(1001 + minCommittableAge + 2 + 3);
      await h.open();
      await h.engine.read(() => undefined);
      for (const id of orphanedTail) expect(await h.state(fromHex0x(id))).to.equal('orphaned');
      const tips = h.engine.selectTips().map(toHex0x);
      expect(tips).to.not.deep.equal([toHex0x(h.engine.genesisBlockId)]);
      expect(tips).to.not.include(toHex0x(h.engine.genesisBlockId));
      for (const t of tips) expect(orphanedTail).to.not.include(t);
      const stored = (await collect(h.store.keys(V3_TABLES.tips))).map(toHex0x).sort();
      expect(stored).to.deep.equal([...tips].sort());

      await h.confirm();
      expect(await h.state(user)).to.equal('confirmed');
      expect(h.engine.transactionState(txIdOf(tx))?.state).to.equal('confirmed');
      expect(toHex0x(h.engine.includedBlockId(txIdOf(tx)))).to.equal(toHex0x(user));
      expect(h.engine.hasUnconfirmedBlocks).to.equal(false);
    } finally {
      await h.engine.idle();
      await h.store.close();
    }
  });
});
