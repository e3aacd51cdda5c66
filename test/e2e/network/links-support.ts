/**
 * Three `ledger-node run` processes with their peer doors on their own loopback addresses, for tests that cut links
 * with nftables (harness/nft.ts): A (coordinator, a milestone every second) on 127.0.25.2, B on 127.0.25.3 dialing A,
 * C on 127.0.25.4 dialing A and B. Addresses of this suite's own, so that the rules of another fault test running at
 * the same time on the machine (nftables is machine-wide) never cut these nodes. REST and the node service door stay
 * on 127.0.0.1 (never cut). Every peer link setting keeps its default. Helpers read the peers route (which needs the
 * JWT secret the nodes get) and time how long until a link is seen gone or back.
 */
import { join } from 'node:path';
import { signJwtHs256 } from '../../../gateway/index.ts';
import { spawnNode, type SpawnedNode } from '../../../harness/process.ts';

const SECRET = 'peer links secret';
const AUTH = { authorization: `Bearer ${signJwtHs256({ sub: 'operator' }, SECRET)}` };

export interface LinkNode extends SpawnedNode {
  name: string;
  /** Its peer door's address (`--peer-host`). */
  host: string;
  /** Hex node ID (the peers routes' `id`). */
  nodeId: string;
  /** `http://127.0.0.1:PORT/api/core/v2` */
  api: string;
}

interface PeerJson {
  id: string;
  multiAddresses: string[];
  connected: boolean;
}

async function start(name: string, host: string, dir: string, args: string[]): Promise<LinkNode> {
  const node = await spawnNode(join(dir, name), ['--min-pow-score', '0', '--pow-workers', '1', ...args], {
    peerHost: host,
    env: { LEDGER_GATEWAY_JWT_SECRET: SECRET },
  });
  const api = `${node.rest}/api/core/v2`;
  const info = (await (await fetch(`${api}/info`)).json()) as { identity: { nodeId: string } };
  return { ...node, name, host, nodeId: info.identity.nodeId, api };
}

/** Starts A, B and C in `dir` (B and C take A's genesis file, without running a coordinator). */
export async function startThree(dir: string): Promise<LinkNode[]> {
  const a = await start('a', '127.0.25.2', dir, ['--milestone-interval', '1']);
  const follower = ['--genesis', join(dir, 'a', 'genesis.json'), '--coordinator', 'false'];
  const b = await start('b', '127.0.25.3', dir, [...follower, '--peer', a.peer]);
  const c = await start('c', '127.0.25.4', dir, [...follower, '--peer', a.peer, '--peer', b.peer]);
  return [a, b, c];
}

/** The peers route of `n`. */
export async function peersOf(n: LinkNode): Promise<PeerJson[]> {
  const res = await fetch(`${n.api}/peers`, { headers: AUTH });
  if (res.status !== 200) throw new Error(`GET ${n.name}/peers: ${res.status}`);
  return (await res.json()) as PeerJson[];
}

/** Whether `n` lists `other` connected. */
export async function linked(n: LinkNode, other: LinkNode): Promise<boolean> {
  return (await peersOf(n)).some((p) => p.id === other.nodeId && p.connected);
}

/** Polls every 50 ms until `n`'s link to `other` is `up` (or not); the ms it took, or undefined after `withinMs`. */
export async function until(n: LinkNode, other: LinkNode, up: boolean, withinMs: number): Promise<number | undefined> {
  const t0 = performance.now();
  for (;;) {
    if ((await linked(n, other)) === up) return Math.round(performance.now() - t0);
    if (performance.now() - t0 > withinMs) return undefined;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Submits a tagged-data block to `n`; the HTTP status and the block ID. */
export async function submit(n: LinkNode, tag: string): Promise<{ status: number; blockId: string }> {
  const res = await fetch(`${n.api}/blocks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: `0x${Buffer.from(tag).toString('hex')}` } }),
  });
  const body = (await res.json()) as { blockId: string };
  return { status: res.status, blockId: body.blockId };
}

/** The median and the maximum of `xs`. */
export function medianMax(xs: readonly number[]): { median: number; max: number } {
  const s = [...xs].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 === 1 ? s[mid]! : Math.round((s[mid - 1]! + s[mid]!) / 2);
  return { median, max: s[s.length - 1]! };
}
