/**
 * What the REST benchmarks (run.ts, http.ts) share: spawning the servers they measure, each in its own process, and
 * reading the CPU time those processes spent.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** The lines `ledger-node run` prints once ready: its gRPC port, its REST port, its remote PoW setting. */
export const NODE_READY = [
  /gRPC NodeService listening on 127\.0\.0\.1:(\d+)/,
  /REST API listening on http:\/\/127\.0\.0\.1:(\d+)\//,
  /remote PoW (\w+)/,
];

const stopping = new Set<ChildProcess>();

/** Spawns `node ...args` and resolves once every pattern matched its output, with their first capture groups. */
export function spawnServer(args: string[], patterns: RegExp[]): Promise<{ child: ChildProcess; captures: string[] }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${args.join(' ')} not ready in 30 s:\n${out}`));
    }, 30000);
    let ready = false;
    const onData = (d: Buffer): void => {
      out += d.toString();
      if (ready) return;
      const captures = patterns.map((p) => p.exec(out)?.[1]);
      if (captures.every((c) => c !== undefined)) {
        ready = true;
        clearTimeout(timer);
        child.off('exit', onExit);
        child.once('exit', (code, signal) => {
          if (!stopping.has(child))
            console.error(`${args.join(' ')} exited with ${code ?? signal} while measured:\n${out.slice(-3000)}`);
        });
        resolve({ child, captures: captures as string[] });
      }
    };
    const onExit = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Stops a spawned server (SIGTERM) and waits for it to exit. */
export async function stopChild(child: ChildProcess): Promise<void> {
  stopping.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

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

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
