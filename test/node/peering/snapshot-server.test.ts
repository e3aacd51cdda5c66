/**
 * The limits of the snapshot server that bootstrapping peers download from (src/node/peering/snapshot-server.ts,
 * docs/decisions.md §30), offers and downloads: at most `maxDownloads` downloads at once in all and one per peer node,
 * a ticket good once and for `ticketTtlMs`, one ticket per peer node, an offset beyond the file. The rig (a node with a
 * ledger whose snapshot takes several chunks, fake peers and calls, the test's clock) is snapshot-server-support.ts;
 * stop(), the files written and kept, and backpressure are snapshot-server-files.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as Status } from '@grpc/grpc-js';
import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { CHUNK_BYTES, SNAPSHOT_SERVING_DEFAULTS } from '../../../src/node/peering/snapshot-server.ts';
import { until } from '../support.ts';
import { fakePeer, files, lastOffer, snapshotFile, snapshotServing, type FakePeer } from './snapshot-server-support.ts';

/** At most this many downloads at once, in all. */
const MAX = SNAPSHOT_SERVING_DEFAULTS.maxDownloads;

describe('snapshot server: the limits of serving snapshots to bootstrapping peers', function () {
  this.timeout(60_000);
  const rig = snapshotServing();
  const { serve, ask, offered, offeredWhenFree, download, completes, refusedWith, stalled } = rig;
  /** The milestone a new snapshot is written at: belowMaxDepth + 5 below the confirmed one. */
  let target: number;
  before(() => {
    target = rig.target;
  });

  it('offers the snapshot belowMaxDepth + 5 below the confirmed milestone, in chunks, from any offset', async () => {
    const { server, dir } = serve();
    const a = fakePeer('a');
    const offer = await offered(server, a);
    expect(offer.index).to.equal(target);
    expect(offer.chunkSize).to.equal(CHUNK_BYTES);
    expect(offer.ticket).to.have.length(16);
    expect(Number(offer.size), 'a snapshot of several chunks').to.be.greaterThan(2 * CHUNK_BYTES);
    expect(files(dir)).to.deep.equal([snapshotFile(target)]);
    const whole = download(server, offer.ticket);
    await completes(whole, offer);
    expect(whole.chunks.length).to.be.at.least(3);
    expect(whole.bytes.equals(readFileSync(join(dir, snapshotFile(target))))).to.equal(true);
    // resumed: from an offset on, with a new ticket (the held snapshot is offered again, nothing is written)
    rig.clock += 1;
    const again = await offeredWhenFree(server, a);
    expect(again.index).to.equal(offer.index);
    expect(toHex(again.hash)).to.equal(toHex(offer.hash));
    const rest = download(server, again.ticket, { offset: 1000n });
    await completes(rest, again, 1000);
    expect(rest.bytes.equals(whole.bytes.subarray(1000))).to.equal(true);
    // at exactly the size: nothing to send, the stream ends
    const atEnd = download(server, (await offeredWhenFree(server, a)).ticket, { offset: offer.size });
    await completes(atEnd, offer, Number(offer.size));
    expect(atEnd.chunks).to.have.length(0);
  });

  it(`serves at most maxDownloads (${MAX}) at once: a third is refused busy, as offer and as download`, async () => {
    expect(SNAPSHOT_SERVING_DEFAULTS.maxDownloads).to.equal(2);
    const { server } = serve();
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((id) => fakePeer(id)) as [FakePeer, FakePeer, FakePeer, FakePeer];
    const offers = [await offered(server, a), await offered(server, b), await offered(server, c)];
    const first = await stalled(server, offers[0]!.ticket);
    await stalled(server, offers[1]!.ticket);
    // a third peer's offer
    const refusal = await ask(server, d);
    expect(refusal.index).to.equal(0);
    expect(refusal.ticket).to.have.length(0);
    expect(refusal.reason).to.match(/^busy: 2 snapshot downloads under way/);
    // a third download, on a ticket taken before the two began
    await refusedWith(download(server, offers[2]!.ticket), Status.RESOURCE_EXHAUSTED, /^busy/);
    // one ends: a slot is free again
    first.accept = true;
    first.emit('drain');
    await completes(first, offers[0]!);
    await until('d gets an offer', async () => (await ask(server, d)).reason === '', 10_000);
    await completes(download(server, lastOffer(d).ticket), lastOffer(d));
  });

  it('one download per peer node: a second offer during one is refused, other peers are served', async () => {
    const { server } = serve({ maxDownloads: 4 });
    const a = fakePeer('a');
    const forA = await offered(server, a);
    const first = await stalled(server, forA.ticket);
    expect((await ask(server, a)).reason).to.equal('a download of yours is under way');
    // the same node on another connection (another address) is the same peer node
    expect((await ask(server, fakePeer('a', 'elsewhere:15600'))).reason).to.equal('a download of yours is under way');
    // a peer without a node ID counts by its address
    const anonymous = fakePeer(undefined, 'anon:1');
    await stalled(server, (await offered(server, anonymous)).ticket);
    expect((await ask(server, fakePeer(undefined, 'anon:1'))).reason).to.equal('a download of yours is under way');
    // others are served meanwhile
    const forB = await offered(server, fakePeer('b'));
    await completes(download(server, forB.ticket), forB);
    // once its download ends, the peer may ask again
    first.accept = true;
    first.emit('drain');
    await completes(first, forA);
    await until('a gets an offer again', async () => (await ask(server, a)).reason === '', 10_000);
  });

  it('one download per peer node also when a download on its ticket begins while the next offer is made', async () => {
    const { server } = serve({ maxDownloads: 4 });
    const a = fakePeer('a');
    const first = await offered(server, a);
    // the peer asks again and, before the answer, downloads on the ticket it holds
    const asking = server.offer(a, { index: 0 });
    const running = download(server, first.ticket, { stall: true });
    await asking;
    const second = lastOffer(a);
    if (second.reason === '') {
      await refusedWith(download(server, second.ticket), Status.RESOURCE_EXHAUSTED, /a download of yours is under way/);
    } else {
      expect(second.reason).to.equal('a download of yours is under way');
    }
    expect(running.errors).to.deep.equal([]);
    running.accept = true;
    running.emit('drain');
    await completes(running, first);
  });

  it('a ticket is good once: a second download with it is PERMISSION_DENIED, during the first and after', async () => {
    const { server } = serve({ maxDownloads: 4 });
    const offer = await offered(server, fakePeer('a'));
    const first = await stalled(server, offer.ticket);
    await refusedWith(download(server, offer.ticket), Status.PERMISSION_DENIED, /unknown or expired snapshot ticket/);
    first.accept = true;
    first.emit('drain');
    await completes(first, offer);
    await refusedWith(
      download(server, offer.ticket, { offset: 1000n }),
      Status.PERMISSION_DENIED,
      /unknown or expired snapshot ticket/,
    );
    // a ticket nobody was given
    await refusedWith(download(server, new Uint8Array(16).fill(7)), Status.PERMISSION_DENIED, /unknown or expired/);
  });

  it('a ticket is good for ticketTtlMs: at its end still, after it PERMISSION_DENIED', async () => {
    const { server } = serve({ ticketTtlMs: 5_000 });
    const a = fakePeer('a');
    const b = fakePeer('b');
    const forA = await offered(server, a);
    rig.clock += 5_000;
    await completes(download(server, forA.ticket), forA);
    const forB = await offered(server, b);
    rig.clock += 5_001;
    await refusedWith(
      download(server, forB.ticket),
      Status.PERMISSION_DENIED,
      /unknown or expired snapshot ticket: ask for a new offer/,
    );
    // a new offer is good again
    const fresh = await offered(server, b);
    await completes(download(server, fresh.ticket), fresh);
  });

  it("holds one ticket per peer node: a new offer replaces the old ticket, other peers' stay good", async () => {
    const { server } = serve();
    const a = fakePeer('a');
    const b = fakePeer('b');
    const old = await offered(server, a);
    const forB = await offered(server, b);
    const replaced = await offered(server, fakePeer('a', 'a-again:15600'));
    expect(toHex(replaced.ticket)).not.to.equal(toHex(old.ticket));
    await refusedWith(download(server, old.ticket), Status.PERMISSION_DENIED, /unknown or expired/);
    await completes(download(server, replaced.ticket), replaced);
    await completes(download(server, forB.ticket), forB);
  });

  it('an offset beyond the file is OUT_OF_RANGE and takes no slot', async () => {
    const { server } = serve({ maxDownloads: 1 });
    const a = fakePeer('a');
    const offer = await offered(server, a);
    await refusedWith(
      download(server, offer.ticket, { offset: offer.size + 1n }),
      Status.OUT_OF_RANGE,
      new RegExp(`^offset ${offer.size + 1n} is beyond the snapshot's ${offer.size} bytes`),
    );
    // the one slot is free: the same peer is offered again and downloads
    const again = await offered(server, a);
    await completes(download(server, again.ticket, { offset: 5n }), again, 5);
  });
});
