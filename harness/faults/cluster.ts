/**
 * The fault suite's cluster: N `ledger-node run` processes on distinct loopback addresses (127.0.0.2, .3, ... by
 * default), each with its REST, gRPC and peer doors bound to its address, its own data folder and its own process
 * group, whose dials harness/nft.ts binds to the node's address (a partition by address then cuts them both ways).
 * Node 0 runs the coordinator; the others get the same genesis without its keys. A node peers with the nodes started
 * before it at the first start and with all the others after a restart; a restart reuses its data folder and ports.
 * Optionally a standalone gateway (`ledger-node gateway`) over one node's gRPC door. What each process wrote goes to
 * `<root>/<name>.log` when it ends (kept with the data folders on request).
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { devNetworkGenesis } from '../../src/node/genesis/dev-genesis.ts';
import { genesisToJson } from '../../src/node/genesis/genesis.ts';
import type { NftFaults } from '../nft.ts';
import { spawnGateway, spawnNode, type Spawned, type SpawnedNode } from '../process.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

export interface ClusterOptions {
  /** Folder of the data folders and genesis files. */
  root: string;
  /** Where the nodes' source addresses are bound. */
  nft: NftFaults;
  /** Nodes (default 3). */
  size?: number;
  /** The first node's address; the others follow (default 127.0.0.2). */
  firstAddress?: string;
  /** Seconds between milestones (default 0.5). */
  milestoneInterval?: number;
  /** The node a standalone gateway serves (default: the last one); false: no gateway. */
  gateway?: number | false;
  log?: (line: string) => void;
}

/** The address `offset` after a 127.0.0.x address. */
export function addressAfter(first: string, offset: number): string {
  const parts = first.split('.').map(Number);
  const last = parts[3]! + offset;
  if (parts[0] !== 127 || parts.length !== 4 || last > 254) throw new Error(`no loopback address ${first} + ${offset}`);
  return `127.${parts[1]}.${parts[2]}.${last}`;
}

/** The process group a node at `address` runs as (70000 + the address's last 16 bits). */
export const groupOf = (address: string): number => {
  const [, , c, d] = address.split('.').map(Number);
  return 70000 + c! * 256 + d!;
};

export class ClusterNode {
  spawned: SpawnedNode | undefined;
  paused = false;
  /** Ports of the first start, kept by restarts (0: not started yet). */
  ports = { rest: 0, grpc: 0, peer: 0 };
  identity = '';

  constructor(
    readonly index: number,
    readonly name: string,
    readonly address: string,
    readonly dataDir: string,
    readonly genesisFile: string,
    readonly coordinator: boolean,
  ) {}

  get gid(): number {
    return groupOf(this.address);
  }

  /** `http://ADDRESS:PORT` of its REST door (the same across restarts). */
  get base(): string {
    return `http://${this.address}:${this.ports.rest}`;
  }

  /** `0xKEY@ADDRESS:PORT` of its peer door. */
  get peerTarget(): string {
    return `${this.identity}@${this.address}:${this.ports.peer}`;
  }

  get grpc(): string {
    return `${this.address}:${this.ports.grpc}`;
  }

  get up(): boolean {
    return this.spawned !== undefined;
  }
}

export class Cluster {
  gateway: { proc: Spawned; base: string; node: ClusterNode } | undefined;

