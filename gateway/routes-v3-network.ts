/**
 * The IOTA 2.0 (v3) network and account routes of TIP-48 as thin adapters over the node's RPCs: the committee, the
 * validators, a validator, an account's congestion, an output's Mana rewards and the network metrics, each as JSON or
 * (Accept: `application/vnd.iota.serializer-v2`) the node's serix bytes. The query parameters are checked here (a
 * decimal u32, a 36-byte hex commitment ID; 400 before any call); the bech32 address in the path and the validators
 * cursor go to the node as the client wrote them (the node knows the network's HRP and writes the cursors).
 */
import type { Context } from 'koa';
import { HttpProblem } from './errors.ts';
import { parseHexId, parseIndex, V3_ID_BYTES, V3_OUTPUT_ID_BYTES } from './ids.ts';
import { SERIALIZER_V2 } from './media.ts';
import type { RouteGroups } from './route-groups.ts';
import type { RouteOptions } from './routes.ts';
import { sendNegotiatedBlock } from './send.ts';

const V3 = '/api/core/v3';

/** A query parameter given once (an empty one counts as absent, as iota-core reads it); twice is 400. */
function query(ctx: Context, name: string): string | undefined {
  const v = ctx.query[name];
  if (Array.isArray(v)) throw new HttpProblem(400, `query parameter ${name} is given ${v.length} times; give it once`);
  return v === undefined || v === '' ? undefined : v;
}

/** A decimal u32 query parameter, or undefined when absent. */
function u32(ctx: Context, name: string): number | undefined {
  const v = query(ctx, name);
  return v === undefined ? undefined : parseIndex(v, name);
}

/**
 * The slot of `/rewards/{outputId}`: TIP-48 and iota-core read `slot`, the IOTA 2.0 SDK sends `slotIndex`; either is
 * taken, both only when they agree.
 */
function rewardsSlot(ctx: Context): number | undefined {
  const slot = u32(ctx, 'slot');
  const slotIndex = u32(ctx, 'slotIndex');
  if (slot !== undefined && slotIndex !== undefined && slot !== slotIndex)
    throw new HttpProblem(400, `query parameters slot (${slot}) and slotIndex (${slotIndex}) differ; give one`);
  return slot ?? slotIndex;
}

export function addV3NetworkRoutes(router: RouteGroups, options: RouteOptions): void {
  const { node, call } = options;

  router.get(`${V3}/committee`, async (ctx) => {
    const epoch = u32(ctx, 'epoch');
    await sendNegotiatedBlock(
      ctx,
      SERIALIZER_V2,
      (view) => node.getCommitteeV3({ ...(epoch === undefined ? {} : { epoch }), view }, call(ctx)),
      'committee',
    );
  });

  router.get(`${V3}/validators`, async (ctx) => {
    const pageSize = u32(ctx, 'pageSize') ?? 0;
    const cursor = query(ctx, 'cursor') ?? '';
    await sendNegotiatedBlock(
      ctx,
      SERIALIZER_V2,
      (view) => node.getValidatorsV3({ pageSize, cursor, view }, call(ctx)),
      'validators',
    );
  });

  router.get(`${V3}/validators/:bech32Address`, async (ctx) => {
    const bech32Address = ctx.params.bech32Address!;
    await sendNegotiatedBlock(
      ctx,
      SERIALIZER_V2,
      (view) => node.getValidatorV3({ bech32Address, view }, call(ctx)),
      'validator',
    );
  });

  router.get(`${V3}/accounts/:bech32Address/congestion`, async (ctx) => {
    const bech32Address = ctx.params.bech32Address!;
    const workScore = u32(ctx, 'workScore') ?? 0;
    const id = query(ctx, 'commitmentId');
    const commitmentId = id === undefined ? new Uint8Array(0) : parseHexId(id, V3_ID_BYTES, 'commitment ID');
    await sendNegotiatedBlock(
      ctx,
      SERIALIZER_V2,
      (view) => node.getAccountCongestionV3({ bech32Address, workScore, commitmentId, view }, call(ctx)),
      'congestion',
    );
  });

  router.get(`${V3}/rewards/:outputId`, async (ctx) => {
    const outputId = parseHexId(ctx.params.outputId!, V3_OUTPUT_ID_BYTES, 'output ID');
    const slot = rewardsSlot(ctx);
    await sendNegotiatedBlock(
      ctx,
      SERIALIZER_V2,
      (view) => node.getOutputManaRewardsV3({ outputId, ...(slot === undefined ? {} : { slot }), view }, call(ctx)),
      'rewards',
    );
  });

  router.get(`${V3}/network/metrics`, async (ctx) => {
    await sendNegotiatedBlock(
      ctx,
      SERIALIZER_V2,
      (view) => node.getNetworkMetricsV3({ view }, call(ctx)),
      'network metrics',
    );
  });
}
