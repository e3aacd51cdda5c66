/**
 * The fault suite: `npx tsx scripts/faults.ts [--cycles 50] [--seed S] [--nodes 3] [--first-address 127.0.0.2]
 * [--milestone-interval 0.5] [--hold-ms 3000] [--pause-ms 10000] [--loss 2] [--kinds isolate-node,loss,...]
 * [--no-gateway] [--keep]` (also `npm run faults -- ...`).
 * A cluster of nodes on loopback addresses under a workload of data blocks, signed transfers and double spends, one
 * fault per cycle (partitions of every shape, packet loss, a node killed and restarted, the coordinator paused, the
 * gateway's node killed), each healed and converged, then checked: the same milestones and UTXO changes everywhere,
 * no acknowledged block lost, the same metadata everywhere, every double spend decided once and the same everywhere
 * (harness/faults/, docs/faults.md). Needs nft and root (CAP_NET_ADMIN, setgid). Exit 0 only when nothing was lost,
 * nothing diverged, no double spend was decided twice or differently, and every fault was survived.
 */
import { FAULT_KINDS, isFaultKind, type FaultKind } from '../harness/faults/faults.ts';
import { figures, reportLines } from '../harness/faults/report.ts';
import { runFaultSuite } from '../harness/faults/run.ts';
import { scriptNumber, scriptOption, scriptSwitch } from './lib/args.ts';

const cycles = scriptNumber('cycles', 50, { positive: true });
const seed = scriptNumber('seed', Date.now() % 1_000_000);
const kindsArg = scriptOption('kinds');
const kinds = kindsArg?.split(',').map((k) => k.trim());
const unknown = kinds?.filter((k) => !isFaultKind(k));
if (unknown && unknown.length > 0) {
  console.error(`--kinds: unknown ${unknown.join(', ')} (known: ${FAULT_KINDS.join(', ')})`);
  process.exit(2);
}
const firstAddress = scriptOption('first-address');
console.log(`fault suite: ${cycles} cycles, seed ${seed}`);
const r = await runFaultSuite({
  cycles,
  seed,
  size: scriptNumber('nodes', 3, { positive: true }),
  ...(firstAddress ? { firstAddress } : {}),
  milestoneInterval: scriptNumber('milestone-interval', 0.5, { positive: true }),
  holdMs: scriptNumber('hold-ms', 3000),
  pauseMs: scriptNumber('pause-ms', 10000),
  lossPercent: scriptNumber('loss', 2, { positive: true }),
  gateway: !scriptSwitch('no-gateway'),
  ...(kinds ? { kinds: kinds as FaultKind[] } : {}),
  keep: scriptSwitch('keep'),
  log: (l) => console.log(l),
});
const f = figures(r);
console.log('');
for (const l of reportLines(r, f)) console.log(l);
if (r.root) console.log(`data folders kept in ${r.root}`);
const ok =
  f.lost === 0 &&
  f.divergentMilestones + f.divergentUtxo + f.divergentMetadata === 0 &&
  f.doubleViolations === 0 &&
  f.survived === f.cycles;
process.exitCode = ok ? 0 : 1;
