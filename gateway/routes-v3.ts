/**
 * The IOTA 2.0 (v3) REST routes (`/api/core/v3/...`) as thin adapters over the node's v3 RPCs: parse path and
 * headers, make one gRPC call, answer the node's JSON text or bytes. (The v3 included-block route is in routes.ts, the
 * UTXO changes routes in routes-v3-utxo.ts.)
 */
import type { RouteGroups } from './route-groups.ts';
import { BlockView, type SubmitBlockV3Request } from '../src/grpc/gen/node.ts';
import { readSubmittedBlock, sendCreated } from './submission.ts';
import { parseHexId, parseIndex, V3_ID_BYTES, V3_OUTPUT_ID_BYTES } from './ids.ts';
import { SERIALIZER_V2 } from './media.ts';
import { sendJsonText, sendNegotiatedBlock } from './send.ts';
import type { RouteOptions } from './routes.ts';
import { addV3UtxoRoutes } from './routes-v3-utxo.ts';

const V3 = '/api/core/v3';

/** Adds the v3 routes to the gateway's router (the issuance route before `/blocks/:blockId`). */
export function addV3Routes(router: RouteGroups, options: RouteOptions): void {
  const { node, call, submitTimeoutMs } = options;

  router.get(`${V3}/info`, async (ctx) => {
    sendJsonText(ctx, (await node.getInfoV3({}, call(ctx))).json);
  });

  router.get(`${V3}/blocks/issuance`, async (ctx) => {
    sendJsonText(ctx, (await node.getIssuanceV3({}, call(ctx))).json);
  });

  router.post(`${V3}/blocks`, async (ctx) => {
    const request: SubmitBlockV3Request = { block: await readSubmittedBlock(ctx, SERIALIZER_V2, options) };
    sendCreated(ctx, await node.submitBlockV3(request, call(ctx, submitTimeoutMs)));
  });

  router.get(`${V3}/blocks/:blockId`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V3_ID_BYTES, 'block ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V2, (view) => node.getBlockV3({ blockId, view }, call(ctx)));
  });

  router.get(`${V3}/blocks/:blockId/metadata`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V3_ID_BYTES, 'block ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    sendJsonText(ctx, (await node.getBlockMetadataV3({ blockId, view }, call(ctx))).json);
  });

  router.get(`${V3}/blocks/:blockId/full`, async (ctx) => {
    const blockId = parseHexId(ctx.params.blockId!, V3_ID_BYTES, 'block ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    sendJsonText(ctx, (await node.getBlockWithMetadataV3({ blockId, view }, call(ctx))).json);
  });

  router.get(`${V3}/transactions/:transactionId/metadata`, async (ctx) => {
    const transactionId = parseHexId(ctx.params.transactionId!, V3_ID_BYTES, 'transaction ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    sendJsonText(ctx, (await node.getTransactionMetadataV3({ transactionId, view }, call(ctx))).json);
  });

  router.get(`${V3}/transactions/:transactionId/included-block/metadata`, async (ctx) => {
    const transactionId = parseHexId(ctx.params.transactionId!, V3_ID_BYTES, 'transaction ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    sendJsonText(ctx, (await node.getIncludedBlockMetadataV3({ transactionId, view }, call(ctx))).json);
  });

  router.get(`${V3}/outputs/:outputId`, async (ctx) => {
    const outputId = parseHexId(ctx.params.outputId!, V3_OUTPUT_ID_BYTES, 'output ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V2, (view) => node.getOutputV3({ outputId, view }, call(ctx)), 'output');
  });

  router.get(`${V3}/outputs/:outputId/metadata`, async (ctx) => {
    const outputId = parseHexId(ctx.params.outputId!, V3_OUTPUT_ID_BYTES, 'output ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    sendJsonText(ctx, (await node.getOutputMetadataV3({ outputId, view }, call(ctx))).json);
  });

  router.get(`${V3}/outputs/:outputId/full`, async (ctx) => {
    const outputId = parseHexId(ctx.params.outputId!, V3_OUTPUT_ID_BYTES, 'output ID');
    const view = BlockView.BLOCK_VIEW_UNSPECIFIED;
    sendJsonText(ctx, (await node.getOutputWithMetadataV3({ outputId, view }, call(ctx))).json);
  });

  router.get(`${V3}/commitments/by-slot/:slot`, async (ctx) => {
    const key = { $case: 'slot' as const, value: parseIndex(ctx.params.slot!, 'slot') };
    await sendNegotiatedBlock(
      ctx,
      SERIALIZER_V2,
      (view) => node.getCommitmentV3({ key, view }, call(ctx)),
      'commitment',
    );
  });

  router.get(`${V3}/commitments/:commitmentId`, async (ctx) => {
    const value = parseHexId(ctx.params.commitmentId!, V3_ID_BYTES, 'commitment ID');
    const key = { $case: 'commitmentId' as const, value };
    await sendNegotiatedBlock(
      ctx,
      SERIALIZER_V2,
      (view) => node.getCommitmentV3({ key, view }, call(ctx)),
      'commitment',
    );
  });

  addV3UtxoRoutes(router, options);
}
