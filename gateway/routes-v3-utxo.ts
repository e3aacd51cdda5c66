/**
 * The v3 UTXO changes routes of a slot commitment (TIP-48): by commitment ID or by slot, the output IDs or (`/full`)
 * the outputs, as the node's JSON text or `application/vnd.iota.serializer-v2` bytes by Accept, as iota-core answers
 * them (docs/decisions.md §39). One RPC, GetUtxoChangesV3.
 */
import type { RouteGroups } from './route-groups.ts';
import type { GetUtxoChangesV3Request } from '../src/grpc/gen/node.ts';
import { parseHexId, parseIndex, V3_ID_BYTES } from './ids.ts';
import { SERIALIZER_V2 } from './media.ts';
import { sendNegotiatedBlock } from './send.ts';
import type { RouteOptions } from './routes.ts';

const COMMITMENTS = '/api/core/v3/commitments';

/** Adds the four UTXO changes routes to the gateway's router. */
export function addV3UtxoRoutes(router: RouteGroups, options: RouteOptions): void {
  const { node, call } = options;
  const byId = (text: string): GetUtxoChangesV3Request['key'] => ({
    $case: 'commitmentId',
    value: parseHexId(text, V3_ID_BYTES, 'commitment ID'),
  });
  const bySlot = (text: string): GetUtxoChangesV3Request['key'] => ({ $case: 'slot', value: parseIndex(text, 'slot') });
  const routes = [
    { path: `${COMMITMENTS}/:commitmentId/utxo-changes`, key: (p: Params) => byId(p.commitmentId!), full: false },
    { path: `${COMMITMENTS}/:commitmentId/utxo-changes/full`, key: (p: Params) => byId(p.commitmentId!), full: true },
    { path: `${COMMITMENTS}/by-slot/:slot/utxo-changes`, key: (p: Params) => bySlot(p.slot!), full: false },
    { path: `${COMMITMENTS}/by-slot/:slot/utxo-changes/full`, key: (p: Params) => bySlot(p.slot!), full: true },
  ];
  for (const r of routes)
    router.get(r.path, async (ctx) => {
      const key = r.key(ctx.params);
      await sendNegotiatedBlock(
        ctx,
        SERIALIZER_V2,
        (view) => node.getUtxoChangesV3({ key, full: r.full, view }, call(ctx)),
        'UTXO changes',
      );
    });
}

type Params = Record<string, string | undefined>;
