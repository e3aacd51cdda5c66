/**
 * Crash safety: `npx tsx scripts/crash-test.ts [--kills 20] [--seed S] [--data-dir DIR] [--lanes 4] [--tagged-workers
 * 2] [--milestone-interval 0.2] [--max-up-ms 2500] [--db-engine leveldb|rocksdb]`.
 * Runs `ledger-node run` under a submission load, SIGKILLs it at seeded random moments and restarts it each time,
 * then stops it cleanly and checks that every acknowledged (201) block is served with the same bytes and that
 * `ledger-node tool check` passes (harness/crash/run.ts). Exit 0 only with no loss and a passing check.
 * `--data-dir` must be a new or empty folder; it is kept for inspection (`ledger-node tool check --data-dir DIR`).
 */
import { existsSync, readdirSync } from 'node:fs';
import { isDbEngine } from '../src/storage/open.ts';
import { median, runCrashTest } from '../harness/crash/run.ts';
import { scriptNumber, scriptOption } from './lib/args.ts';

const kills = scriptNumber('kills', 20);
const seed = scriptNumber('seed', Date.now() % 1_000_000);
const dataDir = scriptOption('data-dir');
if (dataDir !== undefined && existsSync(dataDir) && readdirSync(dataDir).length > 0) {
  console.error(
    `--data-dir ${dataDir} is not empty: the crash test starts a new dev network there (the folder is kept afterwards)`,
  );
  process.exit(2);
}
const engine = scriptOption('db-engine');
if (engine !== undefined && !isDbEngine(engine)) {
  console.error(`--db-engine ${engine}: expected leveldb or rocksdb`);
  process.exit(2);
}
console.log(
  `crash test: ${kills} kills, seed ${seed}${engine ? `, ${engine}` : ''}${dataDir ? `, data dir ${dataDir}` : ''}`,
);
const started = Date.now();
const r = await runCrashTest({
  kills,
  seed,
  ...(engine ? { engine } : {}),
  ...(dataDir ? { dataDir, keep: true } : {}),
  lanes: scriptNumber('lanes', 4),
  taggedWorkers: scriptNumber('tagged-workers', 2),
  milestoneInterval: scriptNumber('milestone-interval', 0.2),
  maxUpMs: scriptNumber('max-up-ms', 2500),
  log: (l) => console.log(l),
});
const s = r.check.summary;
console.log('');
console.log(`kills:                 ${r.kills} (${r.engine})`);
console.log(`acknowledged blocks:   ${r.acknowledged} (${r.acknowledgedTransfers} transfers)`);
console.log(`lost:                  ${r.lost.length}`);
for (const l of r.lost) console.log(`  ${l}`);
console.log(
  `restart to REST ready: median ${median(r.restartMs).toFixed(0)} ms, max ${Math.max(...r.restartMs).toFixed(0)} ms`,
);
console.log(`ledger index at kills: ${r.ledgerIndexBefore.join(' ')}`);
console.log(
  `mid-milestone kills:   ${r.midMilestone} (milestone block stored, confirmation not committed; confirmed on restart)`,
);
console.log(`in flight at kills:    ${r.inFlightAtKill.join(' ')} (submissions cut off, outcome unknown, not counted)`);
const verdict = r.check.ok ? 'passed' : `FAILED (${r.check.differences.length} differences)`;
console.log(
  `check:                 ${verdict}: ${s.blocks} blocks, ${s.referenced} referenced, ` +
    `${s.milestonesReplayed} milestones replayed, ${s.tips} tips, ${s.unspentOutputs} unspent outputs, ${s.ms} ms`,
);
for (const d of r.check.differences) console.log(`  ${d}`);
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = r.lost.length === 0 && r.check.ok ? 0 : 1;
