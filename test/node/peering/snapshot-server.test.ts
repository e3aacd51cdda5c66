/**
 * The limits of the snapshot server that bootstrapping peers download from (src/node/peering/snapshot-server.ts,
 * docs/decisions.md §30): at most `maxDownloads` downloads at once in all and one per peer node, a ticket good once and
 * for `ticketTtlMs`, one ticket per peer node, an offset beyond the file, stop(), one snapshot written a minute per
 * peer, the two newest files kept and older ones deleted once no download reads them, and a download stalled on the
 * stream's backpressure holding its slot until 'drain', 'cancelled' or 'close'.
 *
 * The server runs on a real composed node over the memory store (pruning/support.ts) with a ledger of a few hundred
 * outputs (so its snapshot takes several chunks) and enough milestones for a snapshot (belowMaxDepth + 5 below the
 * confirmed one); peers are objects with a `link.send` that records the messages, DownloadSnapshot calls are event
 * emitters whose `write` answers what the test says (false: backpressure) and whose errors are recorded. The clock of
 * the tickets and of the once-a-minute rule is the test's.
 */
import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status as Status, type ServerWritableStream } from '@grpc/grpc-js';
import { blake2b } from '@noble/hashes/blake2.js';
import { expect } from 'chai';
import { toHex } from '../../../src/core/bytes.ts';
import { outputId, transactionIdOf } from '../../../src/core/ids/index.ts';
import type { TransactionPayload } from '../../../src/core/model/index.ts';
import { LEDGER_META } from '../../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, META } from '../../../src/core/store/index.ts';
import type { PeerMessage, SnapshotChunk, SnapshotDownload, SnapshotOffer } from '../../../src/grpc/gen/peer.ts';
import type { Genesis } from '../../../src/node/genesis/genesis.ts';
import {
  CHUNK_BYTES,
  SNAPSHOT_SERVING_DEFAULTS,
  SnapshotServer,
  type RequestingPeer,
  type SnapshotServingSettings,
} from '../../../src/node/peering/snapshot-server.ts';
import { EXTRA_HISTORY } from '../../../src/node/pruning/pruner.ts';
import {
  addressOf,
  basicOutput,
  genesisCoins,
  milestones,
  openNode,
  spend,
  submit,
  testGenesis,
  walletSeed,
  type Coin,
  type TestParts,
} from '../pruning/support.ts';

/** A peer as the peer layer hands it to the server: its node ID and a link whose messages are kept. */
interface FakePeer extends RequestingPeer {
  sent: PeerMessage[];
}

function fakePeer(nodeId: string | undefined, address = `${nodeId ?? 'anonymous'}.peer:15600`): FakePeer {
  const sent: PeerMessage[] = [];
  return {
    ...(nodeId === undefined ? {} : { nodeId }),
    sent,
    link: {
      address,
      send: (m) => {
        sent.push(m);
        return true;
      },
    },
  };
}

/** The last offer (or refusal) a peer got. */
function lastOffer(p: FakePeer): SnapshotOffer {
  const m = p.sent.at(-1);
  if (m?.kind?.$case !== 'snapshotOffer') throw new Error(`peer ${p.link.address} got no snapshot offer`);
  return m.kind.value;
}

/**
 * A DownloadSnapshot call: `write` records the chunk and answers `accept` (false: the stream's buffer is full, wait
 * for 'drain'); errors the server emits are recorded. Like a grpc-js stream, after 'close' it takes no more chunks.
 */
class FakeCall extends EventEmitter {
  readonly chunks: SnapshotChunk[] = [];
  readonly errors: { code: number; details: string }[] = [];
  ended = false;
  closed = false;
  /** Writes tried after the stream closed. */
  late = 0;
  accept: boolean;
  constructor(
    readonly request: SnapshotDownload,
    options: { stall?: boolean } = {},
  ) {
    super();
    this.accept = !options.stall;
    this.on('error', (e: { code: number; details: string }) => this.errors.push(e));
  }
  write(chunk: SnapshotChunk): boolean {
    if (this.closed) {
      this.late++;
      return false;
    }
    this.chunks.push(chunk);
    return this.accept;
  }
  end(): void {
    this.ended = true;
  }
  getPeer(): string {
    return 'ipv4:127.0.0.1:40000';
  }
  close(): void {
    this.closed = true;
    this.emit('close');
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks.map((c) => c.data));
  }
  get settled(): boolean {
    return this.ended || this.errors.length > 0;
  }
}

async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Lets the event loop run a while (file reads, timers) so a wrong step would have happened. */
const settleDown = (): Promise<void> => new Promise((r) => setTimeout(r, 40));

