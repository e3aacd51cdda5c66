/**
 * Pruning end to end: `ledger-node run --min-pow-score 0 --milestone-interval 1 --prune-milestones 20` (RocksDB) under
 * a write load of tagged-data blocks over REST. The pruning index follows the confirmed milestone at a distance of
 * 20-21 and `/info` reports it with its milestone's date; a block of an early milestone answers 404 "pruned" naming
 * it; the node is SIGKILLed under load (it prunes after every milestone; a kill inside a run is finished on the next
 * start, which the unit tests of test/node/pruning/pruning.test.ts force) and restarted: pruning goes on and nothing
 * acknowledged above the pruning index is lost (every such block reads back with the bytes sent); after a clean stop
 * `tool check` passes on the pruned store. (The figures of a long run are benchmarks/pruning/run.ts's, in the README.)
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toolCheck } from '../../../src/cli/tool-check.ts';
import { postTagged, request, verifyAcks, type Ack, type Target } from '../../../harness/crash/load.ts';
import { quietly } from '../../../harness/console.ts';
import { spawnNode, type SpawnedNode } from '../../../harness/process.ts';
import { waitFor } from '../../../harness/wait.ts';

const FLAGS = [
  '--min-pow-score',
  '0',
  '--milestone-interval',
  '1',
  '--prune-milestones',
  '20',
  '--pow-workers',
  '0',
  '--db-engine',
  'rocksdb',
];

interface Status {
  confirmed: number;
  pruning: number;
}

async function status(target: Target): Promise<Status> {
  const r = await request(target, '/api/core/v2/info');
  const s = (r.body as { status: { confirmedMilestone: { index: number }; pruningIndex: number } }).status;
  return { confirmed: s.confirmedMilestone.index, pruning: s.pruningIndex };
}

/** Waits (harness/wait.ts, every 250 ms) until `test` holds. */
const until = (what: string, ms: number, test: () => Promise<boolean>): Promise<true> =>
  waitFor(what, async () => ((await test()) ? true : undefined), ms, 250);

describe('e2e: pruning under load, SIGKILL, tool check', function () {
  this.timeout(180000);
  const dir = mkdtempSync(join(tmpdir(), 'e2e-prune-'));
  let node: SpawnedNode | undefined;
  after(async () => {
    await node?.proc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('prunes while serving, survives a SIGKILL, and the pruned store passes tool check', async () => {
    node = await spawnNode(dir, FLAGS);
    const target: Target = { base: node.rest };
    const early: Ack[] = [];
    await postTagged(target, early, 'early', 'early block');
    const referenced = async (): Promise<boolean> =>
      (
        (await request(target, `/api/core/v2/blocks/${early[0]!.blockId}/metadata`)).body as
          | { referencedByMilestoneIndex?: number }
          | undefined
      )?.referencedByMilestoneIndex !== undefined;
    await until('the early block to be referenced', 20000, referenced);
    // A steady load, each ack with the confirmed milestone it was made at.
    const acks: (Ack & { at: number })[] = [];
    let confirmed = 0;
    let load = true;
    let n = 0;
    const workers = Array.from({ length: 4 }, async () => {
      while (load) {
        const got: Ack[] = [];
        const r = await postTagged(target, got, 'load', `block ${n++}`);
        if (got[0]) acks.push({ ...got[0], at: confirmed });
        else if (r.status !== 201) await new Promise((res) => setTimeout(res, 50));
      }
    });
    const watch = setInterval(
      () =>
        void status(target).then(
          (s) => (confirmed = s.confirmed),
          () => undefined,
        ),
      200,
    );
    try {
      await until('three pruning runs', 90000, async () => (await status(target)).pruning >= 8);
      const s = await status(target);
      expect(s.confirmed - s.pruning).to.be.within(20, 23);
      // /info's storage: the pruned milestone's date (its record is gone: the pruning state keeps it), about 20
      // milestones of 1 s ago, and the data folder's size and free disk
      const storage = ((await request(target, '/api/core/v2/info')).body as { storage: Record<string, unknown> })
        .storage;
      const age = Date.now() / 1000 - (storage.pruningIndexTimestamp as number);
      expect(age).to.be.within(15, 60);
      expect(Number(storage.databaseSizeBytes)).to.be.above(0);
      expect(Number(storage.diskFreeBytes)).to.be.above(0);
      const r = await request(target, `/api/core/v2/blocks/${early[0]!.blockId}`);
      expect(r.status).to.equal(404);
      expect((r.body as { error: { message: string } }).error.message).to.match(
        /pruned: this node keeps nothing referenced at or below milestone \d+, its pruning index/,
      );

      // SIGKILL under load while the node prunes after every milestone, then restart on the same folder.
      const before = (await status(target)).pruning;
      await until('the next pruning run', 20000, async () => (await status(target)).pruning > before);
      await new Promise((res) => setTimeout(res, 300 + Math.floor(Math.random() * 700)));
      node.proc.child.kill('SIGKILL');
      await node.proc.exited;
      target.base = undefined;
      node = await spawnNode(dir, FLAGS);
      target.base = node.rest;
      await until('pruning to go on after the restart', 30000, async () => (await status(target)).pruning > before);
    } finally {
      load = false;
      clearInterval(watch);
      await Promise.all(workers);
    }
    const final = await status(target);
    const kept = acks.filter((a) => a.at > final.pruning + 1);
    expect(kept.length).to.be.above(0);
    expect(await verifyAcks(target, kept)).to.deep.equal([]);
    await node.proc.stop();
    node = undefined;
    expect((await quietly(() => toolCheck(['--data-dir', dir]))).value).to.equal(0);
  });
});
