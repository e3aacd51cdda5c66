/**
 * The node as a process: `ledger-node run` / `ledger-node gateway` spawned from bin/ on free ports, ready once their
 * start-up log lines name the ports; stop() is SIGTERM, then SIGKILL after a grace period. Used by the end-to-end
 * tests, scripts/ (soak, crash test, hostile load) and benchmarks/. `spawnReady` spawns any other server the same way
 * (the REST benchmark's Koa ceiling and its node over gRPC, benchmarks/rest/serve.ts). `memoryOf` and `cpuSeconds`
 * read what a process uses from /proc (Linux).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../bin/ledger-node.js', import.meta.url));

export interface Spawned {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/** `npm start`'s way to start `ledger-node run` (jemalloc, the heap cap, a build when stale); it adds `run` itself. */
export const START_SCRIPT: readonly string[] = ['bash', fileURLToPath(new URL('../scripts/start.sh', import.meta.url))];

export interface SpawnOptions {
  /** Environment variables added to this process's (e.g. the gateway's JWT secret). */
  env?: Record<string, string>;
  /** How long the ready lines may take (default 30 s). */
  timeoutMs?: number;
  /** What the errors call the process (default: the command line). */
  name?: string;
  /** The group the process runs as (needs root; harness/nft.ts `bindSource` tells processes apart by it). */
  gid?: number;
}

/**
 * Spawns `command` (program, then arguments) and waits until every pattern matched its output; returns the first
 * capture group of each. Fails (and kills the process) when it exits first or `timeoutMs` passes.
 */
