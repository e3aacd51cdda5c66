/**
 * Hostile requests on the REST surfaces other than block submission (http.ts has those): every read route with
 * junk IDs and indexes, the indexer with junk query parameters, the faucet with junk addresses, the protected
 * routes with junk tokens, the dashboard with junk file names, junk methods; and MQTT over WebSocket with junk
 * CONNECT/SUBSCRIBE/PUBLISH packets, huge topics and abrupt closes. Seeded, so a case can be replayed.
 * Used by scripts/hostile-load.ts (the two-minute memory run) and judged like http.ts: 2xx, or 4xx with the JSON
 * error body (429 and 503 are fine under load too: the node refusing work is not a failure; 501 with the body for a
 * method the server knows for no resource, as RFC 9110 says).
 */
import { connect as mqttConnect } from 'mqtt';
import { Rng } from './mutate.ts';
import type { HttpCase } from './http.ts';

const ID_LENGTHS = [0, 1, 31, 32, 33, 34, 35, 36, 37, 64, 20_000];

function hex(rng: Rng, bytes: number): string {
  let s = '';
  for (let i = 0; i < bytes; i++) s += rng.int(256).toString(16).padStart(2, '0');
  return s;
}

/** A junk path segment: hex IDs of every length (with and without 0x), odd characters, encoded junk, huge numbers. */
export function junkSegment(rng: Rng): string {
  const pick = rng.int(9);
  if (pick < 4) return `${rng.bool(0.8) ? '0x' : ''}${hex(rng, rng.pick(ID_LENGTHS))}`;
  if (pick === 4)
    return encodeURIComponent(String.fromCharCode(...Array.from({ length: 1 + rng.int(40) }, () => rng.int(0x3000))));
  if (pick === 5)
    return rng.pick([
      '-1',
      '0',
      '4294967296',
      '1e9',
      '18446744073709551616',
      'NaN',
      '%00',
      '%ff%fe',
      '..%2f..',
      '%F0%9F%98',
    ]);
  if (pick === 6) return 'z'.repeat(rng.pick([1, 100, 8_000]));
  if (pick === 7) return `${rng.int(2 ** 32)}`;
  return `rms1${'q'.repeat(rng.int(80))}`;
}

const READS = [
  '/api/core/v2/blocks/:id',
  '/api/core/v2/blocks/:id/metadata',
  '/api/core/v2/outputs/:id',
  '/api/core/v2/outputs/:id/metadata',
  '/api/core/v2/transactions/:id/included-block',
  '/api/core/v2/transactions/:id/included-block/metadata',
  '/api/core/v2/milestones/:id',
  '/api/core/v2/milestones/:id/utxo-changes',
  '/api/core/v2/milestones/by-index/:id',
  '/api/core/v2/milestones/by-index/:id/utxo-changes',
  '/api/core/v2/receipts/:id',
  '/api/core/v2/peers/:id',
  '/api/core/v3/blocks/:id',
  '/api/core/v3/blocks/:id/metadata',
  '/api/core/v3/transactions/:id/included-block',
  '/api/indexer/v1/outputs/alias/:id',
  '/api/indexer/v1/outputs/nft/:id',
  '/api/indexer/v1/outputs/foundry/:id',
  '/api/explorer/v2/balance/:id',
  '/api/explorer/v2/blocks/:id/children',
  '/api/explorer/v2/milestones/:id/blocks',
  '/api/explorer/v2/milestones/by-index/:id/blocks',
  '/api/explorer/v2/ledger/updates/by-address/:id',
  '/api/explorer/v2/ledger/updates/by-milestone/:id',
  '/api/explorer/v2/search/:id',
  '/dashboard/:id',
];
const INDEXER = [
  '/api/indexer/v1/outputs',
  '/api/indexer/v1/outputs/basic',
  '/api/indexer/v1/outputs/alias',
  '/api/indexer/v1/outputs/nft',
  '/api/indexer/v1/outputs/foundry',
  '/api/explorer/v2/milestones',
  '/api/explorer/v2/ledger/richest-addresses',
  '/api/explorer/v2/ledger/token-distribution',
];
const INDEXER_PARAMS = [
  'address',
  'unlockableByAddress',
  'hasNativeTokens',
  'minNativeTokenCount',
  'hasStorageDepositReturn',
  'hasTimelock',
  'timelockedBefore',
  'hasExpiration',
  'expiresAfter',
  'sender',
  'tag',
  'issuer',
  'createdBefore',
  'createdAfter',
  'pageSize',
  'cursor',
  'stateController',
  'governor',
  'aliasAddress',
  'sort',
  'startMilestoneIndex',
  'endMilestoneIndex',
  'startTimestamp',
  'endTimestamp',
  'top',
  'ledgerIndex',
  'page',
  'junk',
];
const PROTECTED = [
  '/api/core/v2/peers',
  '/api/core/v2/control/database/prune',
  '/api/core/v2/control/snapshots/create',
  '/api/core/v3/blocks/issuance',
];
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND'];

