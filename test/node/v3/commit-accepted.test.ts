/**
 * Commitments follow the accepted blocks (src/node/v3/commitments.ts `committableSlot`, docs/decisions.md §36): slot S
 * is committed once a block of slot S + minCommittableAge or later is accepted, never beyond the clock's slot minus
 * minCommittableAge minus the lag. A clock stepped forward or a stop commits nothing more without accepted blocks,
 * while the latest commitment stays young enough for a block of the clock's slot (maxCommittableAge); past that the
 * node commits up to the clock, as iota-core's validator does. The engine over a memory store with a clock the test
 * sets (one-second slots, minCommittableAge 10, maxCommittableAge 20, no commitment lag).
 */
import { expect } from 'chai';
import { EngineHarness } from './support.ts';

async function latestAfterRead(h: EngineHarness): Promise<number> {
  await h.engine.read(() => undefined);
  return h.engine.commitments.latestSlot;
}

describe('v3 commitments follow the accepted blocks', function () {
  this.timeout(60_000);

  it('a forward clock step without accepted blocks commits nothing beyond the latest accepted slot', async () => {
    const h = await new EngineHarness().open();
    h.at(1001);
    await h.confirm(); // the first round's block (slot 1001) is accepted
    const info = (await h.engine.read(() => h.engine.info({ name: 'n', version: 'v', baseToken: {} }))) as {
      status: { latestAcceptedBlockSlot: number };
    };
    expect(info.status.latestAcceptedBlockSlot).to.equal(1001);
    expect(await latestAfterRead(h)).to.equal(991);
    h.at(1011); // ten slots forward, no block
    expect(await latestAfterRead(h)).to.equal(991);
    // the clock back: a block of slot 1002 is not of a committed slot, and is confirmed and committed
    h.at(1002);
    const b = await h.submit({ slot: 1002 });
    await h.confirm();
    expect(await h.state(b)).to.equal('confirmed');
    h.at(1012);
    await h.confirm();
    expect(await latestAfterRead(h)).to.equal(1002);
    expect(await h.state(b)).to.equal('confirmed');
    expect((await h.engine.commitment(1002))?.commitment.slot).to.equal(1002);
    await h.store.close();
  });

  it('a stop then a start commit only up to the accepted blocks while the latest commitment is young', async () => {
    const h = await new EngineHarness().open();
    h.at(1001);
    await h.confirm();
    expect(await latestAfterRead(h)).to.equal(991);
    await h.engine.idle();
    h.at(1011); // stopped ten slots
    await h.open();
    expect(await latestAfterRead(h)).to.equal(991);
    await h.confirm(); // the validator's rounds accept a block of slot 1011
    expect(await latestAfterRead(h)).to.equal(1001);
    // a stop past maxCommittableAge: no block of the clock's slot could name a commitment, so the node commits up to
    // the clock's slot minus minCommittableAge (iota-core's validator forces the same commitments)
    await h.engine.idle();
    h.at(1040);
    await h.open();
    expect(await latestAfterRead(h)).to.equal(1030);
    await h.store.close();
  });
});
