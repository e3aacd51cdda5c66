/**
 * The event API's bounds on one connection (gateway/mqtt/packet-guard.ts, mount.ts): the MQTT packet size limit, read
 * from each fixed header as the bytes stream by (a packet announcing more than `maxPacketBytes` terminates the
 * connection before its body is buffered, before or after CONNECT, on public and protected routes), and the WebSocket
 * ping that terminates a connection leaving a ping unanswered (a half-open one). Driven with raw `ws` clients.
 */
import { expect } from 'chai';
import mqttPacket from 'mqtt-packet';
import { PassThrough } from 'node:stream';
import { WebSocket, type ClientOptions } from 'ws';
import { PacketGuard, PacketScanner } from '../../gateway/mqtt/packet-guard.ts';
import { startGateway, type RunningGateway, type StartGatewayOptions } from '../../gateway/index.ts';
import { EventBus } from '../../src/node/events/bus.ts';
import { inProcess } from './harness.ts';
import { localEventsPort } from '../../src/node/grpc/events-port.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An MQTT fixed header: the type byte and the remaining length (1-4 bytes). */
function fixedHeader(type: number, length: number): Buffer {
  const bytes = [type];
  do {
    let b = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) b |= 0x80;
    bytes.push(b);
  } while (length > 0);
  return Buffer.from(bytes);
}

const PUBLISH = 0x30;
const HUGE = 200 * 1024 * 1024;
const CONNECT = mqttPacket.generate({
  cmd: 'connect',
  protocolId: 'MQTT',
  protocolVersion: 4,
  clean: true,
  clientId: 'guard-test',
  keepalive: 0,
});

describe('gateway mqtt: the packet scanner', () => {
  const scan = (max: number, ...chunks: number[][]): string | undefined => {
    const s = new PacketScanner(max);
    for (const c of chunks) {
      const r = s.feed(Uint8Array.from(c));
      if (r !== undefined) return r;
    }
    return undefined;
  };

  it('lets packets up to the limit through, whole or split anywhere', () => {
    const packets = Buffer.concat([
      CONNECT,
      fixedHeader(0xc0, 0),
      fixedHeader(0x82, 100),
      Buffer.alloc(100),
      fixedHeader(0x82, 127),
      Buffer.alloc(127),
    ]);
    expect(scan(127, [...packets])).to.equal(undefined);
    expect(scan(127, ...[...packets].map((b) => [b]))).to.equal(undefined);
    const big = Buffer.concat([fixedHeader(0x82, 16_384), Buffer.alloc(16_384), fixedHeader(0xc0, 0)]);
    expect(scan(16_384, [...big.subarray(0, 2)], [...big.subarray(2, 5000)], [...big.subarray(5000)])).to.equal(
      undefined,
    );
  });

  it('refuses a packet over the limit at its header, its length split or not', () => {
    expect(scan(127, [...fixedHeader(0x82, 128)])).to.match(/at least 128 bytes \(at most 127\)/);
    const huge = [...fixedHeader(PUBLISH, HUGE)];
    expect(huge).to.have.length(5);
    expect(scan(65_536, huge)).to.match(/MQTT packet of at least/);
    expect(scan(65_536, huge.slice(0, 3), huge.slice(3))).to.match(/MQTT packet of at least/);
    // the packet after a good one
    expect(
      scan(10, [...fixedHeader(0xc0, 0), ...fixedHeader(0x82, 10), ...Buffer.alloc(10), ...fixedHeader(PUBLISH, 11)]),
    ).to.match(/at least 11/);
  });

  it('refuses a remaining length of more than 4 bytes', () => {
    expect(scan(Number.MAX_SAFE_INTEGER, [PUBLISH, 0x80, 0x80, 0x80, 0x80, 0x01])).to.equal(
      'a malformed MQTT remaining length',
    );
  });

  it('the guard passes nothing of an oversized packet on, and destroys both streams', async () => {
    const inner = new PassThrough();
    const refused: string[] = [];
    const guard = new PacketGuard(inner, new PacketScanner(65_536), (r) => refused.push(r));
    const seen: Buffer[] = [];
    guard.on('data', (c: Buffer) => seen.push(c));
    guard.on('error', () => undefined);
    inner.write(CONNECT);
    await sleep(10);
    inner.write(fixedHeader(PUBLISH, HUGE));
    for (let i = 0; i < 10 && !inner.destroyed; i++) inner.write(Buffer.alloc(60_000));
    await sleep(10);
    expect(Buffer.concat(seen)).to.deep.equal(CONNECT);
    expect(refused).to.have.length(1);
    expect(guard.destroyed && inner.destroyed).to.equal(true);
  });
});

