/**
 * The TIP-25 ledger routes (`/api/core/v2/outputs`, `/milestones`, `/receipts`, `/treasury`) as thin adapters over
 * the node's ledger RPCs: parse the path and headers, make one gRPC call, answer the node's JSON text or bytes.
 */
import type { RouteGroups } from './route-groups.ts';
import type { Context } from 'koa';
import { BlockView, type GetMilestoneRequest } from '../src/grpc/gen/node.ts';
import { OUTPUT_ID_BYTES, parseHexId, parseIndex, V2_ID_BYTES } from './ids.ts';
import { SERIALIZER_V1 } from './media.ts';
import { sendJsonText, sendNegotiatedBlock } from './send.ts';
import type { RouteOptions } from './routes.ts';

const V2 = '/api/core/v2';

type MilestoneName = GetMilestoneRequest['milestone'];

const byId = (ctx: Context): MilestoneName => ({
  $case: 'milestoneId',
  value: parseHexId(ctx.params['milestoneId']!, V2_ID_BYTES, 'milestone ID'),
});
const byIndex = (ctx: Context): MilestoneName => ({
  $case: 'index',
  value: parseIndex(ctx.params['index']!, 'milestone index'),
});

/** Adds the ledger routes to the gateway's router (`/milestones/by-index/...` before `/milestones/:milestoneId`). */
export function addLedgerRoutes(router: RouteGroups, options: RouteOptions): void {
  const { node, call } = options;

  router.get(`${V2}/outputs/:outputId`, async (ctx) => {
    const outputId = parseHexId(ctx.params.outputId!, OUTPUT_ID_BYTES, 'output ID');
    await sendNegotiatedBlock(ctx, SERIALIZER_V1, (view) => node.getOutput({ outputId, view }, call(ctx)), 'output');
  });

  router.get(`${V2}/outputs/:outputId/metadata`, async (ctx) => {
    const outputId = parseHexId(ctx.params.outputId!, OUTPUT_ID_BYTES, 'output ID');
    const request = { outputId, view: BlockView.BLOCK_VIEW_UNSPECIFIED };
    sendJsonText(ctx, (await node.getOutputMetadata(request, call(ctx))).json);
  });

  for (const [path, milestone] of [
    [`${V2}/milestones/by-index/:index`, byIndex],
    [`${V2}/milestones/:milestoneId`, byId],
  ] as const) {
    router.get(path, async (ctx) => {
      const name = milestone(ctx);
      await sendNegotiatedBlock(
        ctx,
        SERIALIZER_V1,
        (view) => node.getMilestone({ milestone: name, view }, call(ctx)),
        'milestone',
      );
    });

    router.get(`${path}/utxo-changes`, async (ctx) => {
      const request = { milestone: milestone(ctx), view: BlockView.BLOCK_VIEW_UNSPECIFIED };
      sendJsonText(ctx, (await node.getMilestoneUtxoChanges(request, call(ctx))).json);
    });
  }

  router.get(`${V2}/receipts`, async (ctx) => {
    sendJsonText(ctx, (await node.getReceipts({}, call(ctx))).json);
  });

  router.get(`${V2}/receipts/:migratedAt`, async (ctx) => {
    const migratedAt = parseIndex(ctx.params.migratedAt!, 'migratedAt index');
    sendJsonText(ctx, (await node.getReceipts({ migratedAt }, call(ctx))).json);
  });

  router.get(`${V2}/treasury`, async (ctx) => {
    sendJsonText(ctx, (await node.getTreasury({}, call(ctx))).json);
  });
}
