/**
 * The node as a process: `ledger-node run` / `ledger-node gateway` spawned from bin/ on free ports, ready once their
 * start-up log lines name the ports; stop() is SIGTERM, then SIGKILL after a grace period. Used by the end-to-end
 * tests, scripts/ (soak, crash test) and benchmarks/.
 */
import { spawn, type ChildProcess } from 'node:child_process';
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

/**
 * Spawns `node bin/ledger-node.js ...args` (or `launcher ...args`, e.g. START_SCRIPT) and waits until every pattern
 * matched the output; returns the first capture group of each. Fails (and kills the process) when it exits first or
 * `timeoutMs` passes. `env` adds environment variables (e.g. the gateway's JWT secret).
 */
export async function spawnLedgerNode(
  args: string[],
  patterns: RegExp[],
  timeoutMs = 30000,
  env?: Record<string, string>,
  launcher: readonly string[] = [process.execPath, BIN],
): Promise<{ proc: Spawned; captures: string[] }> {
  const child = spawn(launcher[0]!, [...launcher.slice(1), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
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
      reject(new Error(`ledger-node ${args.join(' ')} exited with ${code} before it was ready:\n${out}`));
    };
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`ledger-node ${args.join(' ')} not ready within ${timeoutMs} ms:\n${out}`));
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

export interface SpawnedNode {
  proc: Spawned;
  restPort: number;
  grpcPort: number;
  rest: string;
}

/**
 * `ledger-node run --data-dir DIR --rest-port 0 --grpc-port 0 --peer-port 0 ...extra`, ready once the listeners are
 * logged; with `startScript`, through scripts/start.sh as `npm start` runs it.
 */
export async function spawnNode(
  dataDir: string,
  extra: string[] = [],
  options: { startScript?: boolean; env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<SpawnedNode> {
  const flags = ['--data-dir', dataDir, '--rest-port', '0', '--grpc-port', '0', '--peer-port', '0', ...extra];
  const { proc, captures } = await spawnLedgerNode(
    options.startScript ? flags : ['run', ...flags],
    [
      /gRPC NodeService listening on 127\.0\.0\.1:(\d+)/,
      /REST API listening on http:\/\/127\.0\.0\.1:(\d+)\//,
      /(remote PoW (?:on|off))/,
    ],
    options.timeoutMs,
    options.env,
    options.startScript ? START_SCRIPT : undefined,
  );
  const grpcPort = Number(captures[0]);
  const restPort = Number(captures[1]);
  return { proc, restPort, grpcPort, rest: `http://127.0.0.1:${restPort}` };
}

/** `ledger-node gateway --node 127.0.0.1:PORT --rest-port 0`, ready once it logs its port. */
export async function spawnGateway(grpcPort: number): Promise<{ proc: Spawned; port: number; rest: string }> {
  const { proc, captures } = await spawnLedgerNode(
    ['gateway', '--node', `127.0.0.1:${grpcPort}`, '--rest-port', '0'],
    [/gateway listening on 127\.0\.0\.1:(\d+)/],
  );
  const port = Number(captures[0]);
  return { proc, port, rest: `http://127.0.0.1:${port}` };
}
