/**
 * The IOTA 2.0 (v3) REST routes (`/api/core/v3/...`) as thin adapters over the node's v3 RPCs: parse path and
 * headers, make one gRPC call, answer the node's JSON text or bytes. (The v3 included-block route is in routes.ts.)
 */
import type { Router } from '@koa/router';
import { BlockView, type SubmitBlockV3Request } from '../src/grpc/gen/node.ts';
import { readSubmittedBlock, sendCreated } from './submission.ts';
import { parseHexId, V3_ID_BYTES } from './ids.ts';
import { SERIALIZER_V2 } from './media.ts';
import { abortOn, callNode } from './node-client.ts';
import { sendJsonText, sendNegotiatedBlock } from './send.ts';
import type { RouteOptions } from './routes.ts';

const V3 = '/api/core/v3';

/** Adds the v3 routes to the gateway's router (the issuance route before `/blocks/:blockId`). */
export function addV3Routes(router: Router, options: RouteOptions): void {
  const { client, timeoutMs, submitTimeoutMs } = options;

  router.get(`${V3}/info`, async (ctx) => {
    sendJsonText(ctx, (await callNode(client, 'GetInfoV3', client.getInfoV3, {}, timeoutMs, abortOn(ctx))).json);
  });

  router.get(`${V3}/blocks/issuance`, async (ctx) => {
    sendJsonText(ctx, (await callNode(client, 'GetIssuanceV3', client.getIssuanceV3, {}, timeoutMs, abortOn(ctx))).json);
  });

  router.post(`${V3}/blocks`, async (ctx) => {
    const request: SubmitBlockV3Request = { block: await readSubmittedBlock(ctx, SERIALIZER_V2, options) };
    sendCreated(ctx, await callNode(client, 'SubmitBlockV3', client.submitBlockV3, request, submitTimeoutMs, abortOn(ctx)));
  });

  router.get(`${V3}/blocks/:blockId`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V3_ID_BYTES, 'block ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V2, (view) => callNode(client, 'GetBlockV3', client.getBlockV3, { blockId, view }, timeoutMs, abortOn(ctx)));
  });

  router.get(`${V3}/blocks/:blockId/metadata`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V3_ID_BYTES, 'block ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    sendJsonText(ctx, (await callNode(client, 'GetBlockMetadataV3', client.getBlockMetadataV3, { blockId, view }, timeoutMs, abortOn(ctx))).json);
  });
}
