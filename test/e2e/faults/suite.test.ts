/**
 * The fault suite (harness/faults/), bounded: three nodes on 127.0.0.2-4 and a standalone gateway under a workload of
 * data blocks, signed transfers and double spends, one fault of each kind (a node isolated, the coordinator isolated,
 * a cut bridged by the third node, 2% packet loss, a node SIGKILLed and restarted, the coordinator paused 10 s, the
 * gateway's node killed and restarted), each healed and converged; then nothing acknowledged may be lost, nothing may
 * diverge, every double spend must be decided once and the same everywhere, and every node must catch up within 10 s
 * of each heal. The long form: `npx tsx scripts/faults.ts --cycles 50` (docs/faults.md). Skipped without nft (fails
 * with CI=true).
 */
import { expect } from 'chai';
import { FAULT_KINDS } from '../../../harness/faults/faults.ts';
import { figures, reportLines } from '../../../harness/faults/report.ts';
import { runFaultSuite } from '../../../harness/faults/run.ts';
import { findNft } from '../../../harness/nft.ts';

const SEED = 20261128;
/** Every node's catch-up after every heal, at most (ms). */
const MAX_CATCH_UP_MS = 10000;
/**
 * Acknowledged blocks that no milestone ever references ("acknowledged but orphaned"), at most, as a share of the
 * acknowledged blocks: what the current node can do (docs/faults.md). A node cut off from the coordinator does not know
 * it and keeps acknowledging; when its blocks reach the coordinator more than 8 milestones after their youngest cone
 * root (a 3 s cut at 0.5 s milestones plus TCP's retransmission delay after the heal is just that), they are lazy and
 * never selected. A peer link dropped in a fault (a gRPC keepalive ping, every 10 s, unanswered for 5 s) or a killed
 * peer is redialed without offering what the peer missed. Seen on this tree: 0 in 5 of 7 bounded runs, 1 and 30 of
 * 766 (3.9%) in the others; in 50 cycles 91 of 5598 (87 while the coordinator was isolated) and 48 of 5729 (at most
 * 17 in one cycle); a whole cut-off side's blocks are about 6% of one bounded run. Once nodes refuse submissions
 * while cut off (503) and peer links offer what a peer missed after a heal, this should be 0.
 */
const MAX_ORPHANED_SHARE = 0.1;

describe('e2e faults: the fault suite, one fault of each kind', function () {
  this.timeout(180000);
  let nftPath: string | undefined;

  before(async function () {
    const found = await findNft();
    if (found.path === undefined) {
      if (process.env.CI === 'true') throw new Error(`nft is needed on CI: ${found.reason}`);
      this.skip();
    }
    nftPath = found.path;
  });

  it('loses nothing acknowledged, diverges nowhere, decides double spends once, catches up within 10 s', async () => {
    const log: string[] = [];
    const r = await runFaultSuite({
      cycles: FAULT_KINDS.length,
      seed: SEED,
      nftPath: nftPath!,
      log: (l) => log.push(l),
    });
    const f = figures(r);
    const report = reportLines(r, f);
    console.log(report.map((l) => `      ${l}`).join('\n'));
    const why = [...log, ...report].join('\n');
    expect(
      r.cycles.map((c) => c.kind),
      why,
    ).to.have.members([...FAULT_KINDS]);
    expect(f.survived, why).to.equal(f.cycles);
    for (const c of r.cycles)
      if (['isolate-node', 'isolate-coordinator', 'bridged-cut', 'loss'].includes(c.kind))
        expect(c.dropped, `packets the ${c.kind} fault dropped`).to.be.above(0);
    expect(f.acknowledged, why).to.be.above(200);
    expect(r.journal.acks.filter((a) => a.kind === 'transfer').length).to.be.above(10);
    expect(f.lost, why).to.equal(0);
    expect([f.divergentMilestones, f.divergentUtxo, f.divergentMetadata], why).to.deep.equal([0, 0, 0]);
    expect(r.milestones.compared).to.be.at.least(r.finalIndex);
    expect(f.doubleViolations, why).to.equal(0);
    expect(r.doubles.decided, why).to.equal(r.doubles.bothAcknowledged);
    expect(r.doubles.tried).to.equal(f.cycles);
    expect(r.doubles.bothAcknowledged).to.be.above(0);
    for (const [kind, c] of f.catchUp) expect(c.max, `catch-up after ${kind}`).to.be.at.most(MAX_CATCH_UP_MS);
    expect(f.gatewaySilent, 'gateway probes without an answer').to.equal(0);
    expect(f.orphaned, why).to.be.at.most(Math.floor(MAX_ORPHANED_SHARE * f.acknowledged));
  });
});
