/**
 * What the REST benchmarks (run.ts, http.ts) share: the servers they measure, each a process of its own started
 * through harness/process.ts and watched while it is measured (serve.ts's Koa ceiling among them), the machine line,
 * medians and number formatting.
 */
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { spawnReady, type Spawned } from '../../harness/process.ts';

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));

/** The lines `ledger-node run` prints once ready: its gRPC port, its REST port, its remote PoW setting. */
export const NODE_READY = [
  /gRPC NodeService listening on 127\.0\.0\.1:(\d+)/,
  /REST API listening on http:\/\/127\.0\.0\.1:(\d+)\//,
  /remote PoW (\w+)/,
];

const stopping = new Set<Spawned>();

/** Reports a server that exits before `stopServer` stopped it (it dies while measured), with its last output. */
export function watched<T extends { proc: Spawned }>(server: T, name: string): T {
  const { proc } = server;
  void proc.exited.then((code) => {
    if (!stopping.has(proc))
      console.error(
        `${name} exited with ${code ?? proc.child.signalCode} while measured:\n${proc.output().slice(-3000)}`,
      );
  });
  return server;
}

/** Stops a server (SIGTERM) and waits for it to exit. */
export async function stopServer(proc: Spawned): Promise<void> {
  stopping.add(proc);
  await proc.stop();
}

/** A mode of serve.ts (`node --import tsx serve.ts MODE ...args`, after `nodeFlags`), ready once `patterns` match. */
export async function spawnServe(
  mode: string,
  args: string[],
  patterns: RegExp[],
  nodeFlags: readonly string[] = [],
): Promise<{ proc: Spawned; captures: string[] }> {
  const server = await spawnReady([process.execPath, ...nodeFlags, '--import', 'tsx', SERVE, mode, ...args], patterns);
  return watched(server, `serve.ts ${mode}`);
}

/** serve.ts's Koa ceiling answering `json` (text) and `raw` (bytes) for every block ID; its port and base URL. */
export async function spawnKoa(
  json: string,
  raw: Uint8Array,
  nodeFlags: readonly string[] = [],
): Promise<{ proc: Spawned; port: number; url: string }> {
  const args = [Buffer.from(json).toString('base64'), Buffer.from(raw).toString('hex')];
  const koa = await spawnServe('koa', args, [/koa listening on 127\.0\.0\.1:(\d+)/], nodeFlags);
  const port = Number(koa.captures[0]);
  return { proc: koa.proc, port, url: `http://127.0.0.1:${port}` };
}

/** The benchmark's second line: the cores, the load and the Node.js version. */
export function machineLine(): string {
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, load ${load}, node ${process.version}`;
}

/** Appends `value` to the list under `key`. */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  (map.get(key) ?? map.set(key, []).get(key)!).push(value);
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
