/**
 * A composed node that dials a static peer (over an in-memory link) on a clock of the test: cut off while its peer is
 * not connected or silent past `peerSilenceSeconds` (unhealthy with the reason, SubmitBlock and the gRPC status
 * UNAVAILABLE with NODE_NOT_SYNCED, the reason and Retry-After), back once the peer is heard again; each change is
 * logged once. A node without its own coordinator measures the network's milestone interval from the timestamps of
 * the last confirmed milestones.
 */
import { expect } from 'chai';
import type { ServiceError } from '@grpc/grpc-js';
import type { SubmitBlockRequest } from '../../../src/grpc/gen/node.ts';
import { parseServiceError, GrpcStatus } from '../../../src/grpc/status.ts';
import { devGenesis, genesisFromJson } from '../../../src/node/genesis/genesis.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import { CollectingLogger, startTestNode, type TestNode } from '../../../harness/node.ts';
import { TestPeer } from '../../../harness/peer-handshake.ts';
import { heartbeat, MemLink, tagged } from '../peering/support.ts';
import { devGenesisJson, harness } from '../ledger/support.ts';
import { until } from '../support.ts';

const NETWORK = 'cut-off-test';
const GENESIS_S = 1_700_000_000;

describe('a node that dials peers knows when it is cut off', function () {
  this.timeout(10_000);
  let clock: number;
  let node: TestNode | undefined;
  let links: MemLink[];
  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  async function start(): Promise<TestNode> {
    clock = GENESIS_S * 1000 + 1000;
    links = [];
    const genesis = devGenesis({ minPowScore: 0, timestamp: GENESIS_S });
    genesis.protocol.networkName = NETWORK;
    node = await startTestNode({
      genesis,
      tipPools: URTS_DEFAULTS,
      compose: {
        now: () => clock,
        peering: {
          peers: ['127.0.0.1:7'],
          tickMs: 10,
          heartbeatMs: 50,
          now: () => clock,
          dial: (address) => links[links.push(new MemLink(address, false)) - 1]!,
        },
      },
      start: 'peering',
    });
    return node;
  }

  /** The static peer answers the handshake and sends a heartbeat. */
  async function peerAnswers(): Promise<MemLink> {
    await until('dialed', () => links.length > 0);
    const link = links[links.length - 1]!;
    const peer = new TestPeer();
    link.deliver(peer.hello(NETWORK));
    link.deliver(peer.proof(NETWORK, link.first('handshake')));
    link.deliver(heartbeat());
    return link;
  }

  let n = 0;
  const block = (sep: Uint8Array): SubmitBlockRequest => ({ block: { $case: 'raw', value: tagged([sep], ++n).bytes } });

  async function refusal(t: TestNode): Promise<NodeError> {
    const sep = t.testing.protocol.solidEntryPoints[0]!;
    const err = await t.service.submitBlock(block(sep)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(NodeError);
    return err as NodeError;
  }

  it('refuses submissions until its peer is heard, again once it falls silent, and takes them when heard', async () => {
    const t = await start();
    const sep = t.testing.protocol.solidEntryPoints[0]!;
    let err = await refusal(t);
    expect([err.code, err.retryAfterSeconds]).to.deep.equal(['NODE_NOT_SYNCED', 5]);
    expect(err.message).to.equal(
      'node is not synced: it is cut off from its network (no live peer: none of its configured peers is connected)',
    );
    let info = await t.service.getInfo();
    expect(info.status?.isHealthy).to.equal(false);
    expect(info.status?.healthReasons).to.include('no live peer: none of its configured peers is connected');

    const link = await peerAnswers();
    info = await t.service.getInfo();
    expect([info.status?.isHealthy, info.status?.healthReasons]).to.deep.equal([true, []]);
    expect((await t.service.submitBlock(block(sep))).blockId).to.have.length(32);

    clock += 5_000; // silent for exactly the bound: still live
    expect((await t.testing.status.health()).healthy).to.equal(true);
    clock += 1_000;
    err = await refusal(t);
    expect(err.message).to.equal(
      'node is not synced: it is cut off from its network ' +
        '(no live peer: no heartbeat from its 1 connected peer(s) for 6 s (at most 5 s))',
    );
    // through gRPC: UNAVAILABLE with the code, the reason and the retry hint in the details trailer
    const failed = await new Promise<ServiceError | undefined>((resolve) =>
      t.client.submitBlock(block(sep), (e) => resolve(e ?? undefined)),
    );
    const parsed = parseServiceError(failed!);
    expect([parsed.grpcCode, parsed.code, parsed.retryAfterSeconds]).to.deep.equal([
      GrpcStatus.UNAVAILABLE,
      'NODE_NOT_SYNCED',
      5,
    ]);
    expect(parsed.message).to.contain('cut off from its network (no live peer');

    link.deliver(heartbeat());
    expect((await t.testing.status.health()).healthy).to.equal(true);
    expect((await t.service.submitBlock(block(sep))).blockId).to.have.length(32);

    link.end('the peer went away');
    await until('disconnected', () => t.testing.peering.connectedPeers() === 0);
    expect((await refusal(t)).message).to.contain('none of its configured peers is connected');
  });

  it('logs each change once: cut off with the reason, then healthy and accepting again', async () => {
    const t = await start();
    const logger = new CollectingLogger();
    const stop = t.testing.status.watch(logger, 5);
    try {
      const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 40));
      await settle();
      await settle(); // no new line while nothing changes
      await peerAnswers();
      await until('healthy logged', () => logger.lines.length === 2);
      clock += 10_000;
      await until('silence logged', () => logger.lines.length === 3);
      await settle();
      clock += 10_000; // the silence grows: the same reason, no new line
      await settle();
    } finally {
      stop();
    }
    expect(logger.lines).to.deep.equal([
      'WARN node unhealthy: catching up with its peers; no live peer: none of its configured peers is connected; ' +
        'submissions refused until it is back in sync',
      'INFO node healthy again; submissions accepted again',
      'WARN node unhealthy: no live peer: no heartbeat from its 1 connected peer(s) for 10 s (at most 5 s); ' +
        'submissions refused until it is back in sync',
    ]);
  });

  it("learns the network's milestone interval from the last confirmed milestones' timestamps", async () => {
    let now = Date.now();
    // the genesis milestone too, 2 s before the first
    const genesis = genesisFromJson(devGenesisJson({ minPowScore: 0, timestamp: Math.floor(now / 1000) }));
    const coordinated = await harness({ now: () => now, genesis });
    for (let i = 0; i < 6; i++) {
      now += 2_000;
      await coordinated.coordinator.issue();
    }
    await coordinated.close();
    // the same store, without the coordinator: the bound is 3 learned intervals (2 s each), at least 1 s
    node = await startTestNode({
      kv: coordinated.kv,
      genesis: coordinated.genesis,
      compose: { now: () => now, health: { milestoneIntervals: 3, minMilestoneAgeSeconds: 1 } },
      start: 'milestones',
    });
    now += 5_000;
    expect((await node.testing.status.health()).healthy).to.equal(true);
    now += 2_000;
    const h = await node.testing.status.health();
    expect(h.reasons).to.deep.equal(['the latest milestone (6) is 7 s old, more than the 6 s allowed']);
    expect(h.cutOff).to.equal(false); // no static peers: never cut off
    expect(await node.testing.status.refusal()).to.equal(undefined);
  });
});
