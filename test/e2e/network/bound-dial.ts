/**
 * Outgoing peer streams from a loopback address of the test's choice, so that an nft partition (harness/nft.ts) can
 * cut a node that dials: the kernel gives every loopback connection the source 127.0.0.1 whatever the node listens on.
 * Each static peer's address gets a forwarder on 127.0.0.1 whose onward connection leaves from `localAddress`; the
 * node dials the forwarder (PeeringOptions.dial). A partition of `localAddress` then stalls the node's streams as it
 * would stall a direct connection (packets dropped, nothing reset).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { dialPeer, type PeerLink } from '../../../src/node/peering/link.ts';

export class BoundDialer {
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly routes = new Map<string, string>();

  constructor(readonly localAddress: string) {}

  /** Adds a forwarder to `target` (`host:port`). */
  async route(target: string): Promise<void> {
    const m = /^(.+):(\d+)$/.exec(target);
    if (!m) throw new Error(`not host:port: ${target}`);
    const [host, port] = [m[1]!, Number(m[2])];
    const server = createServer((inbound) => {
      const outbound = createConnection({ host, port, localAddress: this.localAddress });
      for (const s of [inbound, outbound]) {
        this.sockets.add(s);
        s.on('error', () => end());
        s.on('close', () => end());
      }
      function end(): void {
        inbound.destroy();
        outbound.destroy();
      }
      inbound.pipe(outbound);
      outbound.pipe(inbound);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.servers.push(server);
    this.routes.set(target, `127.0.0.1:${(server.address() as { port: number }).port}`);
  }

  /** What the node dials instead of `address` (its forwarder; the address itself when it has none). */
  readonly dial = (address: string): PeerLink => dialPeer(this.routes.get(address) ?? address);

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await Promise.all(this.servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
