/**
 * Network e2e helpers: nodes started in-process on loopback (harness/node.ts), each with its own data folder, free
 * ports, fast peering timers; a node can be stopped and started again on the same folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { blake2b256 } from '../../../src/core/crypto/index.ts';
import { toHex0x } from '../../../src/core/bytes.ts';
import { LEDGER_TABLES } from '../../../src/core/ledger/index.ts';
import { META } from '../../../src/core/store/index.ts';
import type { NodeConfig } from '../../../src/node/config.ts';
import type { RunningNode } from '../../../src/node/node.ts';
import type { PeeringOptions } from '../../../src/node/peering/manager.ts';
import { startConfiguredNode } from '../../../harness/node.ts';
import { QuietLogger } from '../ledger/support.ts';

/** Peering timers for tests: heartbeats every 100 ms, ticks every 25 ms, quick redials. */
export const FAST_PEERING = {
  heartbeatMs: 100,
  tickMs: 25,
  requestTimeoutMs: 400,
  backoffBaseMs: 50,
  backoffMaxMs: 400,
  startGraceMs: 1500,
};

export class NetNode {
  node: RunningNode | undefined;
  logger = new QuietLogger();
  readonly dataDir: string;

  constructor(
    readonly name: string,
    readonly root: string,
    readonly config: Partial<NodeConfig>,
  ) {
    this.dataDir = join(root, name);
  }

  get running(): RunningNode {
    if (!this.node) throw new Error(`node ${this.name} is not running`);
    return this.node;
  }

  get rest(): string {
    return `http://127.0.0.1:${this.running.restPort}/api/core/v2`;
  }

  get grpcAddress(): string {
    return `127.0.0.1:${this.running.grpcPort}`;
  }

  /** Its peer door (what `--peer` dials). */
  get peerAddress(): string {
    return `${this.config.peerHost ?? '127.0.0.1'}:${this.running.peerPort}`;
  }

  /** `0xPUBKEY@HOST:PORT`: its peer door, naming its identity key. */
  get peerTarget(): string {
    return `0x${Buffer.from(this.running.identity.publicKey).toString('hex')}@${this.peerAddress}`;
  }

  /** Starts the node dialing `peers`; `peering` adds to (or overrides) FAST_PEERING, e.g. a dial function. */
  async start(peers: string[] = [], peering: Partial<PeeringOptions> = {}): Promise<void> {
    const options = { dataDir: this.dataDir, logger: this.logger, peering: { ...FAST_PEERING, ...peering } };
    this.node = (await startConfiguredNode({ powWorkers: 1, ...this.config, peers }, options)).node;
  }

  async stop(): Promise<void> {
    const n = this.node;
    this.node = undefined;
    await n?.stop();
  }

  async ledgerIndex(): Promise<number> {
    return (await this.running.testing.store.getMeta(META.ledgerIndex)) ?? 0;
  }

  /** Ledger index and a hash over the unspent and spent output IDs. */
  async ledgerFingerprint(): Promise<{ index: number; hash: string }> {
    const store = this.running.testing.store;
    const index = await this.ledgerIndex();
    const parts: string[] = [];
    for await (const id of store.keys(LEDGER_TABLES.unspent)) parts.push(`u${toHex0x(id)}`);
    for await (const id of store.keys(LEDGER_TABLES.spent)) parts.push(`s${toHex0x(id)}`);
    if ((await this.ledgerIndex()) !== index) return this.ledgerFingerprint();
    return { index, hash: toHex0x(blake2b256(new TextEncoder().encode(parts.join(',')))) };
  }
}

export function tempRoot(): { root: string; remove(): void } {
  const root = mkdtempSync(join(tmpdir(), 'ledger-net-'));
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

export function writeGenesis(root: string, genesis: unknown, name = 'genesis.json'): string {
  const file = join(root, name);
  writeFileSync(file, JSON.stringify(genesis));
  return file;
}
