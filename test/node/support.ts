/**
 * Calls on a node service under test (harness/node.ts starts it): unary calls of the generated client as promises,
 * failures parsed (status + ErrorInfo); waiting until a condition holds; a temporary folder per test or suite.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { handleUnaryCall, ServiceError } from '@grpc/grpc-js';
import type { NodeServiceClient, NodeServiceServer } from '../../src/grpc/gen/node.ts';
import { parseNodeError, type RestParsedError as ParsedError } from '../../gateway/errors.ts';

type Method =
  | 'getBlock'
  | 'getBlockMetadata'
  | 'submitBlock'
  | 'getIncludedBlock'
  | 'getIncludedBlockMetadata'
  | 'getIncludedBlockV3'
  | 'getInfo'
  | 'getTips';
type ReqOf<K extends Method> = NodeServiceServer[K] extends handleUnaryCall<infer Q, unknown> ? Q : never;
type ResOf<K extends Method> = NodeServiceServer[K] extends handleUnaryCall<never, infer R> ? R : never;

/** Calls a unary method of the generated client as a promise. */
export function call<K extends Method>(client: NodeServiceClient, method: K, req: ReqOf<K>): Promise<ResOf<K>> {
  const fn = client[method] as unknown as (
    req: ReqOf<K>,
    cb: (err: ServiceError | null, res: ResOf<K>) => void,
  ) => unknown;
  return new Promise((resolve, reject) => {
    fn.call(client, req, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

/** The parsed failure of a call that must fail. */
export async function failure(p: Promise<unknown>): Promise<ParsedError> {
  try {
    await p;
  } catch (e) {
    return parseNodeError(e as ServiceError);
  }
  return expect.fail('the call should have failed');
}

/** Waits until `probe` holds, polling every 5 ms; fails naming `what` after `ms`. */
export async function until(what: string, probe: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * A temporary folder `<tmp>/<prefix>XXXXXX` for a suite: a fresh one before each of its tests, removed after it; or,
 * `per: 'suite'`, one for all its tests. Its path is `.path` once the hook ran.
 */
export function tempDir(prefix: string, per: 'test' | 'suite' = 'test'): { readonly path: string } {
  const dir = { path: '' };
  const [make, remove] = per === 'test' ? [beforeEach, afterEach] : [before, after];
  make(() => {
    dir.path = mkdtempSync(join(tmpdir(), prefix));
  });
  remove(() => rmSync(dir.path, { recursive: true, force: true }));
  return dir;
}
