/**
 * The explorer routes (`/api/explorer/v2`, inx-chronicle 1.0's, docs/explorer.md) as thin adapters: IDs and indexes in
 * the path are checked here like every other path ID (400 before any call), the address and the query parameters go
 * to the node as the client wrote them (it knows the network's prefix and checks them: 400 naming the parameter), and
 * the answer is the node's JSON text. `/balance/{address}` does not read the query string (chronicle's balance has no
 * query extractor, and this node's core routes without parameters ignore theirs too). `/search/{text}` is this
 * node's (the dashboard explorer's search box): the text goes to the node as written, which says what it names.
 */
import type { Context } from 'koa';
import type { ExplorerRequest, LedgerJsonResponse } from '../src/grpc/gen/node.ts';
import type { CallOptions } from '../src/grpc/port.ts';
import { parseHexId, parseIndex, V2_ID_BYTES } from './ids.ts';
import type { RouteGroups } from './route-groups.ts';
import { parametersOf } from './routes-indexer.ts';
import type { RouteOptions } from './routes.ts';
import { sendJsonText } from './send.ts';

const EXPLORER = '/api/explorer/v2';

type Subject = ExplorerRequest['subject'];
type Call = (request: ExplorerRequest, options: CallOptions) => Promise<LedgerJsonResponse>;

const address = (ctx: Context): Subject => ({ $case: 'address', value: ctx.params['address']! });
const milestoneId = (ctx: Context): Subject => ({
  $case: 'milestoneId',
  value: parseHexId(ctx.params['milestoneId']!, V2_ID_BYTES, 'milestone ID'),
});
const milestoneIndex = (ctx: Context): Subject => ({
  $case: 'milestoneIndex',
  value: parseIndex(ctx.params['milestoneIndex']!, 'milestone index'),
});
const blockId = (ctx: Context): Subject => ({
  $case: 'blockId',
  value: parseHexId(ctx.params['blockId']!, V2_ID_BYTES, 'block ID'),
});
const text = (ctx: Context): Subject => ({ $case: 'text', value: ctx.params['text']! });
const nothing = (): Subject => undefined;

/** Routes whose query string is not read at all (a name given twice included), as chronicle's balance. */
const QUERY_NOT_READ = new Set(['/balance/:address']);

export function addExplorerRoutes(router: RouteGroups, options: RouteOptions): void {
  const { node, call } = options;
  const routes: [path: string, subject: (ctx: Context) => Subject, rpc: Call][] = [
    ['/balance/:address', address, node.getExplorerBalance],
    ['/blocks/:blockId/children', blockId, node.getBlockChildren],
    ['/milestones', nothing, node.getExplorerMilestones],
    ['/milestones/by-index/:milestoneIndex/blocks', milestoneIndex, node.getMilestoneBlocks],
    ['/milestones/:milestoneId/blocks', milestoneId, node.getMilestoneBlocks],
    ['/ledger/richest-addresses', nothing, node.getRichestAddresses],
    ['/ledger/token-distribution', nothing, node.getTokenDistribution],
    ['/ledger/updates/by-address/:address', address, node.getLedgerUpdatesByAddress],
    ['/ledger/updates/by-milestone/:milestoneId', milestoneId, node.getLedgerUpdatesByMilestone],
    ['/search/:text', text, node.explorerSearch],
  ];
  for (const [path, subject, rpc] of routes) {
    router.get(`${EXPLORER}${path}`, async (ctx) => {
      const parameters = QUERY_NOT_READ.has(path) ? [] : parametersOf(ctx);
      const request: ExplorerRequest = { subject: subject(ctx), parameters };
      sendJsonText(ctx, (await rpc.call(node, request, call(ctx))).json);
    });
  }
}
