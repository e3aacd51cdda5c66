/**
 * Waiting faucet requests per client, so one client cannot fill the faucet's queue (5,000 requests) for everyone.
 * A client is the IP address the REST gateway saw (FaucetEnqueueRequest.client): an IPv4 address (also written as
 * `::ffff:a.b.c.d`), or the /64 prefix of an IPv6 address (one host usually holds a whole /64). A loopback client
 * (127.0.0.0/8, ::1) is typically a developer on the node's machine and may have more requests waiting; behind a
 * reverse proxy on the same machine every client is the proxy's loopback address and they share that limit.
 * An empty client (a caller of the node service itself, not through the gateway) is not counted.
 */

export interface ClientLimits {
  /** Requests of one client waiting at once. */
  perClient: number;
  /** Requests of a loopback client waiting at once. */
  perLoopbackClient: number;
}

/** Who a request counts against and how many of its requests may wait. */
export interface FaucetClient {
  key: string;
  limit: number;
}

/** The eight 16-bit groups of an IPv6 address as numbers, or undefined when the text is not one. */
function ipv6Groups(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string | undefined): string[] => (s === undefined || s === '' ? [] : s.split(':'));
  const head = part(halves[0]);
  const tail = part(halves[1]);
  const last = halves.length === 2 ? tail : head;
  // embedded IPv4
  if (last.length > 0 && last[last.length - 1]!.includes('.')) last.splice(last.length - 1, 1, '0', '0');
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => '0'), ...tail];
  if (!groups.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => parseInt(g, 16));
}

/** The client a request counts against, or undefined for an empty address (not counted). */
export function faucetClientOf(ip: string, limits: ClientLimits): FaucetClient | undefined {
  let a = ip.trim().toLowerCase();
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  if (a === '') return undefined;
  if (a.startsWith('::ffff:') && a.includes('.')) a = a.slice('::ffff:'.length);
  if (!a.includes(':')) return { key: a, limit: a.startsWith('127.') ? limits.perLoopbackClient : limits.perClient };
  const groups = ipv6Groups(a);
  if (groups === undefined) return { key: a, limit: limits.perClient }; // not an address: counted under its text
  if (groups.every((g, i) => g === (i === 7 ? 1 : 0))) return { key: '::1', limit: limits.perLoopbackClient };
  return {
    key: `${groups
      .slice(0, 4)
      .map((g) => g.toString(16))
      .join(':')}::/64`,
    limit: limits.perClient,
  };
}

/** How many requests of each client wait (queued, or in the transaction not yet confirmed). */
export class WaitingPerClient {
  private readonly counts = new Map<string, number>();

  /** Whether `client` may have one more request waiting. */
  allows(client: FaucetClient | undefined): boolean {
    return client === undefined || (this.counts.get(client.key) ?? 0) < client.limit;
  }

  add(client: FaucetClient | undefined): void {
    if (client !== undefined) this.counts.set(client.key, (this.counts.get(client.key) ?? 0) + 1);
  }

  remove(client: FaucetClient | undefined): void {
    if (client === undefined) return;
    const n = (this.counts.get(client.key) ?? 0) - 1;
    if (n > 0) this.counts.set(client.key, n);
    else this.counts.delete(client.key);
  }
}
