/**
 * The node's events (src/node/events, src/node/grpc/events.ts) through the gateway's events port (src/grpc/port.ts),
 * in process (events-port.ts) and over gRPC (the NodeEvents service read through gateway/mqtt/node-events.ts): the
 * same EventBatch messages both ways, batches per tick and in order, a stored block and its solid metadata fed from
 * the attacher, a slow reader cut off with RESOURCE_EXHAUSTED, the signal and leaving the loop ending a subscription,
 * the subscriptions ending with the bus, a subscription to a stopped node failing UNAVAILABLE; and the TIP-28 details
 * the node renders (unlock addresses, chain IDs, parents and payload bytes read from a block's bytes).
 */
import { credentials } from '@grpc/grpc-js';
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { aliasIdFromOutputId, bech32EncodeAddress, foundryId } from '../../../src/core/ids/index.ts';
import type { CommonOutput } from '../../../src/core/model/index.ts';
import { NodeEventsClient, type EventBatch } from '../../../src/grpc/gen/events.ts';
import { NodeCallError, type EventsPort } from '../../../src/grpc/port.ts';
import { GrpcStatus } from '../../../src/grpc/status.ts';
import { EventBus, type NodeEvent } from '../../../src/node/events/bus.ts';
import { parentsOfRaw, payloadBytesOfRaw } from '../../../src/node/events/feed.ts';
import { chainOf, unlockAddresses } from '../../../src/node/events/outputs.ts';
import { localEventsPort, type LocalEventsPort } from '../../../src/node/grpc/events-port.ts';
import { nodeEventsService } from '../../../src/node/grpc/events.ts';
import { startGrpcServer, type GrpcServerHandle } from '../../../src/node/grpc/server.ts';
import { eventsPortOverClient } from '../../../gateway/mqtt/node-events.ts';
import { CollectingLogger, startTestNode, type TestNode } from '../../../harness/node.ts';

const id = (n: number, len = 32): Uint8Array => new Uint8Array(len).fill(n);

/** One event of every kind. */
function everyKind(): NodeEvent[] {
  const milestone = { index: 7, timestamp: 1700000000, milestoneId: id(7) };
  return [
    { kind: 'block', blockId: id(1), raw: id(2, 60), payload: 'taggedData', tag: new Uint8Array([1, 2]) },
    { kind: 'block', blockId: id(3), raw: id(4, 60), payload: 'milestone', milestone: id(5, 20) },
    {
      kind: 'metadata',
      view: {
        blockId: id(1),
        parents: [id(8), id(9)],
        metadata: { protocolVersion: 2, solid: true, arrivalTime: 0 },
        flags: { shouldPromote: false, shouldReattach: true },
      },
    },
    {
      kind: 'metadata',
      view: {
        blockId: id(1),
        parents: [id(8)],
        metadata: {
          protocolVersion: 2,
          solid: true,
          arrivalTime: 0,
          referenced: { milestoneIndex: 7, whiteFlagIndex: 3, ledgerInclusionState: 'conflicting', conflictReason: 2 },
        },
      },
    },
    { kind: 'latest', milestone },
    {
      kind: 'created',
      outputId: id(10, 34),
      json: '{"metadata":{},"output":{}}',
      unlocks: [{ condition: 'address', address: 'rms1x' }],
      chain: { kind: 'alias', id: id(11) },
    },
    { kind: 'spent', outputId: id(12, 34), json: '{}', unlocks: [] },
    { kind: 'included', transactionId: id(13), blockId: id(14), raw: id(15, 50) },
    { kind: 'receipt', milestoneIndex: 7, json: '{"type":0}' },
    { kind: 'confirmed', milestone },
  ];
}

/** The batches a subscription delivers until `count` events arrived; then it leaves the loop. */
async function collect(batches: AsyncIterable<EventBatch>, count: number): Promise<EventBatch[]> {
  const got: EventBatch[] = [];
  let n = 0;
  for await (const b of batches) {
    got.push(b);
    n += b.events.length;
    if (n >= count) break;
  }
  return got;
}

/** Every batch until the subscription ends. */
async function all(batches: AsyncIterable<EventBatch>): Promise<EventBatch[]> {
  const got: EventBatch[] = [];
  for await (const b of batches) got.push(b);
  return got;
}

