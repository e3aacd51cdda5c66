/**
 * The coordinator never falls silent: a milestone that confirms while the coordinator reads the ledger index still
 * wakes it (a lost wake-up stopped a coordinator once, under load, with nothing in its log), and a milestone that is
 * rejected ends the round with the reason instead of leaving it waiting for ever.
 */
import { expect } from 'chai';
import { ZERO_BLOCK_ID } from '../../../src/node/genesis/genesis.ts';
import { META } from '../../../src/core/store/index.ts';
import { merkleRoot } from '../../../src/core/ids/index.ts';
import { harnessPerTest, signedMilestone, tagged } from './support.ts';

/** Resolves with `p`'s outcome, or 'pending' after `ms`. */
async function within<T>(p: Promise<T>, ms: number): Promise<T | 'pending'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'pending'>((resolve) => (timer = setTimeout(() => resolve('pending'), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('coordinator liveness', function () {
  this.timeout(20_000);
  const h = harnessPerTest();

  it('a confirmation that lands while the ledger index is being read still ends the round', async () => {
    // The store answers the ledger index read with the value it had when asked, but only after the next milestone
    // confirmed: what a busy store's thread pool does to a read that races the confirmation's commit.
    const store = h.store;
    const read = store.getMeta.bind(store);
    let confirmed!: () => void;
    const confirmation = new Promise<void>((resolve) => (confirmed = resolve));
    h.testing.milestones.onConfirmed(() => confirmed());
    // Only the coordinator's wait is slowed (the confirmation itself reads the index too): the read made from the
    // processor's waiting method, found on the synchronous stack of the call.
    const fromTheWait = (): boolean => /\bat MilestoneProcessor\.(settled|waitFor)\b/.test(new Error().stack ?? '');
    store.getMeta = async (key) => {
      const slow = key === META.ledgerIndex && fromTheWait();
      const value = await read(key);
      if (slow) await confirmation;
      return value;
    };
    const round = h.coordinator.issue();
    const outcome = await within(round, 5_000);
    store.getMeta = read;
    expect(outcome, 'the round ends once its milestone confirmed').to.not.equal('pending');
    expect(await read(META.ledgerIndex)).to.equal(1);
  });

  it('a rejected milestone ends the waiting with the reason', async () => {
    const x = await h.submit(tagged([ZERO_BLOCK_ID], 'x'));
    const now = Math.floor(Date.now() / 1000);
    const wrongRoot = merkleRoot([ZERO_BLOCK_ID]);
    const bad = signedMilestone(h.genesis, {
      index: 1,
      timestamp: now,
      parents: [x],
      inclusion: wrongRoot,
    });
    const waiting = h.testing.milestones.settled(await h.submit(bad), 1);
    const outcome = await within(
      waiting.then(
        () => 'resolved',
        (e: Error) => e.message,
      ),
      5_000,
    );
    expect(outcome).to.match(/milestone 1 was rejected: .*inclusionMerkleRoot/);
  });
});
