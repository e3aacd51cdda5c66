/**
 * The peers routes of TIP-25 (protected: under `/api/*`, outside the public list) as Hornet answers them, and the
 * dashboard's data route:
 *
 *   GET    /api/core/v2/peers            [PeerResponse...]
 *   GET    /api/core/v2/peers/{peerId}   PeerResponse (404 when unknown)
 *   POST   /api/core/v2/peers            {"multiAddress": "...", "alias"?: "..."} -> 200 PeerResponse (a static peer,
 *                                        dialed now; the address HOST:PORT, this node's form, or a multiaddress
 *                                        /ip4|ip6|dns/HOST/tcp/PORT[/p2p/ID])
 *   DELETE /api/core/v2/peers/{peerId}   204 (disconnected, no longer dialed)
 *   GET    /api/dashboard/v1/data        the dashboard's figures (public on loopback, else protected: access.ts)
 *
 * PeerResponse: {id, multiAddresses, alias?, relation: "known"|"unknown", connected, gossip?: {heartbeat:
 * {solidMilestoneIndex, prunedMilestoneIndex, latestMilestoneIndex, connectedPeers, syncedPeers}, metrics:
 * {newBlocks, knownBlocks, receivedBlocks, receivedBlockRequests, receivedMilestoneRequests, receivedHeartbeats,
 * sentBlocks, sentBlockRequests, sentMilestoneRequests, sentHeartbeats, droppedPackets}}}, `gossip` while connected.
 */
import type { RouteGroups } from './route-groups.ts';
import type { Context } from 'koa';
import type { Peer } from '../src/grpc/gen/node.ts';
import { readJsonObject } from './body.ts';
import { HttpProblem } from './errors.ts';
import type { RouteOptions } from './routes.ts';
import { sendJsonText } from './send.ts';

const PEERS = '/api/core/v2/peers';
export const DASHBOARD_DATA = '/api/dashboard/v1/data';

/** Hornet's PeerResponse (key order as Hornet emits it; `alias` and `gossip` only when present). */
export function peerToJson(p: Peer): Record<string, unknown> {
  const out: Record<string, unknown> = { id: p.id, multiAddresses: p.multiAddresses };
  if (p.alias !== undefined) out.alias = p.alias;
  out.relation = p.relation;
  out.connected = p.connected;
  if (p.gossip) {
    const h = p.gossip.heartbeat;
    out.gossip = {
      heartbeat: h
        ? {
            solidMilestoneIndex: h.solidMilestoneIndex,
            prunedMilestoneIndex: h.prunedMilestoneIndex,
            latestMilestoneIndex: h.latestMilestoneIndex,
            connectedPeers: h.connectedPeers,
            syncedPeers: h.syncedPeers,
          }
        : null,
      metrics: { ...p.gossip.metrics },
    };
  }
  return out;
}

/** The body of POST /peers: `multiAddress` (required) and `alias` (optional), as Hornet's addPeerRequest. */
async function addPeerBody(ctx: Context, options: RouteOptions): Promise<{ address: string; alias?: string }> {
  const json = await readJsonObject(ctx, options, {
    subject: 'invalid addPeerRequest',
    notUtf8: 'the body is not valid UTF-8',
    malformed: 'malformed JSON',
    notObject: 'expected {"multiAddress": "...", "alias": "..."}',
  });
  const { multiAddress, alias } = json as { multiAddress?: unknown; alias?: unknown };
  if (typeof multiAddress !== 'string' || multiAddress === '')
    throw new HttpProblem(
      400,
      'invalid addPeerRequest: "multiAddress" must be a non-empty string (HOST:PORT or /ip4/HOST/tcp/PORT)',
    );
  if (alias !== undefined && alias !== null && typeof alias !== 'string')
    throw new HttpProblem(400, 'invalid addPeerRequest: "alias" must be a string');
  return { address: multiAddress, ...(typeof alias === 'string' ? { alias } : {}) };
}

export function addPeersRoutes(router: RouteGroups, options: RouteOptions): void {
  const { node, call } = options;

  router.get(PEERS, async (ctx) => {
    const answer = await node.getPeers({}, call(ctx));
    ctx.body = answer.peers.map(peerToJson);
  });

  router.get(`${PEERS}/:peerId`, async (ctx) => {
    ctx.body = peerToJson(await node.getPeer({ peerId: ctx.params.peerId! }, call(ctx)));
  });

  router.post(PEERS, async (ctx) => {
    const body = await addPeerBody(ctx, options);
    ctx.body = peerToJson(await node.addPeer(body, call(ctx)));
  });

  router.delete(`${PEERS}/:peerId`, async (ctx) => {
    await node.removePeer({ peerId: ctx.params.peerId! }, call(ctx));
    ctx.body = null; // before the status: Koa would turn a null body into 204 anyway
    ctx.status = 204;
  });

  router.get(DASHBOARD_DATA, async (ctx) => {
    sendJsonText(ctx, (await node.getDashboard({}, call(ctx))).json);
  });
}
