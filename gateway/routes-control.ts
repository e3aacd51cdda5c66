/**
 * TIP-25's control routes (protected: `/api/*` outside the public list needs the JWT, access.ts), as Hornet serves
 * them (components/coreapi/control.go):
 *   * `POST /api/core/v2/control/database/prune` with exactly one of `{"index": N}`, `{"depth": N}` or
 *     `{"targetDatabaseSize": "30GB"}` answers `{"index": <pruning index reached>}` once pruned;
 *   * `POST /api/core/v2/control/snapshots/create` with `{"index": N}` answers `{"index", "filePath"}` once the
 *     snapshot (the node's genesis/snapshot JSON) is written in the node's `<data-dir>/snapshots/`.
 * Both wait for the node (a prune or a snapshot of a large store takes a while): their deadline is CONTROL_TIMEOUT_MS.
 */
import type { RouteGroups } from './route-groups.ts';
import type { Context } from 'koa';
import type { PruneDatabaseRequest } from '../src/grpc/gen/node.ts';
import { readJsonObject } from './body.ts';
import { HttpProblem } from './errors.ts';
import type { RouteOptions } from './routes.ts';

const CONTROL = '/api/core/v2/control';
export const CONTROL_TIMEOUT_MS = 10 * 60 * 1000;

/** The JSON object of the body (415 for another media type, 400 for anything but an object). */
function jsonBody(ctx: Context, options: RouteOptions): Promise<Record<string, unknown>> {
  return readJsonObject(ctx, options, {
    subject: 'invalid request',
    notUtf8: 'the body is not valid UTF-8',
    malformed: 'malformed JSON body',
    notObject: 'expected a JSON object',
  });
}

function milestoneIndex(v: unknown, key: string): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff)
    throw new HttpProblem(400, `invalid request: "${key}" must be a milestone index (an integer 0..4294967295)`);
  return v;
}

export function addControlRoutes(router: RouteGroups, options: RouteOptions): void {
  const { node, call } = options;

  router.post(`${CONTROL}/database/prune`, async (ctx) => {
    const body = await jsonBody(ctx, options);
    const given = (['index', 'depth', 'targetDatabaseSize'] as const).filter(
      (k) => body[k] !== undefined && body[k] !== null,
    );
    if (given.length !== 1)
      throw new HttpProblem(400, 'invalid request: either index, depth or targetDatabaseSize has to be specified');
    let request: PruneDatabaseRequest;
    if (given[0] === 'targetDatabaseSize') {
      const size = body['targetDatabaseSize'];
      if (typeof size !== 'string' || size === '')
        throw new HttpProblem(400, 'invalid request: "targetDatabaseSize" must be a size like "30GB"');
      request = { target: { $case: 'targetDatabaseSize', value: size } };
    } else if (given[0] === 'depth') {
      request = { target: { $case: 'depth', value: milestoneIndex(body['depth'], 'depth') } };
    } else {
      request = { target: { $case: 'index', value: milestoneIndex(body['index'], 'index') } };
    }
    const answer = await node.pruneDatabase(request, call(ctx, CONTROL_TIMEOUT_MS));
    ctx.body = { index: answer.index };
  });

  router.post(`${CONTROL}/snapshots/create`, async (ctx) => {
    const body = await jsonBody(ctx, options);
    const index = milestoneIndex(body['index'], 'index');
    if (index === 0) throw new HttpProblem(400, 'invalid request: index needs to be specified');
    const answer = await node.createSnapshot({ index }, call(ctx, CONTROL_TIMEOUT_MS));
    ctx.body = { index: answer.index, filePath: answer.filePath };
  });
}
