/**
 * Crash safety, bounded: the real `ledger-node run` under tagged-data and transfer load, SIGKILLed at seeded random
 * moments and restarted without repair; then every acknowledged block must be served with the same bytes and
 * payload, and the consistency checker (White-Flag replay included) must find no difference. Once per storage
 * engine (`--db-engine`), 2 kills each, so both engines are covered in about the time 3 kills on one took.
 * The long version is `npx tsx scripts/crash-test.ts --kills 20 [--db-engine rocksdb]`.
 */
import { expect } from 'chai';
import { DB_ENGINES, ENGINE_FOLDERS } from '../../../src/storage/open.ts';
import { runCrashTest } from '../../../harness/crash/run.ts';

const KILLS = 2;

describe('e2e crash: SIGKILL under load, restart, nothing acknowledged is lost', function () {
  this.timeout(90000);

  for (const [i, engine] of DB_ENGINES.entries()) {
    it(`${engine}: survives ${KILLS} kills: no lost block, the check passes, the ledger keeps confirming`, async () => {
      const r = await runCrashTest({
        engine,
        kills: KILLS,
        seed: 20261121 + i,
        minUpMs: 300,
        maxUpMs: 1500,
        lanes: 3,
        taggedWorkers: 2,
      });
      expect(r.engine, `the store is in ${ENGINE_FOLDERS[engine]}`).to.equal(engine);
      expect(r.lost, r.lost.join('\n')).to.deep.equal([]);
      expect(r.check.differences, r.check.differences.join('\n')).to.deep.equal([]);
      expect(r.check.ok).to.equal(true);
      expect(r.acknowledged).to.be.greaterThan(15);
      expect(r.acknowledgedTransfers).to.be.greaterThan(1);
      expect(r.restartMs).to.have.length(KILLS);
      expect(r.check.summary.ledgerReplay).to.equal('done');
      expect(r.check.summary.milestonesReplayed).to.be.greaterThan(r.ledgerIndexBefore[0]! - 1);
    });
  }
});
