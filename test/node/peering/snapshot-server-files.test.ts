/**
 * The snapshot server (src/node/peering/snapshot-server.ts, docs/decisions.md §30), its files and its end: stop(), one
 * snapshot written a minute per peer, the two newest files kept and older ones deleted once no download reads them,
 * a download stalled on the stream's backpressure holding its slot until 'drain', 'cancelled' or 'close', a file that
 * cannot be opened, and at most 256 offers waiting. The rig is snapshot-server-support.ts.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { status as Status } from '@grpc/grpc-js';
import { expect } from 'chai';
import { until } from '../support.ts';
import {
  fakePeer,
  files,
  lastOffer,
  settleDown,
  snapshotFile,
  snapshotServing,
  type FakePeer,
} from './snapshot-server-support.ts';

describe('snapshot server: stop, the files it writes and keeps, backpressure', function () {
  this.timeout(60_000);
  const rig = snapshotServing();
  const { serve, ask, offered, download, completes, refusedWith, stalled } = rig;
  /** The milestone a new snapshot is written at: belowMaxDepth + 5 below the confirmed one. */
  let target: number;
  before(() => {
    target = rig.target;
  });

  it('stop() ends the downloads under way with UNAVAILABLE, writes nothing more and refuses new offers', async () => {
    const { server } = serve();
    const a = fakePeer('a');
    const b = fakePeer('b');
    const forA = await offered(server, a);
    const forB = await offered(server, b);
    const running = await stalled(server, forA.ticket);
    server.stop();
    expect(running.errors).to.deep.equal([{ code: Status.UNAVAILABLE, details: 'the node is stopping' }]);
    running.accept = true;
    running.emit('drain');
    await settleDown();
    expect(running.chunks, 'chunks after stop').to.have.length(1);
    expect(running.ended, 'ended as if complete').to.equal(false);
    const refusal = await ask(server, fakePeer('c'));
    expect(refusal.reason).to.equal('this node is stopping');
    expect(refusal.ticket).to.have.length(0);
    // a ticket given before is no good any more
    const late = download(server, forB.ticket);
    await until('the late download is refused', () => late.settled, 10_000);
    expect(late.ended).to.equal(false);
    expect(late.chunks).to.have.length(0);
    expect(late.errors).to.deep.equal([{ code: Status.UNAVAILABLE, details: 'the node is stopping' }]);
  });

  it('a peer may cause one snapshot to be written a minute; offers of a snapshot held cost nothing', async () => {
    const { server, dir } = serve();
    const a = fakePeer('a');
    expect((await offered(server, a)).index).to.equal(target);
    // the held one, again and again
    for (let i = 0; i < 3; i++) expect((await offered(server, a, target)).index).to.equal(target);
    // another milestone of the window would be written: not within the minute
    const refusal = await ask(server, a, target - 1);
    expect(refusal.reason).to.equal('busy: a snapshot was written for you a moment ago, try again in a minute');
    expect(files(dir)).to.deep.equal([snapshotFile(target)]);
    rig.clock += 60_000;
    expect((await ask(server, a, target - 1)).reason).to.match(/^busy: a snapshot was written for you/);
    // another peer has a minute of its own
    expect((await offered(server, fakePeer('b'), target - 2)).index).to.equal(target - 2);
    rig.clock += 1;
    expect((await offered(server, a, target - 1)).index).to.equal(target - 1);
    expect(files(dir), "the two newest (the first one went: no download, a's new ticket replaced its)").to.deep.equal(
      [snapshotFile(target - 2), snapshotFile(target - 1)].sort(),
    );
    // a milestone outside the window is refused before anything is written
    expect((await ask(server, fakePeer('c'), target + 1)).reason).to.match(
      new RegExp(`^no snapshot of milestone ${target + 1}: this node offers milestones \\d+ to ${target}`),
    );
  });

  it('keeps the two newest files; an older one goes once no download reads it nor a ticket names it', async () => {
    const { server, dir } = serve({ maxDownloads: 4 });
    const [a, b, c, d, e] = ['a', 'b', 'c', 'd', 'e'].map((id) => fakePeer(id)) as [
      FakePeer,
      FakePeer,
      FakePeer,
      FakePeer,
      FakePeer,
    ];
    const forA = await offered(server, a, target);
    const reading = await stalled(server, forA.ticket);
    const forB = await offered(server, b, target - 1);
    await completes(download(server, forB.ticket), forB);
    const forC = await offered(server, c, target - 2);
    await completes(download(server, forC.ticket), forC);
    // three files: the two newest, and the oldest that a download still reads
    expect(files(dir)).to.deep.equal([snapshotFile(target - 2), snapshotFile(target - 1), snapshotFile(target)].sort());
    reading.accept = true;
    reading.emit('drain');
    await completes(reading, forA);
    await until('the oldest file goes', () => !files(dir).includes(snapshotFile(target)), 10_000);
    expect(files(dir)).to.deep.equal([snapshotFile(target - 2), snapshotFile(target - 1)].sort());
    // a new one: the third newest goes at once (no download reads it, its ticket was used)
    const forD = await offered(server, d, target - 3);
    expect(files(dir)).to.deep.equal([snapshotFile(target - 3), snapshotFile(target - 2)].sort());
    // and another: the file of d's ticket stays while the ticket is good, and is served
    const forE = await offered(server, e, target - 4);
    expect(files(dir)).to.deep.equal([snapshotFile(target - 4), snapshotFile(target - 3)].sort());
    await completes(download(server, forD.ticket), forD);
    await completes(download(server, forE.ticket), forE);
    expect(files(dir)).to.deep.equal([snapshotFile(target - 4), snapshotFile(target - 3)].sort());
  });

  for (const event of ['drain', 'cancelled', 'close'] as const) {
    it(`a download stalled on backpressure holds its slot, writing nothing more, until '${event}'`, async () => {
      const { server } = serve({ maxDownloads: 1 });
      const a = fakePeer('a');
      const b = fakePeer('b');
      const offer = await offered(server, a);
      const call = await stalled(server, offer.ticket);
      for (let i = 0; i < 3; i++) {
        await settleDown();
        rig.clock += 60_000; // the slot does not expire with time
        expect(call.chunks, 'chunks written while the stream is full').to.have.length(1);
        expect((await ask(server, b)).reason).to.match(/^busy: 1 snapshot downloads under way/);
      }
      if (event === 'drain') {
        call.accept = true;
        call.emit('drain');
        await completes(call, offer);
      } else if (event === 'cancelled') {
        call.emit('cancelled');
      } else {
        call.close();
      }
      await until('b gets an offer', async () => (await ask(server, b)).reason === '', 10_000);
      if (event !== 'drain') {
        await settleDown();
        expect(call.chunks, 'chunks written after the client went').to.have.length(1);
        expect(call.late, 'writes into the closed stream').to.equal(0);
        expect(call.ended).to.equal(false);
      }
      await completes(download(server, lastOffer(b).ticket), lastOffer(b));
    });
  }

  it('a download whose file cannot be opened fails INTERNAL and frees its slot', async () => {
    const { server, dir } = serve({ maxDownloads: 1 });
    const offer = await offered(server, fakePeer('a'));
    rmSync(join(dir, snapshotFile(offer.index)));
    const call = download(server, offer.ticket);
    await refusedWith(call, Status.INTERNAL, /^snapshot download failed: ENOENT/);
    await until('b gets an offer', async () => (await ask(server, fakePeer('b'))).reason === '', 10_000);
  });

  it('holds at most 256 offers waiting to be downloaded', async () => {
    const { server } = serve();
    for (let i = 0; i < 256; i++) await offered(server, fakePeer(`p${i}`));
    expect((await ask(server, fakePeer('one-more'))).reason).to.equal(
      'busy: too many offers wait to be downloaded, try again later',
    );
    // a peer that holds one gets a new one in its place
    expect((await ask(server, fakePeer('p7'))).reason).to.equal('');
  });
});
