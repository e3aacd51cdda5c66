/**
 * End-to-end helpers: the real `ledger-node run` / `ledger-node gateway` processes on free ports (the ports are
 * read from their start-up log lines), tagged-data blocks, pre-mining with the node's own miner, and an
 * independent BLAKE2b-256 (noble) for block IDs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { blake2b } from '@noble/hashes/blake2.js';
import { concatBytes, toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockFromJson } from '../../../src/core/json/index.ts';
import { nonceToBytes, powScore } from '../../../src/core/pow/index.ts';
import { createMiner } from '../../../src/node/pow/miner.ts';

export const BIN = fileURLToPath(new URL('../../../bin/ledger-node.js', import.meta.url));

export interface Spawned {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
}

/**
 * Spawns `node bin/ledger-node.js ...args` and waits until every pattern matched the output; returns the first
 * capture group of each. Fails (and kills the process) when it exits first or `timeoutMs` passes. `env` adds
 * environment variables (e.g. the gateway's JWT secret).
 */
export async function spawnLedgerNode(
  args: string[],
  patterns: RegExp[],
  timeoutMs = 30000,
  env?: Record<string, string>,
): Promise<{ proc: Spawned; captures: string[] }> {
  const child = spawn(process.execPath, [BIN, ...args], {
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
 * logged.
 */
export async function spawnNode(dataDir: string, extra: string[] = []): Promise<SpawnedNode> {
  const { proc, captures } = await spawnLedgerNode(
    ['run', '--data-dir', dataDir, '--rest-port', '0', '--grpc-port', '0', '--peer-port', '0', ...extra],
    [
      /gRPC NodeService listening on 127\.0\.0\.1:(\d+)/,
      /REST API listening on http:\/\/127\.0\.0\.1:(\d+)\//,
      /(remote PoW (?:on|off))/,
    ],
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

/** BLAKE2b-256 of the bytes as 0x-hex: the block ID of a block's serialized bytes (noble, not our own BLAKE2b). */
export function blake2b256Hex(bytes: Uint8Array): string {
  return toHex0x(blake2b(bytes, { dkLen: 32 }));
}

export const hexOf = (text: string): string => '0x' + Buffer.from(text, 'utf8').toString('hex');

/** A tagged-data payload in TIP-25 JSON. */
export function taggedData(tag: string, data: string): { type: number; tag: string; data: string } {
  return { type: 5, tag: hexOf(tag), data: hexOf(data) };
}

/** Parent IDs sorted and deduplicated as the protocol requires (lexical order of the bytes = of lower-case hex). */
export function sortedParents(ids: readonly string[]): string[] {
  return [...new Set(ids.map((i) => i.toLowerCase()))].sort();
}

/**
 * A v2 tagged-data block with the given parents, mined with the node's own miner (`tool pow` logic) to `score`.
 * Returns the bytes, the nonce as a decimal string and the block ID.
 */
export async function preMine(
  parents: readonly string[],
  payload: { type: number; tag: string; data: string },
  score: number,
  workers = 1,
): Promise<{ bytes: Uint8Array; nonce: string; blockId: string }> {
  const unmined = encodeBlock(
    blockFromJson({ protocolVersion: 2, parents: sortedParents(parents), payload, nonce: '0' }),
  );
  const body = unmined.subarray(0, unmined.length - 8);
  const miner = createMiner({ workers });
  try {
    const { nonce } = await miner.mine(body, score);
    const bytes = concatBytes(body, nonceToBytes(nonce));
    if (powScore(bytes) < score) throw new Error(`pre-mining failed: score ${powScore(bytes)} < ${score}`);
    return { bytes, nonce: nonce.toString(), blockId: blake2b256Hex(bytes) };
  } finally {
    await miner.close();
  }
}

export interface ErrorBody {
  error: { code: number; message: string };
}

/** A fetch that must answer with `status` and the JSON error body of that status. */
export async function expectError(url: string, init: RequestInit, status: number, message: RegExp): Promise<ErrorBody> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: ErrorBody;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: expected a JSON error body, got ${res.status} ${JSON.stringify(text.slice(0, 200))}`,
    );
  }
  if (res.status !== status || body.error?.code !== status || !message.test(body.error.message)) {
    throw new Error(
      `${init.method ?? 'GET'} ${url}: expected ${status} matching ${message}, got ${res.status} ${text.slice(0, 300)}`,
    );
  }
  return body;
}
