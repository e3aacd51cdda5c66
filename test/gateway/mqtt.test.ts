/**
 * The gateway's event API (gateway/mqtt) against a fake node: an in-process NodeService with a few handlers and an
 * event bus whose events the test emits. Driven by the real `mqtt` client over WebSocket: every TIP-28 topic an event
 * belongs to with inx-mqtt's payloads, the current state on subscribe, the `+` condition once per address, the
 * limits (subscriptions, connections, a slow subscriber cut off), JWT protection, and the refused upgrade paths.
 */
import { expect } from 'chai';
import mqttPacket from 'mqtt-packet';
import { WebSocket } from 'ws';
import { toHex0x } from '../../src/core/bytes.ts';
import { bech32EncodeAddress } from '../../src/core/ids/index.ts';
import { EventBus } from '../../src/node/events/bus.ts';
import { inProcess, type NodeEndpoint } from './harness.ts';
import { localEventsPort } from '../../src/node/grpc/events-port.ts';
import { signJwtHs256, startGateway, type RunningGateway, type StartGatewayOptions } from '../../gateway/index.ts';
import { json, subscriber, type Subscriber } from '../e2e/events/support.ts';

const id = (n: number, len = 32): Uint8Array => new Uint8Array(len).fill(n);
const A = bech32EncodeAddress('rms', { type: 0, pubKeyHash: id(1) });
const B = bech32EncodeAddress('rms', { type: 8, aliasId: id(2) });
const milestone = { index: 12, timestamp: 1700000012, milestoneId: id(12) };
const SECRET = 'mqtt-test-secret';

const answer = (value: unknown) => async () => value as never;

/** The fake node: GetInfo (HRP and milestones), GetBlockMetadata, GetOutput. */
function fakeNode(): NodeEndpoint {
  return inProcess({
    getInfo: answer({
      status: { isHealthy: true, latestMilestone: milestone, confirmedMilestone: milestone, healthReasons: [] },
      protocol: { bech32Hrp: 'rms' },
    }),
    getBlockMetadata: answer({
      blockId: id(20),
      parents: [id(21)],
      isSolid: true,
      ledgerInclusionState: 0,
      shouldPromote: false,
      shouldReattach: false,
    }),
    getOutput: answer({ outputId: OUTPUT_ID, json: '{"metadata":{"outputIndex":0},"output":{"type":3}}' }),
  });
}

/** The HTTP status a WebSocket upgrade of `url` is answered with (101 when it is accepted). */
function upgradeStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise<number>((resolve) => {
    const ws = new WebSocket(url, 'mqtt', { headers });
    ws.on('unexpected-response', (_req, r) => resolve(r.statusCode ?? 0));
    ws.on('open', () => {
      ws.terminate();
      resolve(101);
    });
    ws.on('error', () => undefined);
  });
}

const OUTPUT_ID = new Uint8Array([...id(30), 0, 0]);

