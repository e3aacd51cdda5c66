/**
 * Issue 25, peer links that fail fast, between three `ledger-node run` processes whose peer doors are on their own
 * loopback addresses (links-support.ts: A 127.0.25.2 coordinator, B .3 dials A, C .4 dials A and B),
 * with nftables cutting the network (harness/nft.ts). Each node dials from its peer door's address, so the accepting
 * side lists the dialer under it and a rule by address cuts both directions. A cut between A and B is seen on both
 * sides within 5 s (the default link timeout, 3 s) while C keeps both, and the link comes back after the heal; the
 * detection times over five cuts are printed. Blocks submitted to B after it was cut off from A and C (201, written
 * into dead links) are on A and C after the heal, offered by B, and A's milestones confirm them. Skipped without nft
 * (fails with CI=true).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findNft, NftFaults } from '../../../harness/nft.ts';
import { waitFor } from '../../../harness/wait.ts';
import { linked, medianMax, peersOf, startThree, submit, until, type LinkNode } from './links-support.ts';

/** What the issue asks: a dead link seen within 5 s on both sides. */
const DETECTION_MS = 5000;
const CUTS = 5;

describe('e2e network: dead peer links seen within 5 s on both sides; what they missed follows the heal', function () {
  this.timeout(300_000);
  let dir = '';
  let a: LinkNode, b: LinkNode, c: LinkNode;
  let faults: NftFaults | undefined;

  before(async function () {
    const found = await findNft();
    if (found.path === undefined) {
      if (process.env.CI === 'true') throw new Error(`nft is needed on CI: ${found.reason}`);
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-links-'));
    [a, b, c] = (await startThree(dir)) as [LinkNode, LinkNode, LinkNode];
    faults = await NftFaults.open(found.path);
    for (const [x, y] of [
      [a, b],
      [b, a],
      [a, c],
      [c, a],
      [b, c],
      [c, b],
    ] as const)
      expect(await until(x, y, true, 20_000), `${x.name} lists ${y.name} connected`).to.be.a('number');
  });
  after(async () => {
    await faults?.close();
    for (const n of [c, b, a]) await n?.proc.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("each node dials from its peer door's address: the accepting side lists it under that address", async () => {
    const at = async (n: LinkNode, other: LinkNode): Promise<string | undefined> =>
      (await peersOf(n)).find((p) => p.id === other.nodeId)?.multiAddresses[0];
    const from = (n: LinkNode): RegExp => new RegExp(`^/ip4/${n.host.replace(/\./g, '\\.')}/tcp/\\d+$`);
    expect(await at(a, b)).to.match(from(b));
    expect(await at(a, c)).to.match(from(c));
    expect(await at(b, c)).to.match(from(c));
  });

  it(`a cut between A and B is seen on both sides within 5 s and healed (${CUTS} cuts); C keeps both`, async () => {
    const byA: number[] = [];
    const byB: number[] = [];
    const back: number[] = [];
    for (let i = 1; i <= CUTS; i++) {
      await faults!.partition([[a.host], [b.host]]);
      const [ta, tb] = await Promise.all([until(a, b, false, 10_000), until(b, a, false, 10_000)]);
      expect(ta, `cut ${i}: A sees B gone`).to.be.a('number').below(DETECTION_MS);
      expect(tb, `cut ${i}: B sees A gone`).to.be.a('number').below(DETECTION_MS);
      expect(await linked(c, a), `cut ${i}: C still linked to A`).to.equal(true);
      expect(await linked(c, b), `cut ${i}: C still linked to B`).to.equal(true);
      byA.push(ta!);
      byB.push(tb!);
      await faults!.heal();
      const [ra, rb] = await Promise.all([until(a, b, true, 30_000), until(b, a, true, 30_000)]);
      expect(ra, `cut ${i}: A lists B again after the heal`).to.be.a('number');
      expect(rb, `cut ${i}: B lists A again after the heal`).to.be.a('number');
      back.push(Math.max(ra!, rb!));
    }
    const show = (xs: number[]): string => {
      const { median, max } = medianMax(xs);
      return `median ${median} ms, max ${max} ms`;
    };
    console.log(`      (link gone, seen by A: ${show(byA)}; by B: ${show(byB)}; back after the heal: ${show(back)})`);
    console.log(`      (A: ${byA.join(', ')} ms; B: ${byB.join(', ')} ms)`);
  });

  it('blocks submitted to B while cut off from A and C reach both after the heal and are confirmed', async () => {
    // B takes submissions while at most 2 milestones behind: on a loaded machine it may lag after the cuts above
    await waitFor('B healthy before the cut', async () => {
      const info = (await (await fetch(`${b.api}/info`)).json()) as { status: { isHealthy: boolean } };
      return info.status.isHealthy ? true : undefined;
    });
    await faults!.partition([[b.host], [a.host, c.host]]);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { status, blockId } = await submit(b, `written into a dead link ${i}`);
      expect(status, 'submission to B during the cut').to.equal(201);
      ids.push(blockId);
    }
    const seen = await Promise.all([
      until(a, b, false, 10_000),
      until(b, a, false, 10_000),
      until(c, b, false, 10_000),
      until(b, c, false, 10_000),
    ]);
    for (const t of seen) expect(t, 'each side of each cut link sees it gone').to.be.a('number').below(DETECTION_MS);
    console.log(`      (B cut off: links seen gone after A ${seen[0]}, B ${seen[1]}, C ${seen[2]}, B ${seen[3]} ms)`);
    for (const n of [a, c])
      for (const id of ids) expect((await fetch(`${n.api}/blocks/${id}`)).status, `${n.name} ${id}`).to.equal(404);

    await faults!.heal();
    const t0 = Date.now();
    for (const n of [a, c])
      for (const id of ids)
        await waitFor(`${n.name} holds ${id}`, async () =>
          (await fetch(`${n.api}/blocks/${id}`)).status === 200 ? true : undefined,
        );
    const arrived = Date.now() - t0;
    for (const id of ids)
      await waitFor(`A confirms ${id}`, async () => {
        const md = (await (await fetch(`${a.api}/blocks/${id}/metadata`)).json()) as Record<string, unknown>;
        return md.referencedByMilestoneIndex !== undefined ? md : undefined;
      });
    expect(b.proc.output()).to.match(/a link to it was lost; offered [1-9]\d* blocks/);
    console.log(`      (on A and C ${arrived} ms after the heal)`);
  });
});
