/**
 * Issue 16, the peers routes of TIP-25 between two `ledger-node run` processes (the JWT secret in the environment, as
 * an operator sets it): B starts without peers, adds A at run time with POST /peers (a multiaddress), lists it with its
 * connection state, heartbeat and gossip counters as Hornet answers them, while A lists B as an unknown (inbound)
 * peer; B restarted dials A again (DATA_DIR/peering.json keeps it with its alias and the identity A proved); DELETE
 * disconnects A for good, also across a restart. Every peers route needs the token.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signJwtHs256 } from '../../../gateway/index.ts';
import { spawnNode, type SpawnedNode } from '../../../harness/process.ts';
import { waitFor } from '../../../harness/wait.ts';

const SECRET = 'peers routes secret';
/** How long and how often the waits poll (ms). */
const POLL = [15000, 100] as const;
const AUTH = { authorization: `Bearer ${signJwtHs256({ sub: 'operator' }, SECRET)}` };

interface PeerJson {
  id: string;
  multiAddresses: string[];
  alias?: string;
  relation: string;
  connected: boolean;
  gossip?: {
    heartbeat: {
      solidMilestoneIndex: number;
      latestMilestoneIndex: number;
      connectedPeers: number;
      syncedPeers: number;
    } | null;
    metrics: Record<string, number>;
  };
}

/** `ledger-node run` on `dataDir` with the JWT secret in its environment; its `rest` ends in /api/core/v2. */
async function start(dataDir: string, args: string[]): Promise<SpawnedNode> {
  const node = await spawnNode(dataDir, ['--min-pow-score', '0', '--pow-workers', '0', ...args], {
    env: { LEDGER_GATEWAY_JWT_SECRET: SECRET },
  });
  return { ...node, rest: `${node.rest}/api/core/v2` };
}

