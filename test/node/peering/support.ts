/**
 * The peer layer of a node under test over in-memory links: a link the test drives as the remote peer, the messages a
 * peer sends, and a node (harness/node.ts `startTestNode`) whose peer layer runs with fast ticks and heartbeats.
 */
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockId as blockIdOf } from '../../../src/core/ids/index.ts';
import type { NodeStore } from '../../../src/core/store/index.ts';
import { BlockVersion, type PeerMessage } from '../../../src/grpc/gen/peer.ts';
import type { TestSurface } from '../../../src/node/compose.ts';
import { devGenesis } from '../../../src/node/genesis/genesis.ts';
import type { NodeServiceImpl } from '../../../src/node/grpc/service.ts';
import type { PeerLink } from '../../../src/node/peering/link.ts';
import type { PeeringOptions } from '../../../src/node/peering/manager.ts';
import { URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import { startTestNode, type CollectingLogger, type TestNode } from '../../../harness/node.ts';
import { TestPeer } from '../../../harness/peer-handshake.ts';

type Kind = NonNullable<PeerMessage['kind']>['$case'];

/** One end of an in-memory stream; the test drives the other end as the remote peer. */
export class MemLink implements PeerLink {
  readonly sent: PeerMessage[] = [];
  closed = false;
  closeReason = '';
  private readonly messageListeners: ((m: PeerMessage) => void)[] = [];
  private readonly closeListeners: ((r: string) => void)[] = [];
  constructor(
    readonly address: string,
    readonly inbound: boolean,
  ) {}
  send(m: PeerMessage): boolean {
    if (this.closed) return false;
    this.sent.push(m);
    return true;
  }
  close(): void {
    this.end('closed by this node');
  }
  end(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.closeReason = reason;
    for (const l of this.closeListeners.splice(0)) l(reason);
  }
  onMessage(l: (m: PeerMessage) => void): void {
    this.messageListeners.push(l);
  }
  onClose(l: (r: string) => void): void {
    this.closeListeners.push(l);
  }
  /** The remote peer sends `m` to the node. */
  deliver(m: PeerMessage): void {
    for (const l of this.messageListeners) l(m);
  }
  /** What the node sent of one kind. */
  of(kind: Kind): PeerMessage[] {
    return this.sent.filter((m) => m.kind?.$case === kind);
  }
  /** The first message the node sent of one kind. */
  first(kind: Kind): PeerMessage {
    const m = this.of(kind)[0];
    if (!m) throw new Error(`the node sent no ${kind}`);
    return m;
  }
}

/** A heartbeat of a peer whose latest and confirmed milestone is `latest`. */
export function heartbeat(latest = 0): PeerMessage {
  return {
    kind: {
      $case: 'heartbeat',
      value: {
        latestMilestoneIndex: latest,
        confirmedMilestoneIndex: latest,
        pruningIndex: 0,
        connectedPeers: 1,
        syncedPeers: 0,
      },
    },
  };
}

/** A tagged-data block on `parents`, distinct by `n`. */
export function tagged(parents: Uint8Array[], n: number): { bytes: Uint8Array; id: Uint8Array } {
  const bytes = encodeBlock({
    protocolVersion: 2,
    parents,
    payload: { type: 5, tag: new Uint8Array([n & 0xff, n >> 8]), data: new Uint8Array([n & 0xff]) },
    nonce: 0n,
  });
  return { bytes, id: blockIdOf(bytes) };
}

export const blockMsg = (data: Uint8Array, version = BlockVersion.BLOCK_VERSION_V2): PeerMessage => ({
  kind: { $case: 'block', value: { version, data } },
});

export interface PeeringHarness {
  node: TestNode;
  peering: TestSurface['peering'];
  service: NodeServiceImpl;
  store: NodeStore;
  logger: CollectingLogger;
  /** The network's solid entry point. */
  sep: Uint8Array;
  /** An inbound peer of the network (`peer`, a new one by default) that has shaken hands and sent a heartbeat. */
  connect(peer?: TestPeer): Promise<MemLink>;
  close(): Promise<void>;
}

/**
 * A node of the network `network` (a dev genesis of that name, `minPowScore`) with its peer layer started on fast
 * ticks (10 ms) and heartbeats (50 ms), then `options`.
 */
export async function peeringHarness(
  network: string,
  options: Partial<PeeringOptions> = {},
  minPowScore = 0,
): Promise<PeeringHarness> {
  const genesis = devGenesis({ minPowScore, timestamp: 1700000000 });
  genesis.protocol.networkName = network;
  const node = await startTestNode({
    genesis,
    tipPools: URTS_DEFAULTS,
    compose: { peering: { tickMs: 10, heartbeatMs: 50, ...options } },
    start: 'peering',
  });
  const { peering, service, store, protocol } = node.testing;
  return {
    node,
    peering,
    service,
    store,
    logger: node.logger,
    sep: protocol.solidEntryPoints[0]!,
    async connect(peer = new TestPeer()) {
      const link = new MemLink(`mem-${Math.random()}`, true);
      peering.accept(link);
      link.deliver(peer.hello(network));
      link.deliver(peer.proof(network, link.first('handshake')));
      link.deliver(heartbeat());
      return link;
    },
    close: () => node.close(),
  };
}