/** The NodeCallError the next read of `batches` fails with (undefined: it did not fail). */
function failure(batches: AsyncIterable<EventBatch>): Promise<NodeCallError | undefined> {
  return batches[Symbol.asyncIterator]()
    .next()
    .then(
      () => undefined,
      (err: unknown) => {
        expect(err).to.be.instanceOf(NodeCallError);
        return err as NodeCallError;
      },
    );
}

/**
 * Buffers (decoded from the wire) and the node's Uint8Arrays alike, absent and undefined fields alike, for deep
 * comparison of messages from both transports.
 */
const plain = (v: unknown): unknown => {
  if (v instanceof Uint8Array) return toHex0x(v);
  if (Array.isArray(v)) return v.map(plain);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([, x]) => x !== undefined)
      .map(([k, x]) => [k, plain(x)]),
  );
};

describe('node events: bus, gRPC service and the events port in process and over gRPC', () => {
  let bus: EventBus;
  let server: GrpcServerHandle;
  let grpcClient: NodeEventsClient;
  let overGrpc: EventsPort;
  let local: LocalEventsPort;
  let node: TestNode | undefined;
  const logger = new CollectingLogger();

  const grpcServer = (): Promise<GrpcServerHandle> =>
    startGrpcServer(node!.service, {
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [nodeEventsService(bus, logger, 8)],
    });

  beforeEach(async () => {
    bus = new EventBus();
    node = await startTestNode();
    server = await grpcServer();
    grpcClient = new NodeEventsClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    overGrpc = eventsPortOverClient(grpcClient);
    local = localEventsPort(bus, 8);
  });
  afterEach(async () => {
    grpcClient.close();
    bus.close();
    await server.close(200);
    await node?.close();
  });

  const waitForSubscribers = async (n: number): Promise<void> => {
    for (let i = 0; i < 200 && bus.subscribers !== n; i++) await new Promise((r) => setTimeout(r, 10));
    expect(bus.subscribers).to.equal(n);
  };
  const tick = () => new Promise((r) => setImmediate(r));

  it('delivers the same messages over gRPC and in process, the events of one tick as one batch', async () => {
    const streams = [overGrpc.subscribe({}), local.subscribe({})];
    await waitForSubscribers(2);
    const events = everyKind();
    const got = Promise.all(streams.map((s) => collect(s, events.length)));
    for (const e of events) bus.emit(e);
    const [a, b] = await got;
    expect(a).to.have.length(1);
    expect(b).to.have.length(1);
    expect(plain(a)).to.deep.equal(plain(b));
    const kinds = b![0]!.events.map((e) => e.kind?.$case);
    expect(kinds).to.deep.equal([
      'block',
      'block',
      'metadata',
      'metadata',
      'latestMilestone',
      'outputCreated',
      'outputSpent',
      'included',
      'receipt',
      'confirmedMilestone',
    ]);
    const md = b![0]!.events[3]!.kind;
    expect(md?.$case === 'metadata' && md.value).to.include({
      referencedByMilestoneIndex: 7,
      whiteFlagIndex: 3,
      conflictReason: 2,
    });
    await waitForSubscribers(0); // both left their loops
  });

  it('delivers the batches of successive ticks in order, over gRPC and in process', async () => {
    const streams = [overGrpc.subscribe({}), local.subscribe({})];
    await waitForSubscribers(2);
    const got = Promise.all(streams.map((s) => collect(s, 20)));
    for (let i = 0; i < 10; i++) {
      bus.emit({ kind: 'receipt', milestoneIndex: 2 * i, json: '{}' });
      bus.emit({ kind: 'receipt', milestoneIndex: 2 * i + 1, json: '{}' });
      await tick();
    }
    for (const batches of await got) {
      expect(batches).to.have.length(10);
      const indexes = batches.map((b) =>
        b.events.map((e) => (e.kind?.$case === 'receipt' ? e.kind.value.milestoneIndex : -1)),
      );
      expect(indexes).to.deep.equal([...Array(10).keys()].map((i) => [2 * i, 2 * i + 1]));
    }
  });

  it('splits a large tick into batches of at most 512 events and about 1 MiB', async () => {
    const batches: number[][] = [];
    bus.subscribe((batch) => batches.push(batch.map((e) => (e.kind === 'included' ? e.raw.length : 1))));
    for (let i = 0; i < 80; i++)
      bus.emit({ kind: 'included', transactionId: id(i), blockId: id(i), raw: new Uint8Array(32 * 1024) });
    for (let i = 0; i < 1100; i++)
      bus.emit({ kind: 'latest', milestone: { index: i, timestamp: 0, milestoneId: id(1) } });
    bus.flush();
    expect(batches.flat().length).to.equal(1180);
    for (const b of batches) expect(b.length).to.be.at.most(512);
    for (const b of batches) expect(b.reduce((x, y) => x + y, 0)).to.be.at.most(1024 * 1024);
    expect(batches.length).to.equal(5); // 31 + 31 + 18 blocks (the last with 494 more), then 512 and 94 small events
  });

  it('the subscriptions end with the bus (the node stops); nothing is built while nobody listens', async () => {
    expect(bus.active).to.equal(false);
    const streams = [overGrpc.subscribe({}), local.subscribe({})];
    await waitForSubscribers(2);
    const done = Promise.all(streams.map(all));
    bus.emit({ kind: 'receipt', milestoneIndex: 1, json: '{}' });
    bus.close();
    const ended = await done;
    expect(ended.map((batches) => batches.length)).to.deep.equal([1, 1]);
    expect(bus.active).to.equal(false);
  });

  it('cuts off a reader that does not read (RESOURCE_EXHAUSTED) and keeps serving the others', async () => {
    const slow = local.subscribe({});
    const fast = local.subscribe({});
    await waitForSubscribers(2);
    const got = collect(fast, 100);
    let midway = -1;
    for (let i = 0; i < 100; i++) {
      bus.emit({ kind: 'receipt', milestoneIndex: i, json: '{}' });
      await tick();
      if (i === 20) midway = bus.subscribers;
    }
    const err = await failure(slow);
    expect([err?.grpcCode, err?.details]).to.deep.equal([
      GrpcStatus.RESOURCE_EXHAUSTED,
      'event subscriber too slow: more than 8 batches unread',
    ]);
    expect(midway).to.equal(1);
    expect((await got).length).to.equal(100);
    expect(await all(slow)).to.deep.equal([]); // the failure is told once, then the subscription is over
  });

  it('the signal cancels a subscription (CANCELLED); leaving the loop ends it; both unsubscribe', async () => {
    const controller = new AbortController();
    const streams = [overGrpc, local].map((p) => p.subscribe({}, { signal: controller.signal }));
    await waitForSubscribers(2);
    const failed = Promise.all(streams.map(failure));
    controller.abort();
    for (const err of await failed)
      expect([err?.grpcCode, err?.details]).to.deep.equal([GrpcStatus.CANCELLED, 'Cancelled on client']);
    await waitForSubscribers(0);
    for (const err of await Promise.all([overGrpc, local].map((p) => failure(p.subscribe({}, controller)))))
      expect(err?.grpcCode).to.equal(GrpcStatus.CANCELLED); // aborted already
    const left = [overGrpc, local].map((p) => p.subscribe({})[Symbol.asyncIterator]());
    await waitForSubscribers(2);
    for (const l of left) expect(await l.return!()).to.deep.equal({ done: true, value: undefined });
    await waitForSubscribers(0);
  });

  it('a subscription to a stopped node, or through a closed client, fails UNAVAILABLE', async () => {
    local.close();
    const stopped = await grpcServer();
    const address = `127.0.0.1:${stopped.port}`;
    await stopped.close();
    const client = new NodeEventsClient(address, credentials.createInsecure());
    const closed = new NodeEventsClient(address, credentials.createInsecure());
    closed.close();
    try {
      const ports = [local, eventsPortOverClient(client), eventsPortOverClient(closed)];
      const errors = await Promise.all(ports.map((p) => failure(p.subscribe({}))));
      for (const err of errors) expect(err?.grpcCode).to.equal(GrpcStatus.UNAVAILABLE);
      expect(errors[2]?.details).to.equal('Channel has been shut down');
    } finally {
      client.close();
    }
    expect(bus.subscribers).to.equal(0);
  });

  it('feeds a stored block and its solid metadata from the attacher', async () => {
    const parts = node!.parts;
    const got = collect(localEventsPort(parts.events).subscribe({}), 2);
    const json = JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x7461', data: '0x01' }, nonce: '0' });
    const blockId = await node!.service.submitBlock({ block: { $case: 'json', value: json } });
    const events = (await got).flatMap((b) => b.events);
    const block = events.find((e) => e.kind?.$case === 'block')?.kind;
    const md = events.find((e) => e.kind?.$case === 'metadata')?.kind;
    expect(block?.$case === 'block' && toHex0x(block.value.blockId)).to.equal(toHex0x(blockId.blockId));
    expect(block?.$case === 'block' && toHex0x(block.value.tag!)).to.equal('0x7461');
    expect(md?.$case === 'metadata' && md.value).to.include({
      isSolid: true,
      shouldPromote: false,
      shouldReattach: false,
    });
    expect(parts.events.subscribers).to.equal(0);
  });
});