  private constructor(
    readonly nodes: ClusterNode[],
    /** The genesis in JSON, with the coordinator's keys and the dev wallet's seed. */
    readonly genesis: Json,
    private readonly interval: number,
    private readonly root: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Writes the genesis, binds each node's source address, starts the nodes one by one, then the gateway. */
  static async start(o: ClusterOptions): Promise<Cluster> {
    const size = o.size ?? 3;
    if (size < 2) throw new Error(`a cluster has at least 2 nodes, not ${size}`);
    const interval = o.milestoneInterval ?? 0.5;
    const genesis = genesisToJson(devNetworkGenesis({ minPowScore: 10, milestoneInterval: interval }));
    const { coordinator: _keys, ...withoutKeys } = genesis;
    const withKeysFile = join(o.root, 'genesis-coordinator.json');
    const withoutKeysFile = join(o.root, 'genesis.json');
    writeFileSync(withKeysFile, JSON.stringify(genesis));
    writeFileSync(withoutKeysFile, JSON.stringify(withoutKeys));
    const nodes = Array.from({ length: size }, (_, i) => {
      const file = i === 0 ? withKeysFile : withoutKeysFile;
      return new ClusterNode(
        i,
        `n${i + 1}`,
        addressAfter(o.firstAddress ?? '127.0.0.2', i),
        join(o.root, `n${i + 1}`),
        file,
        i === 0,
      );
    });
    const cluster = new Cluster(nodes, genesis, interval, o.root, o.log ?? (() => undefined));
    try {
      for (const n of nodes) await o.nft.bindSource(n.gid, n.address);
      for (const n of nodes) await cluster.launch(n, nodes.slice(0, n.index));
      const at = o.gateway === undefined ? size - 1 : o.gateway;
      if (at !== false) await cluster.startGateway(nodes[at]!);
    } catch (e) {
      await cluster.stop();
      throw e;
    }
    return cluster;
  }

  get coordinator(): ClusterNode {
    return this.nodes[0]!;
  }

  /** SIGKILL, and wait for the exit. */
  async kill(n: ClusterNode): Promise<void> {
    const s = n.spawned;
    if (!s) return;
    n.spawned = undefined;
    s.proc.child.kill('SIGKILL');
    await s.proc.exited;
    this.saveLog(n.name, s.proc, 'SIGKILLed');
    n.paused = false;
  }

  /** Starts a node again over its data folder, on its ports, peering with every other node. */
  async restart(n: ClusterNode): Promise<void> {
    if (n.up) throw new Error(`${n.name} is running`);
    await this.launch(
      n,
      this.nodes.filter((m) => m !== n),
    );
  }

  /** SIGSTOP: the process keeps its sockets and answers nothing. */
  pause(n: ClusterNode): void {
    n.spawned?.proc.child.kill('SIGSTOP');
    n.paused = true;
  }

  resume(n: ClusterNode): void {
    n.spawned?.proc.child.kill('SIGCONT');
    n.paused = false;
  }

  /** Whether every node and the gateway still run (a crash is an exit nobody asked for). */
  crashed(): string[] {
    const out: string[] = [];
    for (const n of this.nodes) {
      const c = n.spawned?.proc.child;
      if (c && (c.exitCode !== null || c.signalCode !== null))
        out.push(`${n.name} exited (${c.exitCode ?? c.signalCode})`);
    }
    const g = this.gateway?.proc.child;
    if (g && (g.exitCode !== null || g.signalCode !== null))
      out.push(`the gateway exited (${g.exitCode ?? g.signalCode})`);
    return out;
  }

  /** The last lines a node wrote (for a failure's report). */
  tail(n: ClusterNode, lines = 20): string {
    return (n.spawned?.proc.output() ?? '').split('\n').slice(-lines).join('\n');
  }

  /** Stops the gateway and every node (a paused one is resumed first); safe to call twice. */
  async stop(): Promise<void> {
    const g = this.gateway;
    this.gateway = undefined;
    if (g) this.saveLog('gateway', g.proc, `stopped (exit ${await g.proc.stop(3000)})`);
    await Promise.all(
      this.nodes.map(async (n) => {
        const s = n.spawned;
        if (!s) return;
        if (n.paused) this.resume(n);
        n.spawned = undefined;
        this.saveLog(n.name, s.proc, `stopped (exit ${await s.proc.stop(5000)})`);
      }),
    );
  }

  private saveLog(name: string, proc: Spawned, end: string): void {
    appendFileSync(join(this.root, `${name}.log`), `${proc.output()}\n--- ${new Date().toISOString()} ${end}\n`);
  }

  private async launch(n: ClusterNode, peers: ClusterNode[]): Promise<void> {
    const ports = n.ports.rest === 0 ? [] : ['--rest-port', `${n.ports.rest}`, '--grpc-port', `${n.ports.grpc}`];
    const flags = [
      '--genesis',
      n.genesisFile,
      '--pow-workers',
      '1',
      '--milestone-interval',
      String(this.interval),
      '--coordinator',
      String(n.coordinator),
      ...ports,
      ...(n.ports.peer === 0 ? [] : ['--peer-port', `${n.ports.peer}`]),
      ...peers.flatMap((p) => ['--peer', p.peerTarget]),
    ];
    const spawned = await spawnNode(n.dataDir, flags, { host: n.address, peerHost: n.address, gid: n.gid });
    n.spawned = spawned;
    n.ports = { rest: spawned.restPort, grpc: spawned.grpcPort, peer: spawned.peerPort };
    n.identity = spawned.identity;
    this.log(`${n.name} up at ${n.address} (REST ${n.ports.rest}, gRPC ${n.ports.grpc}, peer ${n.ports.peer})`);
  }

  private async startGateway(n: ClusterNode): Promise<void> {
    const g = await spawnGateway(n.grpc);
    this.gateway = { proc: g.proc, base: g.rest, node: n };
    this.log(`gateway at ${g.rest} over ${n.name}'s gRPC door ${n.grpc}`);
  }
}
