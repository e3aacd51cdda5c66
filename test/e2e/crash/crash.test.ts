/**
 * Crash safety, bounded: the real `ledger-node run` under tagged-data and transfer load, SIGKILLed 3 times at
 * seeded random moments and restarted without repair; then every acknowledged block must be served with the same
 * bytes and payload, and the consistency checker (White-Flag replay included) must find no difference.
 * The long version is `npx tsx scripts/crash-test.ts --kills 20`.
 */
import { expect } from 'chai';
import { runCrashTest } from './harness.ts';

describe('e2e crash: SIGKILL under load, restart, nothing acknowledged is lost', function () {
  this.timeout(90000);

  it('survives 3 kills: no lost block, the check passes, the ledger keeps confirming', async () => {
    const r = await runCrashTest({ kills: 3, seed: 20261121, minUpMs: 300, maxUpMs: 1500, lanes: 3, taggedWorkers: 2 });
    expect(r.lost, r.lost.join('\n')).to.deep.equal([]);
    expect(r.check.differences, r.check.differences.join('\n')).to.deep.equal([]);
    expect(r.check.ok).to.equal(true);
    expect(r.acknowledged).to.be.greaterThan(20);
    expect(r.acknowledgedTransfers).to.be.greaterThan(1);
    expect(r.restartMs).to.have.length(3);
    expect(r.check.summary.ledgerReplay).to.equal('done');
    expect(r.check.summary.milestonesReplayed).to.be.greaterThan(r.ledgerIndexBefore[0]! - 1);
  });
});