describe('e2e network: the peers routes (GET, POST, DELETE) between two nodes', function () {
  this.timeout(60000);
  let dir: string;
  let a: SpawnedNode;
  let b: SpawnedNode;
  let aId: string;

  const peers = async (n: SpawnedNode): Promise<PeerJson[]> => {
    const res = await fetch(`${n.rest}/peers`, { headers: AUTH });
    expect(res.status).to.equal(200);
    return (await res.json()) as PeerJson[];
  };

  const startB = async (): Promise<SpawnedNode> =>
    start(join(dir, 'b'), ['--genesis', join(dir, 'a', 'genesis.json'), '--coordinator', 'false']);
  const savedPeers = (): unknown =>
    (JSON.parse(readFileSync(join(dir, 'b', 'peering.json'), 'utf8')) as { peers: unknown[] }).peers;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-peers-'));
    a = await start(join(dir, 'a'), ['--milestone-interval', '1']);
    b = await startB();
  });
  after(async () => {
    await b?.proc.stop();
    await a?.proc.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every peers route is protected: 403 without the token', async () => {
    for (const [method, path] of [
      ['GET', '/peers'],
      ['GET', '/peers/x'],
      ['POST', '/peers'],
      ['DELETE', '/peers/x'],
    ] as const) {
      const res = await fetch(`${b.rest}${path}`, { method });
      expect(res.status, `${method} ${path}`).to.equal(403);
    }
    expect(await peers(b)).to.deep.equal([]);
  });

  it('POST /peers adds A as a static peer at run time (multiaddress form); a bad address is 400', async () => {
    const bad = await fetch(`${b.rest}/peers`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ multiAddress: '/ip4/127.0.0.1/udp/1' }),
    });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).to.match(/invalid peer address/);
    const res = await fetch(`${b.rest}/peers`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ multiAddress: `/ip4/127.0.0.1/tcp/${a.peerPort}`, alias: 'node A' }),
    });
    expect(res.status).to.equal(200);
    const added = (await res.json()) as PeerJson;
    expect(added).to.include({ alias: 'node A', relation: 'known' });
    expect(added.multiAddresses).to.deep.equal([`/ip4/127.0.0.1/tcp/${a.peerPort}`]);
  });

  it("B lists A connected, with A's heartbeat and the gossip counters; A lists B as unknown", async () => {
    const listed = await waitFor(
      'A connected with blocks gossiped and a heartbeat naming a milestone',
      async () => {
        const [p] = await peers(b);
        // A's milestone block may reach B before the heartbeat A sends after it: wait for both
        const heartbeat = p?.gossip?.heartbeat;
        return p?.connected && heartbeat && heartbeat.latestMilestoneIndex >= 1 && p.gossip!.metrics.newBlocks! > 0
          ? p
          : undefined;
      },
      ...POLL,
    );
    aId = listed.id;
    expect(aId).to.match(/^[0-9a-f]{32}$/);
    expect(listed).to.include({ alias: 'node A', relation: 'known', connected: true });
    expect(Object.keys(listed)).to.deep.equal(['id', 'multiAddresses', 'alias', 'relation', 'connected', 'gossip']);
    expect(listed.gossip!.heartbeat!.latestMilestoneIndex).to.be.at.least(1);
    expect(listed.gossip!.heartbeat!.connectedPeers).to.equal(1);
    expect(Object.keys(listed.gossip!.metrics)).to.deep.equal([
      'newBlocks',
      'knownBlocks',
      'receivedBlocks',
      'receivedBlockRequests',
      'receivedMilestoneRequests',
      'receivedHeartbeats',
      'sentBlocks',
      'sentBlockRequests',
      'sentMilestoneRequests',
      'sentHeartbeats',
      'droppedPackets',
    ]);
    expect(listed.gossip!.metrics.receivedHeartbeats).to.be.at.least(1);
    expect(listed.gossip!.metrics.sentHeartbeats).to.be.at.least(1);
    expect(listed.gossip!.metrics.receivedBlocks).to.be.at.least(listed.gossip!.metrics.newBlocks!);

    const [inbound] = await waitFor(
      'B listed by A',
      async () => ((await peers(a)).some((p) => p.connected) ? peers(a) : undefined),
      ...POLL,
    );
    expect(inbound).to.include({ relation: 'unknown', connected: true });
    expect(inbound!.id).to.match(/^[0-9a-f]{32}$/);
    expect(inbound!.multiAddresses[0]).to.match(/^\/ip[46]\/.+\/tcp\/\d+$/);
  });

  it('GET /peers/{peerId} by node ID or by address; an unknown peer is 404', async () => {
    const byId = (await (await fetch(`${b.rest}/peers/${aId}`, { headers: AUTH })).json()) as PeerJson;
    expect(byId.id).to.equal(aId);
    const byAddress = (await (
      await fetch(`${b.rest}/peers/127.0.0.1:${a.peerPort}`, { headers: AUTH })
    ).json()) as PeerJson;
    expect(byAddress.id).to.equal(aId);
    expect((await fetch(`${b.rest}/peers/${'00'.repeat(16)}`, { headers: AUTH })).status).to.equal(404);
  });

  it('a peer added at run time is dialed again after a restart, with its alias and identity', async () => {
    await b.proc.stop();
    const address = `127.0.0.1:${a.peerPort}`;
    expect(savedPeers()).to.deep.equal([{ address, alias: 'node A', identity: a.identity }]);
    b = await startB();
    const again = await waitFor(
      'B to dial A again after its restart',
      async () => (await peers(b)).find((p) => p.connected),
      ...POLL,
    );
    expect(again).to.include({ id: aId, alias: 'node A', relation: 'known' });
  });

  it('DELETE /peers/{peerId} disconnects A and stops dialing it; a second DELETE is 404', async () => {
    const res = await fetch(`${b.rest}/peers/${aId}`, { method: 'DELETE', headers: AUTH });
    expect(res.status).to.equal(204);
    expect(await res.text()).to.equal('');
    expect(await peers(b)).to.deep.equal([]);
    await waitFor('A to see B gone', async () => ((await peers(a)).length === 0 ? true : undefined), ...POLL);
    await new Promise((r) => setTimeout(r, 1000)); // longer than the redial backoff
    expect(await peers(b)).to.deep.equal([]);
    expect((await fetch(`${b.rest}/peers/${aId}`, { method: 'DELETE', headers: AUTH })).status).to.equal(404);
  });

  it('a deleted peer is not dialed after a restart', async () => {
    expect(savedPeers()).to.deep.equal([]);
    await b.proc.stop();
    b = await startB();
    await new Promise((r) => setTimeout(r, 1500)); // longer than a dial and a handshake on loopback
    expect(await peers(b)).to.deep.equal([]);
    expect(await peers(a)).to.deep.equal([]);
  });
});
