/**
 * The node's events (src/node/events, src/node/grpc/events.ts, in-process-events.ts): the same EventBatch messages
 * over real gRPC and over the in-process transport, batches per tick, a stored block and its solid metadata fed from
 * the attacher, a slow reader cut off with RESOURCE_EXHAUSTED, the streams ending with the bus; and the TIP-28
 * details the node renders (unlock addresses, chain IDs, parents and payload bytes read from a block's bytes).
 */
import { status as Status, type ClientReadableStream, type ServiceError } from '@grpc/grpc-js';
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { aliasIdFromOutputId, bech32EncodeAddress, foundryId } from '../../../src/core/ids/index.ts';
import type { CommonOutput } from '../../../src/core/model/index.ts';
import { NodeEventsClient, type EventBatch } from '../../../src/grpc/gen/events.ts';
import { EventBus, type NodeEvent } from '../../../src/node/events/bus.ts';
import { parentsOfRaw, payloadBytesOfRaw } from '../../../src/node/events/feed.ts';
import { chainOf, unlockAddresses } from '../../../src/node/events/outputs.ts';
import { nodeEventsService } from '../../../src/node/grpc/events.ts';
import { InProcessEventsServer } from '../../../src/node/grpc/in-process-events.ts';
import { startGrpcServer, type GrpcServerHandle } from '../../../src/node/grpc/server.ts';
import { credentials } from '@grpc/grpc-js';
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

/** Every batch a stream delivers until `count` events arrived. */
function collect(stream: ClientReadableStream<EventBatch>, count: number): Promise<EventBatch[]> {
  const batches: EventBatch[] = [];
  let n = 0;
  return new Promise((resolve, reject) => {
    stream.on('data', (b: EventBatch) => {
      batches.push(b);
      n += b.events.length;
      if (n >= count) resolve(batches);
    });
    stream.on('error', reject);
  });
}

/** Buffers and Uint8Arrays alike, for deep comparison of messages from both transports. */
const plain = (v: unknown): unknown =>
  JSON.parse(JSON.stringify(v, (_k, x: unknown) => (x instanceof Uint8Array ? toHex0x(x) : x)));

describe('node events: bus, gRPC service and in-process transport', () => {
  let bus: EventBus;
  let server: GrpcServerHandle;
  let grpcClient: NodeEventsClient;
  let inProcess: InProcessEventsServer;
  let node: TestNode | undefined;

  beforeEach(async () => {
    bus = new EventBus();
    const logger = new CollectingLogger();
    node = await startTestNode();
    server = await startGrpcServer(node.service, {
      host: '127.0.0.1',
      port: 0,
      logger,
      services: [nodeEventsService(bus, logger, 8)],
    });
    grpcClient = new NodeEventsClient(`127.0.0.1:${server.port}`, credentials.createInsecure());
    inProcess = new InProcessEventsServer(bus, 8);
  });
  afterEach(async () => {
    grpcClient.close();
    bus.close();
    await server.close(200);
    await node?.close();
  });

  const waitForSubscribers = async (n: number): Promise<void> => {
    for (let i = 0; i < 200 && bus.subscribers < n; i++) await new Promise((r) => setTimeout(r, 10));
    expect(bus.subscribers).to.equal(n);
  };

  it('delivers the same messages over gRPC and in process, the events of one tick as one batch', async () => {
    const overGrpc = grpcClient.subscribe({});
    const local = inProcess.createClient().subscribe({});
    await waitForSubscribers(2);
    const events = everyKind();
    const got = Promise.all([collect(overGrpc, events.length), collect(local, events.length)]);
    for (const e of events) bus.emit(e);
    const [a, b] = await got;
    expect(a).to.have.length(1);
    expect(b).to.have.length(1);
    expect(plain(a)).to.deep.equal(plain(b));
    const kinds = b[0]!.events.map((e) => e.kind?.$case);
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
    const md = b[0]!.events[3]!.kind;
    expect(md?.$case === 'metadata' && md.value).to.include({
      referencedByMilestoneIndex: 7,
      whiteFlagIndex: 3,
      conflictReason: 2,
    });
    overGrpc.cancel();
    local.cancel();
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

  it('the streams end with the bus (status OK); nothing is built while nobody listens', async () => {
    expect(bus.active).to.equal(false);
    const overGrpc = grpcClient.subscribe({});
    const local = inProcess.createClient().subscribe({});
    await waitForSubscribers(2);
    const ended = (s: ClientReadableStream<EventBatch>): Promise<number> =>
      new Promise((resolve, reject) => {
        let code = -1;
        s.on('status', (st: { code: number }) => (code = st.code));
        s.on('data', () => undefined);
        s.on('end', () => setImmediate(() => resolve(code)));
        s.on('error', reject);
      });
    const done = Promise.all([ended(overGrpc), ended(local)]);
    bus.close();
    expect(await done).to.deep.equal([Status.OK, Status.OK]);
    expect(bus.active).to.equal(false);
  });

  it('cuts off a reader that does not read (RESOURCE_EXHAUSTED) and keeps serving the others', async () => {
    const slow = inProcess.createClient().subscribe({});
    slow.pause();
    const fast = inProcess.createClient().subscribe({});
    await waitForSubscribers(2);
    const failed = new Promise<ServiceError>((resolve) => slow.once('error', resolve));
    const got = collect(fast, 100);
    for (let i = 0; i < 100; i++) {
      bus.emit({ kind: 'receipt', milestoneIndex: i, json: '{}' });
      await new Promise((r) => setImmediate(r));
    }
    const err = await failed;
    expect(err.code).to.equal(Status.RESOURCE_EXHAUSTED);
    expect((await got).length).to.equal(100);
    expect(bus.subscribers).to.equal(1);
    fast.cancel();
  });

  it('feeds a stored block and its solid metadata from the attacher', async () => {
    const parts = node!.parts;
    const nodeBus = new InProcessEventsServer(parts.events).createClient().subscribe({});
    const got = collect(nodeBus, 2);
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
    nodeBus.on('error', () => undefined);
    nodeBus.cancel();
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
