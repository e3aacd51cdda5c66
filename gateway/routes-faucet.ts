/**
 * The dev network's faucet (`/api/faucet/v1`), inx-faucet's REST API on the REST port: `GET /info` answers
 * `{isHealthy, address, balance, tokenName, bech32Hrp}` and `POST /enqueue` with `{"address": "<bech32>"}` answers 202
 * `{address, waitingRequests}`, so the SDKs' `requestFundsFromFaucet(url, address)` works with
 * `url = http://HOST:REST_PORT/api/faucet/v1/enqueue`. The node checks the address and decides; a node without a dev
 * wallet answers 503. Errors have the gateway's body (docs/decisions.md §1, §2) with inx-faucet's message as reason.
 * The node counts waiting requests per client: the gateway passes the client's IP address (the socket's peer, as the
 * rate limit reads it), and a client with too many requests waiting gets 429 with Retry-After; a faucet that cannot
 * take a request now (not synced, not enough funds, queue full) answers 503 with Retry-After (decisions §26).
 */
import type { RouteGroups } from './route-groups.ts';
import type { Context } from 'koa';
import { readJsonObject } from './body.ts';
import { HttpProblem, NodeCallError } from './errors.ts';
import type { RouteOptions } from './routes.ts';
import { sendJsonText } from './send.ts';

const FAUCET = '/api/faucet/v1';
/** The node's code for a client with too many requests waiting (RESOURCE_EXHAUSTED, elsewhere 503): here 429. */
const TOO_MANY_REQUESTS = 'TOO_MANY_REQUESTS';

/** inx-faucet's answer to a body it cannot bind: 400 `Invalid Request! Error: ...`. */
function badRequest(reason: string): HttpProblem {
  return new HttpProblem(400, `Invalid Request! Error: ${reason}`);
}

/** The `address` of an enqueue body (JSON; absent reads as "", which the node refuses as no bech32 address). */
async function enqueueAddress(ctx: Context, options: RouteOptions): Promise<string> {
  const json = await readJsonObject(ctx, options, {
    subject: 'Invalid Request! Error',
    notUtf8: 'request body is not valid UTF-8',
    malformed: 'malformed JSON body',
    notObject: 'expected a JSON object {"address": "<bech32>"}',
  });
  const address = (json as { address?: unknown }).address;
  if (address === undefined || address === null) return '';
  if (typeof address !== 'string') throw badRequest(`"address" must be a string, got ${typeof address}`);
  return address;
}

/** A refusal for too many waiting requests of this client as 429 with the node's Retry-After; undefined otherwise. */
function tooManyRequests(e: unknown): HttpProblem | undefined {
  if (!(e instanceof NodeCallError)) return undefined;
  if (e.code !== TOO_MANY_REQUESTS) return undefined;
  return new HttpProblem(429, e.details, { 'retry-after': String(e.retryAfterSeconds ?? 1) });
}

export function addFaucetRoutes(router: RouteGroups, options: RouteOptions): void {
  const { node, call } = options;

  router.get(`${FAUCET}/info`, async (ctx) => {
    const info = await node.faucetInfo({}, call(ctx));
    // The balance is a u64: written as its exact decimal digits, as inx-faucet's JSON number.
    sendJsonText(
      ctx,
      `{"isHealthy":${info.isHealthy},"address":${JSON.stringify(info.address)},"balance":${info.balance.toString()},` +
        `"tokenName":${JSON.stringify(info.tokenName)},"bech32Hrp":${JSON.stringify(info.bech32Hrp)}}`,
    );
  });

  router.post(`${FAUCET}/enqueue`, async (ctx) => {
    const address = await enqueueAddress(ctx, options);
    const request = { address, client: ctx.req.socket.remoteAddress ?? '' };
    const answer = await node.faucetEnqueue(request, call(ctx)).catch((e: unknown) => {
      throw tooManyRequests(e) ?? e;
    });
    ctx.status = 202;
    ctx.body = { address: answer.address, waitingRequests: answer.waitingRequests };
  });
}
