/**
 * The REST routes as thin adapters: parse the path and headers, make one gRPC call, render the answer. No ledger
 * logic: block JSON is the node's text, block bytes are the node's stored bytes, the flat records are rendered by
 * gateway/render.ts.
 */
import { Router } from '@koa/router';
import { BlockView, type NodeServiceClient, type SubmitBlockRequest } from '../src/grpc/gen/node.ts';
import { blockMetadataToJson, infoToJson, tipsToJson } from './render.ts';
import { NodeCallError } from './errors.ts';
import { parseHexId, V2_ID_BYTES, V3_ID_BYTES } from './ids.ts';
import { SERIALIZER_V1, SERIALIZER_V2 } from './media.ts';
import { abortOn, callNode } from './node-client.ts';
import { addFaucetRoutes } from './routes-faucet.ts';
import { addControlRoutes } from './routes-control.ts';
import { addDashboardRoutes } from './dashboard.ts';
import { addIndexerRoutes } from './routes-indexer.ts';
import { addPeersRoutes } from './routes-peers.ts';
import { addLedgerRoutes } from './routes-ledger.ts';
import { addV3Routes } from './routes-v3.ts';
import { sendNegotiatedBlock } from './send.ts';
import { readSubmittedBlock, sendCreated } from './submission.ts';

export interface RouteOptions {
  client: NodeServiceClient;
  bodyLimitBytes: number;
  /** Deadline of read calls. */
  timeoutMs: number;
  /** Deadline of block submissions (tip selection and proof of work may take a while). */
  submitTimeoutMs: number;
  /** Deepest accepted JSON nesting of a submitted block (json-guard.ts); 64 by default. */
  maxJsonDepth?: number;
}

/** The route groups `/api/routes` lists. */
export const ROUTE_GROUPS = ['core/v2', 'core/v3', 'indexer/v1', 'faucet/v1'] as const;

const V2 = '/api/core/v2';
const V3 = '/api/core/v3';

export function createRouter(options: RouteOptions): Router {
  const { client, timeoutMs, submitTimeoutMs } = options;
  const router = new Router();

  router.get('/health', async (ctx) => {
    let healthy = false;
    try {
      const info = await callNode(client, 'GetInfo', client.getInfo, {}, timeoutMs, abortOn(ctx));
      healthy = info.status?.isHealthy === true;
    } catch (err) {
      if (!(err instanceof NodeCallError)) throw err;
    }
    ctx.body = null; // before the status: Koa would turn a null body into 204
    ctx.status = healthy ? 200 : 503;
    ctx.state.bareStatus = true; // no JSON error body for this 503
  });

  router.get('/api/routes', (ctx) => {
    ctx.body = { routes: [...ROUTE_GROUPS] };
  });

  router.get(`${V2}/info`, async (ctx) => {
    ctx.body = infoToJson(await callNode(client, 'GetInfo', client.getInfo, {}, timeoutMs, abortOn(ctx)));
  });

  router.get(`${V2}/tips`, async (ctx) => {
    const allowSemiLazy = Object.keys(ctx.query).some((k) => k.toLowerCase() === 'allowsemilazy');
    ctx.body = tipsToJson(await callNode(client, 'GetTips', client.getTips, { allowSemiLazy }, timeoutMs, abortOn(ctx)));
  });

  router.get(`${V2}/blocks/:blockId`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V2_ID_BYTES, 'block ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V1, (view) => callNode(client, 'GetBlock', client.getBlock, { blockId, view }, timeoutMs, abortOn(ctx)));
  });

  router.get(`${V2}/blocks/:blockId/metadata`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V2_ID_BYTES, 'block ID');
    ctx.body = blockMetadataToJson(await callNode(client, 'GetBlockMetadata', client.getBlockMetadata, { blockId }, timeoutMs, abortOn(ctx)));
  });

  router.post(`${V2}/blocks`, async (ctx) => {
    const request: SubmitBlockRequest = { block: await readSubmittedBlock(ctx, SERIALIZER_V1, options) };
    sendCreated(ctx, await callNode(client, 'SubmitBlock', client.submitBlock, request, submitTimeoutMs, abortOn(ctx)));
  });

  router.get(`${V2}/transactions/:transactionId/included-block`, async (ctx) => {
    const transactionId = parseHexId(ctx.params.transactionId!, V2_ID_BYTES, 'transaction ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V1, (view) =>
      callNode(client, 'GetIncludedBlock', client.getIncludedBlock, { transactionId, view }, timeoutMs, abortOn(ctx)),
    );
  });

  router.get(`${V2}/transactions/:transactionId/included-block/metadata`, async (ctx) => {
    const transactionId = parseHexId(ctx.params.transactionId!, V2_ID_BYTES, 'transaction ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    ctx.body = blockMetadataToJson(
      await callNode(client, 'GetIncludedBlockMetadata', client.getIncludedBlockMetadata, { transactionId, view }, timeoutMs, abortOn(ctx)),
    );
  });

  router.get(`${V3}/transactions/:transactionId/included-block`, async (ctx) => {
    const transactionId = parseHexId(ctx.params.transactionId!, V3_ID_BYTES, 'transaction ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V2, (view) =>
      callNode(client, 'GetIncludedBlockV3', client.getIncludedBlockV3, { transactionId, view }, timeoutMs, abortOn(ctx)),
    );
  });

  addLedgerRoutes(router, options);
  addIndexerRoutes(router, options);
  addV3Routes(router, options);
  addFaucetRoutes(router, options);
  addControlRoutes(router, options);
  addPeersRoutes(router, options);
  addDashboardRoutes(router);
  return router;
}
