/**
 * The TIP-26 indexer routes (`/api/indexer/v1`), as Hornet serves them through inx-indexer, as thin adapters: the
 * query parameters go to the node as the client wrote them (the node checks them: it knows the network's address
 * prefix and the rules), chain IDs in the path are checked here like every other path ID.
 */
import type { RouteGroups } from './route-groups.ts';
import type { Context } from 'koa';
import { IndexedChain, type QueryParameter } from '../src/grpc/gen/node.ts';
import { HttpProblem } from './errors.ts';
import { parseHexId, V2_ID_BYTES } from './ids.ts';
import type { RouteOptions } from './routes.ts';
import { sendJsonText } from './send.ts';

const INDEXER = '/api/indexer/v1';

/** The list routes: URL path -> the node's route name. */
const LISTS: readonly (readonly [path: string, route: string])[] = [
  ['/outputs', 'outputs'],
  ['/outputs/basic', 'basic'],
  ['/outputs/alias', 'alias'],
  ['/outputs/foundry', 'foundry'],
  ['/outputs/nft', 'nft'],
];

/** Foundry IDs: the controlling alias address (1 + 32 bytes), serial number (u32) and token scheme type (1). */
const FOUNDRY_ID_BYTES = 38;

const CHAINS: readonly (readonly [param: string, kind: IndexedChain, length: number, what: string])[] = [
  ['aliasId', IndexedChain.INDEXED_CHAIN_ALIAS, V2_ID_BYTES, 'alias ID'],
  ['nftId', IndexedChain.INDEXED_CHAIN_NFT, V2_ID_BYTES, 'NFT ID'],
  ['foundryId', IndexedChain.INDEXED_CHAIN_FOUNDRY, FOUNDRY_ID_BYTES, 'foundry ID'],
];

/** The query string's parameters in order; a parameter given twice is refused (which one would count?). */
export function parametersOf(ctx: Context): QueryParameter[] {
  const out: QueryParameter[] = [];
  for (const [name, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value))
      throw new HttpProblem(400, `query parameter ${name} is given ${value.length} times; give it once`);
    out.push({ name, value: value ?? '' });
  }
  return out;
}

export function addIndexerRoutes(router: RouteGroups, options: RouteOptions): void {
  const { node, call } = options;

  for (const [path, route] of LISTS) {
    router.get(`${INDEXER}${path}`, async (ctx) => {
      const request = { route, parameters: parametersOf(ctx) };
      sendJsonText(ctx, (await node.queryOutputs(request, call(ctx))).json);
    });
  }

  for (const [param, kind, length, what] of CHAINS) {
    const segment = param === 'aliasId' ? 'alias' : param === 'nftId' ? 'nft' : 'foundry';
    router.get(`${INDEXER}/outputs/${segment}/:${param}`, async (ctx) => {
      const id = parseHexId(ctx.params[param]!, length, what);
      sendJsonText(ctx, (await node.getChainOutput({ kind, id }, call(ctx))).json);
    });
  }
}
