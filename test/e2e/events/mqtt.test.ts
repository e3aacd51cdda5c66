/**
 * The TIP-28 event API end to end: `ledger-node run` (a milestone every second, min PoW score 0) and a standalone
 * `ledger-node gateway`, driven by the real `mqtt` client over WebSocket at `/api/mqtt/v1`: milestone info on every
 * milestone, blocks and tagged data as posted through REST, a signed transfer's included block, metadata and outputs
 * when a milestone confirms it, the current state on subscribe, refused topics and publishes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed } from '../../../src/core/crypto/index.ts';
import { bech32EncodeAddress, outputId, transactionIdOf } from '../../../src/core/ids/index.ts';
import { buildTransfer, postPayload, readDevWallet, taggedPayload } from '../../../harness/crash/load.ts';
import { spawnGateway, spawnNode, type Spawned, type SpawnedNode } from '../../../harness/process.ts';
import { blake2b256Hex } from '../rest/support.ts';
import { json, mqttUrl, subscriber, type Received, type Subscriber } from './support.ts';

describe('e2e events: TIP-28 MQTT over WebSocket', function () {
  this.timeout(90_000);
  let dir: string;
  let node: SpawnedNode;
  let gateway: { proc: Spawned; port: number };
  let hrp: string;
  const open: Subscriber[] = [];
  const connect = async (port = node.restPort): Promise<Subscriber> => {
    const s = await subscriber(mqttUrl(port));
    open.push(s);
    return s;
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-events-'));
    node = await spawnNode(dir, ['--milestone-interval', '1', '--min-pow-score', '0', '--pow-workers', '1']);
    gateway = await spawnGateway(node.grpcPort);
    hrp = ((await (await fetch(`${node.rest}/api/core/v2/info`)).json()) as { protocol: { bech32Hrp: string } })
      .protocol.bech32Hrp;
  });
  after(async () => {
    for (const s of open) await s.close().catch(() => undefined);
    await gateway?.proc.stop();
    await node?.proc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const index = (r: Received): number => json(r).index as number;

  it('/api/routes lists mqtt/v1 on `run` and on a standalone gateway, as Hornet does', async () => {
    for (const base of [node.rest, `http://127.0.0.1:${gateway.port}`]) {
      const body = (await (await fetch(`${base}/api/routes`)).json()) as { routes: string[] };
      expect(body.routes).to.deep.equal(['core/v2', 'core/v3', 'indexer/v1', 'explorer/v2', 'faucet/v1', 'mqtt/v1']);
    }
  });

  it('milestone-info/latest and /confirmed: the current milestone on subscribe, then every milestone', async () => {
    const s = await connect();
    expect(await s.subscribe(['milestone-info/latest', 'milestone-info/confirmed', 'milestones'])).to.deep.equal([
      0, 0, 0,
    ]);
    const first = await s.next('milestone-info/confirmed');
    expect(Object.keys(json(first))).to.deep.equal(['index', 'timestamp', 'milestoneId']);
    expect(json(first).milestoneId).to.match(/^0x[0-9a-f]{64}$/);
    const start = index(first);
    for (const topic of ['milestone-info/confirmed', 'milestone-info/latest']) {
      await s.next(topic, (r) => index(r) >= start + 3, 15_000);
      const seen = s.messages.filter((r) => r.topic === topic).map(index);
      // every milestone after the first, each once and in order
      const after = seen.filter((i) => i > start);
      expect(after.slice(0, 3)).to.deep.equal([start + 1, start + 2, start + 3]);
    }
    // `milestones`: the serialized milestone payload (type 7, then its index)
    const ms = await s.next('milestones', (r) => r.payload.readUInt32LE(4) === start + 2);
    expect(ms.payload.readUInt32LE(0)).to.equal(7);
  });

  it('a block posted through REST arrives on blocks, blocks/tagged-data and blocks/tagged-data/{tag}', async () => {
    const s = await connect();
    const tag = toHex0x(new TextEncoder().encode('mqtt-e2e'));
    expect(
      await s.subscribe(['blocks', 'blocks/tagged-data', `blocks/tagged-data/${tag}`, 'blocks/transaction']),
    ).to.deep.equal([0, 0, 0, 0]);
    const posted = await postPayload({ base: node.rest }, taggedPayload('mqtt-e2e', 'hello'));
    expect(posted.status).to.equal(201);
    const isPosted = (r: Received): boolean => blake2b256Hex(r.payload) === posted.blockId;
    await s.next('blocks', isPosted);
    await s.next('blocks/tagged-data', isPosted);
    await s.next(`blocks/tagged-data/${tag}`, isPosted);
    expect(s.messages.filter((r) => r.topic === 'blocks/transaction' && isPosted(r))).to.have.length(0);
  });

  it('a transfer: included block, metadata, and the new and spent outputs of its address when confirmed', async () => {
    const w = readDevWallet(dir);
    const address = bech32EncodeAddress(hrp, ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(w.seed)));
    const tx = buildTransfer(w, w.genesisOutput, [1_000_000n], true);
    const txId = toHex0x(transactionIdOf(tx));
    const created = toHex0x(outputId(transactionIdOf(tx), 0));
    const s = await connect();
    const topics = [
      `transactions/${txId}/included-block`,
      `outputs/unlock/address/${address}`,
      `outputs/unlock/+/${address}`,
      `outputs/unlock/address/${address}/spent`,
      `outputs/${created}`,
    ];
    expect(await s.subscribe(topics)).to.deep.equal([0, 0, 0, 0, 0]);
    const posted = await postPayload({ base: node.rest }, tx);
    expect(posted.status).to.equal(201);
    const metadata = `block-metadata/${posted.blockId}`;
    expect(await s.subscribe([metadata, 'block-metadata/referenced'])).to.deep.equal([0, 0]);

    const included = await s.next(`transactions/${txId}/included-block`);
    expect(blake2b256Hex(included.payload)).to.equal(posted.blockId);
    const md = json(await s.next(metadata, (r) => json(r).referencedByMilestoneIndex !== undefined));
    expect(md).to.include({ blockId: posted.blockId, isSolid: true, ledgerInclusionState: 'included' });
    expect(md.parentBlockIds).to.be.an('array').that.is.not.empty;
    expect(md.whiteFlagIndex).to.be.a('number');
    await s.next('block-metadata/referenced', (r) => json(r).blockId === posted.blockId);

    const ofTx = (r: Received): boolean => (json(r).metadata as { transactionId: string }).transactionId === txId;
    for (const topic of [`outputs/unlock/address/${address}`, `outputs/unlock/+/${address}`, `outputs/${created}`]) {
      const out = json(await s.next(topic, ofTx));
      expect(out.metadata).to.include({ blockId: posted.blockId, transactionId: txId, isSpent: false });
      expect((out.output as { type: number }).type).to.equal(3);
    }
    // both outputs go to the wallet: the address topic gets each once, `+` too
    await s.next(
      `outputs/unlock/address/${address}`,
      (r) => ofTx(r) && (json(r).metadata as { outputIndex: number }).outputIndex === 1,
    );
    const spent = json(await s.next(`outputs/unlock/address/${address}/spent`));
    expect(spent.metadata).to.include({ isSpent: true, transactionIdSpent: txId });

    // subscribing after the fact: the current state at once
    const late = await connect();
    expect(await late.subscribe([`transactions/${txId}/included-block`, metadata, `outputs/${created}`])).to.deep.equal(
      [0, 0, 0],
    );
    expect(blake2b256Hex((await late.next(`transactions/${txId}/included-block`, undefined, 5000)).payload)).to.equal(
      posted.blockId,
    );
    expect(json(await late.next(metadata, undefined, 5000))).to.include({ ledgerInclusionState: 'included' });
    expect(json(await late.next(`outputs/${created}`, undefined, 5000)).metadata).to.include({
      transactionId: txId,
      outputIndex: 0,
    });
  });

  it('refuses unknown and malformed topics with 0x80 and grants the good ones', async () => {
    const s = await connect();
    const other = bech32EncodeAddress(hrp === 'smr' ? 'rms' : 'smr', { type: 0, pubKeyHash: new Uint8Array(32) });
    const bad = [
      'foo',
      '#',
      'blocks/+',
      'block-metadata/0xabc',
      `block-metadata/0x${'AB'.repeat(32)}`,
      'blocks/tagged-data/0x',
      'outputs/unlock/bogus/x',
      `outputs/unlock/address/${other}`,
      'transactions/0x00/included-block',
      '$SYS/#',
    ];
    expect(await s.subscribe([...bad, 'receipts'])).to.deep.equal([...bad.map(() => 128), 0]);
  });

  it("a client's publish never reaches others: the publisher is disconnected", async () => {
    const listener = await connect();
    expect(await listener.subscribe(['blocks'])).to.deep.equal([0]);
    const publisher = await connect();
    const closed = new Promise<void>((resolve) => publisher.client.once('close', () => resolve()));
    publisher.client.publish('blocks', Buffer.from('not a block'));
    await closed;
    await new Promise((r) => setTimeout(r, 500));
    expect(listener.messages.some((r) => r.payload.toString() === 'not a block')).to.equal(false);
  });

  it('a standalone gateway serves the same events as the node', async () => {
    const inNode = await connect();
    const standalone = await connect(gateway.port);
    for (const s of [inNode, standalone])
      expect(await s.subscribe(['milestone-info/confirmed', 'blocks'])).to.deep.equal([0, 0]);
    const posted = await postPayload(
      { base: `http://127.0.0.1:${gateway.port}` },
      taggedPayload('mqtt-e2e', 'standalone'),
    );
    expect(posted.status).to.equal(201);
    const isPosted = (r: Received): boolean => blake2b256Hex(r.payload) === posted.blockId;
    const [a, b] = await Promise.all([inNode.next('blocks', isPosted), standalone.next('blocks', isPosted)]);
    expect(a.payload.equals(b.payload)).to.equal(true);
    const target = index(await standalone.next('milestone-info/confirmed')) + 2;
    const [ma, mb] = await Promise.all([
      inNode.next('milestone-info/confirmed', (r) => index(r) === target),
      standalone.next('milestone-info/confirmed', (r) => index(r) === target),
    ]);
    expect(json(ma)).to.deep.equal(json(mb));
  });
});
