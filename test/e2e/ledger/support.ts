/**
 * Ledger e2e helpers: a node started in-process (harness/node.ts: the default store in a temp folder, REST on a free
 * port) from a genesis file, a small REST client, and polling (harness/wait.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NodeConfig } from '../../../src/node/config.ts';
import type { RunningNode } from '../../../src/node/node.ts';
import { CollectingLogger as QuietLogger, startConfiguredNode } from '../../../harness/node.ts';

export { waitFor } from '../../../harness/wait.ts';

export const SERIALIZER_V1 = 'application/vnd.iota.serializer-v1';

/** The test logger of test/node (lines kept for assertions), under the name the e2e suites use. */
export { QuietLogger };

export interface LedgerTestNode {
  node: RunningNode;
  base: string;
  dir: string;
  logger: QuietLogger;
  close(): Promise<void>;
}

/** Starts a node in a fresh temp folder; `genesis` (JSON) is written there and passed as --genesis unless undefined. */
export async function startLedgerNode(genesis: unknown, overrides: Partial<NodeConfig> = {}): Promise<LedgerTestNode> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-e2e-'));
  const config: Partial<NodeConfig> = { powWorkers: 0, ...overrides };
  if (genesis !== undefined) {
    const file = join(dir, 'genesis.json');
    writeFileSync(file, JSON.stringify(genesis));
    config.genesis = file;
  }
  const logger = new QuietLogger();
  let node: RunningNode;
  try {
    ({ node } = await startConfiguredNode(config, { dataDir: join(dir, 'data'), logger }));
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    node,
    base: `http://127.0.0.1:${node.restPort}/api/core/v2`,
    dir,
    logger,
    async close() {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

export async function getRaw(url: string): Promise<{ status: number; bytes: Uint8Array; type: string | null }> {
  const res = await fetch(url, { headers: { accept: SERIALIZER_V1 } });
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

export async function postRaw(base: string, bytes: Uint8Array): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/blocks`, {
    method: 'POST',
    headers: { 'content-type': SERIALIZER_V1, accept: 'application/json' },
    body: bytes,
  });
  return { status: res.status, body: await res.json() };
}
