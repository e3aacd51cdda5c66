/**
 * The REST routes as thin adapters: parse the path and headers, make one gRPC call, render the answer. No ledger
 * logic: block JSON is the node's text, block bytes are the node's stored bytes, the flat records are rendered by
 * gateway/render.ts.
 */
import { BlockView, type SubmitBlockRequest } from '../src/grpc/gen/node.ts';
import { NodeCallError, type NodePort } from '../src/grpc/port.ts';
import { blockMetadataToJson, infoToJson, tipsToJson } from './render.ts';
import type { RouteCall } from './node-client.ts';
import { parseHexId, V2_ID_BYTES, V3_ID_BYTES } from './ids.ts';
import { SERIALIZER_V1, SERIALIZER_V2 } from './media.ts';
import { addFaucetRoutes } from './routes-faucet.ts';
import { addControlRoutes } from './routes-control.ts';
import { addDashboardRoutes } from './dashboard.ts';
import { addIndexerRoutes } from './routes-indexer.ts';
import { addExplorerRoutes } from './routes-explorer.ts';
import { addPeersRoutes } from './routes-peers.ts';
import { addLedgerRoutes } from './routes-ledger.ts';
import { addV3Routes } from './routes-v3.ts';
import { addV3NetworkRoutes } from './routes-v3-network.ts';
import { sendNegotiatedBlock } from './send.ts';
import { readSubmittedBlock, sendCreated } from './submission.ts';
import { RouteGroups } from './route-groups.ts';

export interface RouteOptions {
  node: NodePort;
  /** A node call's options for a request (`call(ctx)`: the read deadline; `call(ctx, ms)`: another). */
  call: RouteCall;
  bodyLimitBytes: number;
  /** Deadline of read calls. */
  timeoutMs: number;
  /** Deadline of block submissions (tip selection and proof of work may take a while). */
  submitTimeoutMs: number;
  /** Deepest accepted JSON nesting of a submitted block (json-guard.ts); 64 by default. */
  maxJsonDepth?: number;
  /** Whether this gateway serves the event API (`/api/mqtt/v1`): `/api/routes` then lists `mqtt/v1`, as Hornet does. */
  eventApi?: boolean;
}

/** The route groups `/api/routes` lists (and `mqtt/v1` with the event API). */
export const ROUTE_GROUPS = ['core/v2', 'core/v3', 'indexer/v1', 'explorer/v2', 'faucet/v1'] as const;

const V2 = '/api/core/v2';
const V3 = '/api/core/v3';

export function createRoutes(options: RouteOptions): RouteGroups {
  const { node, call, submitTimeoutMs } = options;
  const router = new RouteGroups();

  router.get('/health', async (ctx) => {
    let healthy = false;
    try {
      const info = await node.getInfo({}, call(ctx));
      healthy = info.status?.isHealthy === true;
    } catch (err) {
      if (!(err instanceof NodeCallError)) throw err;
    }
    ctx.body = null; // before the status: Koa would turn a null body into 204
    ctx.status = healthy ? 200 : 503;
    ctx.state.bareStatus = true; // no JSON error body for this 503
  });

  router.get('/api/routes', (ctx) => {
    ctx.body = { routes: options.eventApi ? [...ROUTE_GROUPS, 'mqtt/v1'] : [...ROUTE_GROUPS] };
  });

  router.get(`${V2}/info`, async (ctx) => {
    ctx.body = infoToJson(await node.getInfo({}, call(ctx)));
  });

  router.get(`${V2}/tips`, async (ctx) => {
    const allowSemiLazy = Object.keys(ctx.query).some((k) => k.toLowerCase() === 'allowsemilazy');
    ctx.body = tipsToJson(await node.getTips({ allowSemiLazy }, call(ctx)));
  });

  router.get(`${V2}/blocks/:blockId`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V2_ID_BYTES, 'block ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V1, (view) => node.getBlock({ blockId, view }, call(ctx)));
  });

  router.get(`${V2}/blocks/:blockId/metadata`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V2_ID_BYTES, 'block ID');
    ctx.body = blockMetadataToJson(await node.getBlockMetadata({ blockId }, call(ctx)));
  });

  router.post(`${V2}/blocks`, async (ctx) => {
    const request: SubmitBlockRequest = { block: await readSubmittedBlock(ctx, SERIALIZER_V1, options) };
    sendCreated(ctx, await node.submitBlock(request, call(ctx, submitTimeoutMs)));
  });

  router.get(`${V2}/transactions/:transactionId/included-block`, async (ctx) => {
    const transactionId = parseHexId(ctx.params.transactionId!, V2_ID_BYTES, 'transaction ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V1, (view) => node.getIncludedBlock({ transactionId, view }, call(ctx)));
  });

  router.get(`${V2}/transactions/:transactionId/included-block/metadata`, async (ctx) => {
    const transactionId = parseHexId(ctx.params.transactionId!, V2_ID_BYTES, 'transaction ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    ctx.body = blockMetadataToJson(await node.getIncludedBlockMetadata({ transactionId, view }, call(ctx)));
  });

  router.get(`${V3}/transactions/:transactionId/included-block`, async (ctx) => {
    const transactionId = parseHexId(ctx.params.transactionId!, V3_ID_BYTES, 'transaction ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V2, (view) =>
      node.getIncludedBlockV3({ transactionId, view }, call(ctx)),
    );
  });

  addLedgerRoutes(router, options);
  addIndexerRoutes(router, options);
  addExplorerRoutes(router, options);
  addV3Routes(router, options);
  addV3NetworkRoutes(router, options);
  addFaucetRoutes(router, options);
  addControlRoutes(router, options);
  addPeersRoutes(router, options);
  addDashboardRoutes(router);
  return router;
}