describe('gateway mqtt: bounds of one connection', function () {
  this.timeout(30_000);
  let bus: EventBus;
  let gw: RunningGateway | undefined;
  const sockets: WebSocket[] = [];

  const start = async (extra: Partial<StartGatewayOptions> = {}): Promise<RunningGateway> => {
    gw = await startGateway({
      node: inProcess({}).connect().port,
      events: localEventsPort(bus),
      port: 0,
      log: () => undefined,
      ...extra,
    } as StartGatewayOptions);
    return gw;
  };
  /** A raw WebSocket to the event API, once open; `closedAt` set when it closes. */
  const open = async (
    g: RunningGateway,
    options: ClientOptions = {},
  ): Promise<WebSocket & { closedAt?: number; received: Buffer[] }> => {
    const ws = Object.assign(new WebSocket(`ws://127.0.0.1:${g.port}/api/mqtt/v1`, 'mqtt', options), {
      received: [] as Buffer[],
    }) as WebSocket & { closedAt?: number; received: Buffer[] };
    sockets.push(ws);
    ws.on('error', () => undefined);
    ws.on('message', (m: Buffer) => ws.received.push(m));
    ws.on('close', () => (ws.closedAt = Date.now()));
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('unexpected-response', () => reject(new Error('upgrade refused')));
    });
    return ws;
  };
  const until = async (ok: () => boolean, ms: number): Promise<boolean> => {
    for (const end = Date.now() + ms; !ok() && Date.now() < end; ) await sleep(5);
    return ok();
  };
  /** Announces a 200 MB PUBLISH, then streams it in 60 KB WebSocket messages until closed or `ms` passed. */
  const stream = async (ws: WebSocket, ms: number): Promise<number> => {
    ws.send(fixedHeader(PUBLISH, HUGE));
    let sent = 0;
    for (const end = Date.now() + ms; ws.readyState === WebSocket.OPEN && Date.now() < end; ) {
      if (ws.bufferedAmount < 1024 * 1024) {
        ws.send(Buffer.alloc(60_000));
        sent += 60_000;
      } else await sleep(1);
    }
    return sent;
  };

  beforeEach(() => {
    bus = new EventBus();
  });
  afterEach(async () => {
    for (const ws of sockets.splice(0)) ws.terminate();
    await gw?.close();
    gw = undefined;
    bus.close();
  });

  it('an oversized packet before CONNECT: the connection is terminated at once and nothing is retained', async () => {
    const g = await start();
    const before = process.memoryUsage().rss;
    const conns = await Promise.all([1, 2, 3, 4].map(() => open(g)));
    const t0 = Date.now();
    await Promise.all(conns.map((ws) => stream(ws, 3000)));
    expect(await until(() => conns.every((ws) => ws.closedAt !== undefined), 2000)).to.equal(true);
    for (const ws of conns) expect(ws.closedAt! - t0).to.be.below(1000);
    expect(process.memoryUsage().rss - before).to.be.below(64 * 1024 * 1024);
    expect(await until(() => g.events.mqtt!.stats().connections === 0, 2000)).to.equal(true);
    expect(g.events.mqtt!.stats().oversizedPackets).to.equal(4);
  });

  it('after CONNECT too; packets split over many messages within the limit pass', async () => {
    const g = await start();
    const ws = await open(g);
    for (const b of CONNECT) ws.send(Buffer.of(b));
    const got = (): number[] => [...Buffer.concat(ws.received)];
    expect(await until(() => got().length >= 4, 2000)).to.equal(true);
    expect(got()).to.deep.equal([0x20, 2, 0, 0]); // CONNACK, accepted
    const subscribe = mqttPacket.generate({
      cmd: 'subscribe',
      messageId: 7,
      subscriptions: [{ topic: 'milestones', qos: 0 }],
    });
    ws.send(subscribe.subarray(0, 1));
    ws.send(subscribe.subarray(1, 3));
    ws.send(subscribe.subarray(3));
    expect(await until(() => got().length >= 9, 2000)).to.equal(true);
    expect(got().slice(4)).to.deep.equal([0x90, 3, 0, 7, 0]); // SUBACK, granted QoS 0
    const t0 = Date.now();
    await stream(ws, 3000);
    expect(ws.closedAt).to.not.equal(undefined);
    expect(ws.closedAt! - t0).to.be.below(1000);
  });

  it('on a protected route before the token is checked; the limit is an option', async () => {
    const g = await start({
      publicRoutes: ['/health'],
      protectedRoutes: ['/api/*'],
      jwtSecret: 'guard-secret',
      mqtt: { maxPacketBytes: 1000 },
    });
    const ws = await open(g);
    const t0 = Date.now();
    await stream(ws, 3000);
    expect(ws.closedAt! - t0).to.be.below(1000);
    const [within, over] = await Promise.all([open(g), open(g)]);
    // a packet in the limit, not complete yet
    within.send(Buffer.concat([fixedHeader(0x82, 1000), Buffer.alloc(800, 0x61)]));
    over.send(fixedHeader(0x82, 1001));
    expect(await until(() => over.closedAt !== undefined, 1000)).to.equal(true);
    await sleep(100);
    expect(within.readyState).to.equal(WebSocket.OPEN);
  });

  it('a connection leaving a ping unanswered is terminated; one answering stays', async () => {
    const g = await start({ mqtt: { pingIntervalMs: 100 } });
    const answering = await open(g);
    const silent = await open(g, { autoPong: false });
    const t0 = Date.now();
    expect(await until(() => silent.closedAt !== undefined, 1000)).to.equal(true);
    expect(silent.closedAt! - t0).to.be.below(400);
    await sleep(300);
    expect(answering.readyState).to.equal(WebSocket.OPEN);
    expect(g.events.mqtt!.stats().unansweredPings).to.equal(1);
  });
});