describe('gateway: the TIP-28 event API', function () {
  this.timeout(30_000);
  let bus: EventBus;
  const gateways: RunningGateway[] = [];
  const clients: Subscriber[] = [];

  const start = async (extra: Partial<StartGatewayOptions> = {}): Promise<RunningGateway> => {
    const gw = await startGateway({
      node: fakeNode().connect().port,
      events: localEventsPort(bus),
      port: 0,
      log: () => undefined,
      ...extra,
    } as StartGatewayOptions);
    gateways.push(gw);
    for (let i = 0; i < 100 && bus.subscribers < gateways.length; i++) await new Promise((r) => setTimeout(r, 10));
    return gw;
  };
  const connect = async (gw: RunningGateway, options = {}): Promise<Subscriber> => {
    const s = await subscriber(`ws://127.0.0.1:${gw.port}/api/mqtt/v1`, options);
    clients.push(s);
    return s;
  };

  beforeEach(() => {
    bus = new EventBus();
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close().catch(() => undefined);
    for (const g of gateways.splice(0)) await g.close();
    bus.close();
  });

  it('publishes each event on its topics with inx-mqtt’s payloads; `+` once per address', async () => {
    const gw = await start();
    const s = await connect(gw);
    const tag = '0x6869';
    const topics = [
      'blocks/transaction',
      `blocks/transaction/tagged-data/${tag}`,
      'block-metadata/referenced',
      `outputs/unlock/address/${A}`,
      `outputs/unlock/storage-return/${A}`,
      `outputs/unlock/+/${A}`,
      `outputs/unlock/+/${B}/spent`,
      `outputs/alias/${toHex0x(id(9))}`,
      `transactions/${toHex0x(id(13))}/included-block`,
      'receipts',
    ];
    expect(await s.subscribe(topics)).to.deep.equal(topics.map(() => 0));
    bus.emit({
      kind: 'block',
      blockId: id(1),
      raw: id(2, 40),
      payload: 'transaction',
      tag: new Uint8Array([0x68, 0x69]),
    });
    bus.emit({
      kind: 'metadata',
      view: {
        blockId: id(3),
        parents: [id(4)],
        metadata: {
          protocolVersion: 2,
          solid: true,
          arrivalTime: 0,
          referenced: { milestoneIndex: 12, whiteFlagIndex: 0, ledgerInclusionState: 'included', conflictReason: 0 },
        },
      },
    });
    const unlocks = [
      { condition: 'address' as const, address: A },
      { condition: 'storage-return' as const, address: A },
      { condition: 'expiration' as const, address: B },
    ];
    bus.emit({ kind: 'created', outputId: id(5, 34), json: '{"n":1}', unlocks, chain: { kind: 'alias', id: id(9) } });
    bus.emit({ kind: 'spent', outputId: id(6, 34), json: '{"n":2}', unlocks });
    bus.emit({ kind: 'included', transactionId: id(13), blockId: id(14), raw: id(15, 30) });
    bus.emit({ kind: 'receipt', milestoneIndex: 12, json: '{"migratedAt":3}' });
    await s.next('receipts');
    await new Promise((r) => setTimeout(r, 100));
    const count = (t: string): number => s.messages.filter((m) => m.topic === t).length;
    expect(topics.map(count)).to.deep.equal(topics.map(() => 1));
    expect((await s.next(`blocks/transaction/tagged-data/${tag}`)).payload.equals(Buffer.from(id(2, 40)))).to.equal(
      true,
    );
    expect(json(await s.next('block-metadata/referenced'))).to.deep.equal({
      blockId: toHex0x(id(3)),
      parentBlockIds: [toHex0x(id(4))],
      isSolid: true,
      referencedByMilestoneIndex: 12,
      ledgerInclusionState: 'included',
      whiteFlagIndex: 0,
    });
    expect(json(await s.next(`outputs/unlock/+/${A}`))).to.deep.equal({ n: 1 });
    expect(json(await s.next(`outputs/unlock/+/${B}/spent`))).to.deep.equal({ n: 2 });
    expect(json(await s.next(`outputs/alias/${toHex0x(id(9))}`))).to.deep.equal({ n: 1 });
  });

  it('speaks MQTT 3.1.1 and 3.1 (TIP-28); MQTT 5 is refused in the CONNACK', async () => {
    const gw = await start();
    const v3 = await connect(gw, { protocolVersion: 3, protocolId: 'MQIsdp' });
    expect(await v3.subscribe(['blocks'])).to.deep.equal([0]);
    bus.emit({ kind: 'block', blockId: id(1), raw: id(7, 50), payload: 'none' });
    expect((await v3.next('blocks')).payload.equals(Buffer.from(id(7, 50)))).to.equal(true);
    const v5 = await subscriber(`ws://127.0.0.1:${gw.port}/api/mqtt/v1`, { protocolVersion: 5 }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(v5?.message).to.match(/Unacceptable protocol version/);
  });

  it('sends the current state on subscribe: milestone info, block metadata, an output', async () => {
    const gw = await start();
    const s = await connect(gw);
    const topics = [
      'milestone-info/latest',
      'milestone-info/confirmed',
      `block-metadata/${toHex0x(id(20))}`,
      `outputs/${toHex0x(OUTPUT_ID)}`,
    ];
    expect(await s.subscribe(topics)).to.deep.equal([0, 0, 0, 0]);
    expect(json(await s.next('milestone-info/latest'))).to.deep.equal({
      index: 12,
      timestamp: 1700000012,
      milestoneId: toHex0x(id(12)),
    });
    expect(json(await s.next(`block-metadata/${toHex0x(id(20))}`))).to.include({ isSolid: true, shouldPromote: false });
    expect(json(await s.next(`outputs/${toHex0x(OUTPUT_ID)}`))).to.deep.equal({
      metadata: { outputIndex: 0 },
      output: { type: 3 },
    });
    await s.next('milestone-info/confirmed');
  });

  it('limits subscriptions per connection and connections at once', async () => {
    const gw = await start({ mqtt: { maxSubscriptions: 2, maxConnections: 2 } });
    const s = await connect(gw);
    expect(await s.subscribe(['blocks', 'receipts', 'milestones'])).to.deep.equal([0, 0, 128]);
    await connect(gw);
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/api/mqtt/v1`)).to.equal(503);
  });

  it('cuts off a subscriber that does not read; the others get every message', async () => {
    const gw = await start({ mqtt: { maxBufferedBytes: 256 * 1024 } });
    const fast = await connect(gw);
    expect(await fast.subscribe(['blocks'])).to.deep.equal([0]);
    // a raw WebSocket MQTT client that subscribes and then stops reading
    const ws = new WebSocket(`ws://127.0.0.1:${gw.port}/api/mqtt/v1`, 'mqtt');
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(
      mqttPacket.generate({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 4,
        clean: true,
        clientId: 'slow',
        keepalive: 0,
      }),
    );
    ws.send(mqttPacket.generate({ cmd: 'subscribe', messageId: 1, subscriptions: [{ topic: 'blocks', qos: 0 }] }));
    await new Promise<void>((resolve) => ws.once('message', () => resolve())); // CONNACK
    await new Promise((r) => setTimeout(r, 100));
    ws.pause();
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    const n = 400;
    for (let i = 0; i < n; i++) {
      bus.emit({ kind: 'block', blockId: id(i % 256), raw: new Uint8Array(32 * 1024).fill(i % 256), payload: 'none' });
      await new Promise((r) => setImmediate(r));
    }
    await fast.next('blocks', () => fast.messages.length >= n, 20_000);
    expect(gw.events.mqtt!.stats().cutOff).to.equal(1);
    ws.resume();
    await closed;
  });

  it('protected: the CONNECT password or the upgrade’s Authorization header carries the JWT', async () => {
    const gw = await start({ publicRoutes: ['/health'], protectedRoutes: ['/api/*'], jwtSecret: SECRET });
    const token = signJwtHs256({ sub: 'tester', iat: Math.floor(Date.now() / 1000) }, SECRET);
    const url = `ws://127.0.0.1:${gw.port}/api/mqtt/v1`;
    const refused = await subscriber(url).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(refused?.message).to.match(/Not authorized/i);
    const withPassword = await connect(gw, { username: 'jwt', password: token });
    expect(await withPassword.subscribe(['blocks'])).to.deep.equal([0]);
    const withHeader = await connect(gw, { wsOptions: { headers: { authorization: `Bearer ${token}` } } });
    expect(await withHeader.subscribe(['blocks'])).to.deep.equal([0]);
    expect(await upgradeStatus(url, { authorization: 'Bearer nope' })).to.equal(403);
  });

  it('refuses WebSocket upgrades on other paths with 404', async () => {
    const gw = await start();
    expect(await upgradeStatus(`ws://127.0.0.1:${gw.port}/api/mqtt/v2`)).to.equal(404);
  });
});