/** A junk bearer token: empty, not a JWT, a JWT-looking string of junk, an `alg: none` token, a huge one. */
function junkToken(rng: Rng): string {
  const b64 = (o: unknown): string => Buffer.from(JSON.stringify(o)).toString('base64url');
  return rng.pick([
    () => '',
    () => 'Bearer',
    () => `Bearer ${hex(rng, 20)}`,
    () => `Bearer ${b64({ alg: 'none' })}.${b64({ scope: 'admin', exp: 2 ** 40 })}.`,
    () => `Bearer ${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ scope: [1, { x: 2 }], nbf: 'x' })}.${hex(rng, 32)}`,
    () => `Basic ${Buffer.from('admin:admin').toString('base64')}`,
    () => `Bearer ${'a'.repeat(8_000)}`,
  ])();
}

/** One hostile REST request on a surface other than block submission. */
export function surfaceCase(seed: number): HttpCase {
  const rng = new Rng(seed);
  const kind = rng.int(5);
  if (kind === 0) {
    const path = rng.pick(READS).replace(':id', junkSegment(rng));
    return {
      label: `read seed ${seed}`,
      method: rng.bool(0.85) ? 'GET' : rng.pick(METHODS),
      path,
      headers: { accept: rng.pick(['application/json', 'application/vnd.iota.serializer-v1', '*/*', 'x/y;q=junk']) },
    };
  }
  if (kind === 1) {
    const params = Array.from(
      { length: rng.int(6) },
      () => `${rng.pick(INDEXER_PARAMS)}=${rng.bool(0.2) ? '' : junkSegment(rng)}`,
    );
    return {
      label: `indexer seed ${seed}`,
      method: 'GET',
      path: `${rng.pick(INDEXER)}?${params.join('&')}`,
      headers: {},
    };
  }
  if (kind === 2) {
    const address = rng.bool(0.7) ? junkSegment(rng) : rng.int(1000);
    const body = rng.bool(0.8) ? JSON.stringify({ address }) : hex(rng, rng.int(200));
    return {
      label: `faucet seed ${seed}`,
      method: 'POST',
      path: '/api/faucet/v1/enqueue',
      headers: { 'content-type': 'application/json' },
      body: new TextEncoder().encode(body),
    };
  }
  if (kind === 3) {
    const path = rng.pick(PROTECTED);
    const body = JSON.stringify({
      identifier: junkSegment(rng),
      alias: junkSegment(rng),
      index: rng.int(2 ** 32),
      targetDatabaseSize: junkSegment(rng),
    });
    return {
      label: `protected seed ${seed}`,
      method: rng.pick(['GET', 'POST', 'DELETE']),
      path,
      headers: { authorization: junkToken(rng), 'content-type': 'application/json' },
      body: new TextEncoder().encode(body),
    };
  }
  return { label: `method seed ${seed}`, method: rng.pick(METHODS), path: `/${junkSegment(rng)}`, headers: {} };
}

/** Judges an answer under hostile load: 2xx; 4xx with the JSON error body; 429/503 (the node refusing work). */
export function acceptable(status: number, text: string, method: string): boolean {
  if (status >= 200 && status < 300) return true;
  if (status === 503 && text === '') return true; // GET /health of a node that is not healthy: bare by design
  if (status === 501 && !['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'].includes(method))
    return text.includes('"code":501');
  if (status >= 500 && status !== 503) return false;
  if (method === 'HEAD') return true; // no body in an answer to HEAD
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    return body.error?.code === status && typeof body.error.message === 'string';
  } catch {
    return false;
  }
}

/**
 * One MQTT session of hostile behaviour against `wsUrl` (ws://host:port/api/mqtt/v1): subscribes to junk and real
 * topics (huge, wildcard-heavy, invalid UTF-16), publishes junk (the broker refuses client publishes), sometimes
 * closes abruptly mid-session. Resolves once the session is over; never rejects.
 */
export async function mqttSession(wsUrl: string, seed: number, ms: number): Promise<void> {
  const rng = new Rng(seed);
  const topics = [
    () => 'blocks',
    () => 'milestone-info/latest',
    () => `block-metadata/0x${hex(rng, 32)}`,
    () => `outputs/unlock/address/${junkSegment(rng)}`,
    () => `blocks/tagged-data/0x${hex(rng, rng.int(300))}`,
    () => '#',
    () => '+/+/+/+/+/+/+/+',
    () => 'x'.repeat(rng.pick([10, 1_000, 60_000])),
    () => `transactions/${junkSegment(rng)}/included-block`,
    () => '\ud83d\u0000/topic',
  ];
  await new Promise<void>((resolve) => {
    const client = mqttConnect(wsUrl, {
      reconnectPeriod: 0,
      connectTimeout: 3_000,
      keepalive: rng.pick([0, 1, 60]),
      clientId: rng.bool(0.5) ? junkSegment(rng).slice(0, 200) : '',
    });
    const end = (): void => {
      clearTimeout(timer);
      client.end(rng.bool(0.5), {}, () => resolve());
      setTimeout(resolve, 1_000).unref();
    };
    const timer = setTimeout(end, ms);
    client.on('error', () => end());
    client.on('close', () => end());
    client.on('connect', () => {
      for (let i = 0; i < 1 + rng.int(20); i++) {
        try {
          client.subscribe(rng.pick(topics)(), { qos: rng.pick([0, 1, 2]) as 0 | 1 | 2 });
          if (rng.bool(0.2)) client.publish(rng.pick(topics)(), Buffer.alloc(rng.int(70_000)));
        } catch {
          // the client library refuses some junk itself
        }
      }
      if (rng.bool(0.3)) (client as unknown as { stream?: { destroy(): void } }).stream?.destroy(); // abrupt close
    });
  });
}