/** Spends `coin` into `n` outputs of `amount` to `seed`'s own address plus the change. */
function fanOut(
  g: Genesis,
  seed: Uint8Array,
  coin: Coin,
  n: number,
  amount: bigint,
): { tx: TransactionPayload; change: Coin } {
  const own = addressOf(seed);
  const outputs = [
    ...Array.from({ length: n }, () => basicOutput(amount, own)),
    basicOutput(coin.output.amount - amount * BigInt(n), own),
  ];
  const tx = spend(g, seed, coin, outputs);
  return { tx, change: { outputId: outputId(transactionIdOf(tx), n), output: outputs[n]! } };
}

describe('snapshot server: the limits of serving snapshots to bootstrapping peers', function () {
  this.timeout(60_000);
  let node: TestParts;
  let root: string;
  /** The milestone a new snapshot is written at: belowMaxDepth + 5 below the confirmed one. */
  let target: number;
  let clock = 1_700_000_000_000;
  let dirs = 0;
  const servers: SnapshotServer[] = [];
  const calls: FakeCall[] = [];

  before(async () => {
    const g = testGenesis();
    node = await openNode(new MemoryKeyValueStore(), g);
    const { parts } = node;
    // a few hundred outputs first, so that a snapshot is several chunks long
    let coin = genesisCoins(g)[0]!;
    for (let i = 0; i < 3; i++) {
      const { tx, change } = fanOut(g, walletSeed(g), coin, 127, 1_000_000n);
      await submit(parts, tx);
      await parts.coordinator!.issue();
      coin = change;
    }
    await milestones(parts, 24, 1);
    const confirmed = (await parts.store.getMeta(META.ledgerIndex))!;
    const params = (await parts.store.getMeta(LEDGER_META.protocolParameters))!;
    target = confirmed - (params.belowMaxDepth + EXTRA_HISTORY);
    expect(target, 'room for snapshots of five milestones').to.be.at.least(5);
    root = mkdtempSync(join(tmpdir(), 'snapshot-server-test-'));
  });

  afterEach(async () => {
    // a download a test left stalled ends as when its client goes
    for (const c of calls.splice(0)) if (!c.settled && !c.closed) c.emit('cancelled');
    for (const s of servers.splice(0)) s.stop();
    await settleDown();
  });

  after(async () => {
    await node?.parts.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  function serve(settings: Partial<SnapshotServingSettings> = {}): { server: SnapshotServer; dir: string } {
    const { parts, logger } = node;
    const dir = join(root, `peers-${dirs++}`);
    const server = new SnapshotServer(
      {
        store: parts.store,
        network: parts.network,
        pruneHold: (fn) => parts.pruner.exclusive(fn),
        attachHold: (fn) => parts.attacher.exclusive(fn),
        dir,
        logger,
        now: () => clock,
      },
      settings,
    );
    servers.push(server);
    return { server, dir };
  }

  async function ask(server: SnapshotServer, p: FakePeer, index = 0): Promise<SnapshotOffer> {
    await server.offer(p, { index });
    return lastOffer(p);
  }

  /** Asks for an offer and expects one (not a refusal). */
  async function offered(server: SnapshotServer, p: FakePeer, index = 0): Promise<SnapshotOffer> {
    const o = await ask(server, p, index);
    expect(o.reason, `the offer to ${p.link.address}`).to.equal('');
    expect(o.index).to.be.greaterThan(0);
    return o;
  }

  /**
   * An offer to a peer whose download just ended: the stream ends (end()) a moment before the server lets go of the
   * download's slot (once its file is closed), so an offer right after may still find it under way.
   */
  async function offeredWhenFree(server: SnapshotServer, p: FakePeer, index = 0): Promise<SnapshotOffer> {
    await until(
      'the ended download lets go of its slot',
      async () => !/under way/.test((await ask(server, p, index)).reason),
    );
    return offered(server, p, index);
  }

  function download(
    server: SnapshotServer,
    ticket: Uint8Array,
    options: { offset?: bigint; stall?: boolean } = {},
  ): FakeCall {
    const call = new FakeCall({ ticket, offset: options.offset ?? 0n }, options);
    calls.push(call);
    server.download(call as unknown as ServerWritableStream<SnapshotDownload, SnapshotChunk>);
    return call;
  }

  /** A download that went through: ended, no error, exactly the offered bytes from `offset` on. */
  async function completes(call: FakeCall, offer: SnapshotOffer, offset = 0): Promise<void> {
    await until('the download ends', () => call.settled);
    expect(call.errors).to.deep.equal([]);
    expect(call.ended).to.equal(true);
    expect(call.bytes.length).to.equal(Number(offer.size) - offset);
    let position = BigInt(offset);
    for (const c of call.chunks) {
      expect(c.offset).to.equal(position);
      expect(c.data.length).to.be.within(1, CHUNK_BYTES);
      position += BigInt(c.data.length);
    }
    if (offset === 0) expect(toHex(blake2b(call.bytes, { dkLen: 32 }))).to.equal(toHex(offer.hash));
  }

  async function refusedWith(call: FakeCall, code: Status, details: RegExp): Promise<void> {
    await until('the download is refused', () => call.settled);
    expect(call.ended, 'the stream was ended as if complete').to.equal(false);
    expect(call.chunks).to.have.length(0);
    expect(call.errors).to.have.length(1);
    expect(call.errors[0]!.code, call.errors[0]!.details).to.equal(code);
    expect(call.errors[0]!.details).to.match(details);
  }

  /** A download stalled after its first chunk (the stream's buffer is full). */
  async function stalled(server: SnapshotServer, ticket: Uint8Array): Promise<FakeCall> {
    const call = download(server, ticket, { stall: true });
    await until('the first chunk is written', () => call.chunks.length === 1);
    return call;
  }

  const files = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).sort() : []);
  const name = (index: number): string => `snapshot-${index}.json`;

  it('offers the snapshot of belowMaxDepth + 5 below the confirmed milestone and serves it in chunks, from any offset up to its size', async () => {
    const { server, dir } = serve();
    const a = fakePeer('a');
    const offer = await offered(server, a);
    expect(offer.index).to.equal(target);
    expect(offer.chunkSize).to.equal(CHUNK_BYTES);
    expect(offer.ticket).to.have.length(16);
    expect(Number(offer.size), 'a snapshot of several chunks').to.be.greaterThan(2 * CHUNK_BYTES);
    expect(files(dir)).to.deep.equal([name(target)]);
    const whole = download(server, offer.ticket);
    await completes(whole, offer);
    expect(whole.chunks.length).to.be.at.least(3);
    expect(whole.bytes.equals(readFileSync(join(dir, name(target))))).to.equal(true);
    // resumed: from an offset on, with a new ticket (the held snapshot is offered again, nothing is written)
    clock += 1;
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

  it(`serves at most maxDownloads (${SNAPSHOT_SERVING_DEFAULTS.maxDownloads}) at once in all: a third is refused busy, as offer and as download`, async () => {
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
    await until('d gets an offer', async () => (await ask(server, d)).reason === '');
    await completes(download(server, lastOffer(d).ticket), lastOffer(d));
  });

  it('serves one download per peer node: a second offer to a peer with a download under way is refused, other peers are served', async () => {
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
    await until('a gets an offer again', async () => (await ask(server, a)).reason === '');
  });

  it('serves one download per peer node also when a download on its ticket begins while its next offer is prepared', async () => {
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

  it('a ticket is good once: a second DownloadSnapshot with it is PERMISSION_DENIED, during the first and after', async () => {
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
    clock += 5_000;
    await completes(download(server, forA.ticket), forA);
    const forB = await offered(server, b);
    clock += 5_001;
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
    await until('the late download is refused', () => late.settled);
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
    expect(files(dir)).to.deep.equal([name(target)]);
    clock += 60_000;
    expect((await ask(server, a, target - 1)).reason).to.match(/^busy: a snapshot was written for you/);
    // another peer has a minute of its own
    expect((await offered(server, fakePeer('b'), target - 2)).index).to.equal(target - 2);
    clock += 1;
    expect((await offered(server, a, target - 1)).index).to.equal(target - 1);
    expect(files(dir), "the two newest (the first one went: no download, a's new ticket replaced its)").to.deep.equal(
      [name(target - 2), name(target - 1)].sort(),
    );
    // a milestone outside the window is refused before anything is written
    expect((await ask(server, fakePeer('c'), target + 1)).reason).to.match(
      new RegExp(`^no snapshot of milestone ${target + 1}: this node offers milestones \\d+ to ${target}`),
    );
  });

  it('keeps the two newest files; an older one is deleted once no download reads it nor a ticket names it', async () => {
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
    expect(files(dir)).to.deep.equal([name(target - 2), name(target - 1), name(target)].sort());
    reading.accept = true;
    reading.emit('drain');
    await completes(reading, forA);
    await until('the oldest file goes', () => !files(dir).includes(name(target)));
    expect(files(dir)).to.deep.equal([name(target - 2), name(target - 1)].sort());
    // a new one: the third newest goes at once (no download reads it, its ticket was used)
    const forD = await offered(server, d, target - 3);
    expect(files(dir)).to.deep.equal([name(target - 3), name(target - 2)].sort());
    // and another: the file of d's ticket stays while the ticket is good, and is served
    const forE = await offered(server, e, target - 4);
    expect(files(dir)).to.deep.equal([name(target - 4), name(target - 3)].sort());
    await completes(download(server, forD.ticket), forD);
    await completes(download(server, forE.ticket), forE);
    expect(files(dir)).to.deep.equal([name(target - 4), name(target - 3)].sort());
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
        clock += 60_000; // the slot does not expire with time
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
      await until('b gets an offer', async () => (await ask(server, b)).reason === '');
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
    rmSync(join(dir, name(offer.index)));
    const call = download(server, offer.ticket);
    await refusedWith(call, Status.INTERNAL, /^snapshot download failed: ENOENT/);
    await until('b gets an offer', async () => (await ask(server, fakePeer('b'))).reason === '');
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