describe('node events: TIP-28 details rendered by the node', () => {
  it('reads parents and the payload from a block’s bytes', () => {
    const raw = encodeBlock({
      protocolVersion: 2,
      parents: [id(1), id(2)],
      payload: { type: 5, tag: new Uint8Array([9]), data: new Uint8Array([8, 7]) },
      nonce: 5n,
    });
    expect(parentsOfRaw(raw).map(toHex0x)).to.deep.equal([toHex0x(id(1)), toHex0x(id(2))]);
    // tagged data: type u32, tag length u8, tag, data length u32, data
    expect([...payloadBytesOfRaw(raw)]).to.deep.equal([5, 0, 0, 0, 1, 9, 2, 0, 0, 0, 8, 7]);
  });

  it('names unlock addresses by their TIP-28 condition and resolves implicit chain IDs', () => {
    const ed = { type: 0 as const, pubKeyHash: id(3) };
    const alias = { type: 8 as const, aliasId: id(4) };
    const basic: CommonOutput = {
      type: 3,
      amount: 1n,
      nativeTokens: [],
      unlockConditions: [
        { type: 0, address: ed },
        { type: 1, returnAddress: alias, amount: 1n },
        { type: 2, unixTime: 1 },
        { type: 3, returnAddress: ed, unixTime: 2 },
      ],
      features: [],
    };
    expect(unlockAddresses(basic, 'rms')).to.deep.equal([
      { condition: 'address', address: bech32EncodeAddress('rms', ed) },
      { condition: 'storage-return', address: bech32EncodeAddress('rms', alias) },
      { condition: 'expiration', address: bech32EncodeAddress('rms', ed) },
    ]);
    const outputId = id(6, 34);
    const aliasOut: CommonOutput = {
      type: 4,
      amount: 1n,
      nativeTokens: [],
      aliasId: new Uint8Array(32),
      stateIndex: 0,
      stateMetadata: new Uint8Array(0),
      foundryCounter: 0,
      unlockConditions: [
        { type: 4, address: ed },
        { type: 5, address: ed },
      ],
      features: [],
      immutableFeatures: [],
    };
    expect(toHex0x(chainOf(outputId, aliasOut)!.id)).to.equal(toHex0x(aliasIdFromOutputId(outputId)));
    expect(unlockAddresses(aliasOut, 'rms').map((u) => u.condition)).to.deep.equal(['state-controller', 'governor']);
    const foundry: CommonOutput = {
      type: 5,
      amount: 1n,
      nativeTokens: [],
      serialNumber: 3,
      tokenScheme: { type: 0, mintedTokens: 0n, meltedTokens: 0n, maximumSupply: 10n },
      unlockConditions: [{ type: 6, address: alias }],
      features: [],
      immutableFeatures: [],
    };
    expect(chainOf(outputId, foundry)).to.deep.equal({ kind: 'foundry', id: foundryId(id(4), 3, 0) });
    expect(chainOf(outputId, basic)).to.equal(undefined);
  });
});