export async function spawnReady(
  command: readonly string[],
  patterns: RegExp[],
  options: SpawnOptions = {},
): Promise<{ proc: Spawned; captures: string[] }> {
  const { env, timeoutMs = 30000, name = command.join(' '), gid } = options;
  const child = spawn(command[0]!, command.slice(1), {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
    ...(gid === undefined ? {} : { gid }),
  });
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const proc: Spawned = {
    child,
    output: () => out,
    exited,
    async stop(graceMs = 10000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        const code = await exited;
        clearTimeout(timer);
        return code;
      }
      return exited;
    },
  };
  const captures = await new Promise<string[]>((resolve, reject) => {
    const check = (): void => {
      const found = patterns.map((p) => p.exec(out)?.[1]);
      if (found.every((f) => f !== undefined)) {
        cleanup();
        resolve(found as string[]);
      }
    };
    const onData = (d: Buffer): void => {
      out += d.toString();
      check();
    };
    const onExit = (code: number | null): void => {
      cleanup();
      reject(new Error(`${name} exited with ${code} before it was ready:\n${out}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`${name} not ready within ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('exit', onExit);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
  return { proc, captures };
}

/** `host` as a regular expression's text. */
const hostPattern = (host: string): string => host.replace(/\./g, '\\.');

export interface LedgerNodeOptions extends Omit<SpawnOptions, 'name'> {
  /** Node.js flags before bin/ledger-node.js (e.g. `--cpu-prof`). */
  nodeFlags?: readonly string[];
  /** More start-up lines to wait for; the first capture group of each is returned as `captures`. */
  ready?: RegExp[];
}

export interface NodeSpawnOptions extends LedgerNodeOptions {
  /** Through scripts/start.sh as `npm start` runs it (then `nodeFlags` cannot be given: NODE_OPTIONS can). */
  startScript?: boolean;
  /** `--rest-host` and `--grpc-host` (the node's default: 127.0.0.1). */
  host?: string;
  /** `--peer-host` (the node's default: 127.0.0.1). */
  peerHost?: string;
  /** bin/ledger-node.js of another checkout (benchmarks comparing two commits side by side; default: this one's). */
  bin?: string;
}

export interface SpawnedNode {
  proc: Spawned;
  restPort: number;
  grpcPort: number;
  peerPort: number;
  /** The node's identity key, 0x-hex (what `--peer 0xKEY@HOST:PORT` names). */
  identity: string;
  /** `http://HOST:PORT` of the REST API. */
  rest: string;
  /** `HOST:PORT` of the node service door. */
  grpc: string;
  /** `HOST:PORT` of the peer door. */
  peer: string;
  /** The first capture group of each `ready` pattern. */
  captures: string[];
}

/**
 * `ledger-node run --data-dir DIR --rest-port 0 --grpc-port 0 --peer-port 0 ...extra`, ready once the listeners are
 * logged; with `startScript`, through scripts/start.sh as `npm start` runs it.
 */
export async function spawnNode(
  dataDir: string,
  extra: string[] = [],
  options: NodeSpawnOptions = {},
): Promise<SpawnedNode> {
  const {
    startScript,
    host = '127.0.0.1',
    peerHost = '127.0.0.1',
    nodeFlags = [],
    ready = [],
    bin = BIN,
    ...spawnOptions
  } = options;
  if (startScript && nodeFlags.length > 0) throw new Error('spawnNode: nodeFlags do not go through scripts/start.sh');
  const hosts = [
    ...(options.host ? ['--rest-host', host, '--grpc-host', host] : []),
    ...(options.peerHost ? ['--peer-host', peerHost] : []),
  ];
  const flags = ['--data-dir', dataDir, '--rest-port', '0', '--grpc-port', '0', '--peer-port', '0', ...hosts, ...extra];
  const { proc, captures } = await spawnReady(
    startScript ? [...START_SCRIPT, ...flags] : [process.execPath, ...nodeFlags, bin, 'run', ...flags],
    [
      new RegExp(`gRPC NodeService listening on ${hostPattern(host)}:(\\d+)`),
      new RegExp(`REST API listening on http://${hostPattern(host)}:(\\d+)/`),
      new RegExp(`peer door listening on ${hostPattern(peerHost)}:(\\d+)`),
      /identity (0x[0-9a-f]{64})/,
      /(remote PoW (?:on|off))/,
      ...ready,
    ],
    { ...spawnOptions, name: `ledger-node run ${flags.join(' ')}` },
  );
  const [grpcPort, restPort, peerPort] = captures.slice(0, 3).map(Number) as [number, number, number];
  return {
    proc,
    grpcPort,
    restPort,
    peerPort,
    identity: captures[3]!,
    rest: `http://${host}:${restPort}`,
    grpc: `${host}:${grpcPort}`,
    peer: `${peerHost}:${peerPort}`,
    captures: captures.slice(5),
  };
}

export interface GatewaySpawnOptions extends LedgerNodeOptions {
  /** `--host` (the gateway's default: 127.0.0.1). */
  host?: string;
}

/**
 * `ledger-node gateway --node NODE --rest-port 0 ...extra`, ready once it logs its port; NODE is `HOST:PORT`, or a
 * port on 127.0.0.1.
 */
export async function spawnGateway(
  node: number | string,
  extra: string[] = [],
  options: GatewaySpawnOptions = {},
): Promise<{ proc: Spawned; port: number; rest: string; captures: string[] }> {
  const { host = '127.0.0.1', nodeFlags = [], ready = [], ...spawnOptions } = options;
  const args = [
    'gateway',
    '--node',
    typeof node === 'number' ? `127.0.0.1:${node}` : node,
    ...(options.host ? ['--host', host] : []),
    '--rest-port',
    '0',
    ...extra,
  ];
  const { proc, captures } = await spawnReady(
    [process.execPath, ...nodeFlags, BIN, ...args],
    [new RegExp(`gateway listening on ${hostPattern(host)}:(\\d+)`), ...ready],
    { ...spawnOptions, name: `ledger-node ${args.join(' ')}` },
  );
  const port = Number(captures[0]);
  return { proc, port, rest: `http://${host}:${port}`, captures: captures.slice(1) };
}

/** A process's resident memory in MB from /proc/<pid>/status: all of it (VmRSS) and what it allocated (RssAnon). */
export interface Memory {
  rss: number;
  anon: number;
}

/** The memory of process `pid` (NaN for a figure the kernel does not give), or undefined where it cannot be read. */
export function memoryOf(pid: number): Memory | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, anon: kb('RssAnon') / 1024 };
}

/** The VmRSS of process `pid` in MB; NaN where it cannot be read. */
export const rssMb = (pid: number): number => memoryOf(pid)?.rss ?? NaN;

/** CPU seconds (user + system, all threads) the processes have used so far, from /proc; NaN where unreadable. */
export function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
    } catch {
      return NaN;
    }
  }
  return ticks / 100; // USER_HZ: 100 on Linux
}
