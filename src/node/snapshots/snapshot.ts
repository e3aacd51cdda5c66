/**
 * Writing a snapshot: the genesis/snapshot JSON a node starts from with `--genesis` (genesis.ts), for the ledger at a
 * milestone T between the pruning index and the confirmed milestone (default: the confirmed one), see
 * docs/decisions.md §27. The state at T is fixed inside `hold` (a running node: its attach queue, so no confirmation
 * moves the ledger meanwhile; the caller also keeps pruning away): T's milestone, the rollback of the diffs above T,
 * the protocol parameters, receipts and keys, and a store iterator over the unspent outputs (its snapshot is taken
 * there). The solid entry points and the output records are read afterwards (nothing at or above T changes), and the
 * file is streamed, one output per line, to a temporary file that is renamed once complete and on disk.
 */
import { open } from 'node:fs/promises';
import { toHex } from '../../core/bytes.ts';
import { outputToJson } from '../../core/json/index.ts';
import { LEDGER_META, LEDGER_TABLES, LedgerState } from '../../core/ledger/index.ts';
import {
  firstMilestoneIndex,
  ledgerRollback,
  milestoneConeToPrune,
  solidEntryPointsOf,
  unspentOutputIdsAt,
} from '../../core/pruning/index.ts';
import { prefixRange, type NodeStore } from '../../core/store/index.ts';
import { renameDurably } from '../support/durable-file.ts';
import { NodeError } from '../support/errors.ts';
import { genesisToJson, type Genesis } from '../genesis/genesis.ts';
import type { NetworkState } from '../genesis/network.ts';
import { EXTRA_HISTORY } from '../pruning/pruner.ts';

export interface SnapshotSource {
  store: NodeStore;
  network: NetworkState;
  /**
   * The genesis the network started from: its dev-only `coordinator`, `devWallet` and `v3` entries are carried over.
   */
  genesis?: Genesis;
  /** Runs `fn` with the ledger still (a running node: in its attach queue). */
  hold: <T>(fn: () => Promise<T>) => Promise<T>;
}

export interface SnapshotResult {
  index: number;
  file: string;
  outputs: number;
  solidEntryPoints: number;
  bytes: number;
}

/** Outputs read per store call. */
const CHUNK = 512;

/**
 * Writes the snapshot of milestone `index` (default: the confirmed one) to `file`; `progress` counts outputs written.
 */
export async function writeSnapshot(
  source: SnapshotSource,
  file: string,
  options: { index?: number; progress?: (outputs: number) => void } = {},
): Promise<SnapshotResult> {
  const { store } = source;
  const ledger = new LedgerState(store);
  const fixed = await source.hold(async () => {
    const ledgerIndex = await ledger.ledgerIndex();
    if (ledgerIndex === undefined)
      throw new NodeError('UNAVAILABLE', 'this node holds no ledger: there is nothing to snapshot');
    const pruning = await store.getMeta(LEDGER_META.pruning);
    const floor = pruning?.index ?? (await firstMilestoneIndex(store)) ?? ledgerIndex;
    const index = options.index ?? ledgerIndex;
    if (index > ledgerIndex)
      throw new NodeError(
        'INVALID_REQUEST',
        `invalid snapshot index ${index}: the confirmed milestone is ${ledgerIndex}`,
      );
    if (index < floor)
      throw new NodeError(
        'INVALID_REQUEST',
        `invalid snapshot index ${index}: ` +
          `${pruning ? 'the pruning index' : 'the first milestone of the ledger'} is ${floor}`,
      );
    const record = index === pruning?.index ? pruning.milestone : await store.milestone(index);
    if (!record) throw new NodeError('INTERNAL', `milestone ${index} has no record`);
    const params = await ledger.protocolParameters(index);
    const keys = await ledger.milestoneKeys();
    if (!params || !keys) throw new NodeError('INTERNAL', 'the ledger has no protocol parameters or milestone keys');
    return {
      index,
      floor,
      record,
      params,
      keys,
      rollback: await ledgerRollback(ledger, index),
      changes: (await ledger.protocolParametersChanges()).filter(
        (c) => c.targetMilestoneIndex > index && c.announcedAt <= index,
      ),
      receipts: (await ledger.receipts())
        .filter((r) => r.milestoneIndex <= index)
        .map((r) => ({ milestoneIndex: r.milestoneIndex, receipt: r.receipt })),
      seps: await ledger.solidEntryPoints(),
      // The store's snapshot of the unspent outputs is taken here, with the ledger at `ledgerIndex`.
      unspent: store.kv.keys(prefixRange(Uint8Array.of(LEDGER_TABLES.unspent.prefix))),
    };
  });
  const { index, record, params, keys, rollback } = fixed;
  let seps = fixed.seps;
  if (index > fixed.floor) {
    const cones = [];
    for (let m = Math.max(fixed.floor + 1, index - (params.belowMaxDepth + EXTRA_HISTORY)); m <= index; m++)
      cones.push(...(await milestoneConeToPrune(store, m, true)));
    const computed = await solidEntryPointsOf(
      store,
      index,
      [...fixed.seps, ...cones.map((b) => b.blockId)],
      new Set(cones.map((b) => toHex(b.blockId))),
    );
    if (computed.length > 0) seps = computed;
  }
  const g = source.genesis;
  const head: Genesis = {
    protocol: params,
    milestone: { index, timestamp: record.timestamp, milestoneId: record.milestoneId, blockId: record.blockId },
    milestonePublicKeyCount: keys.threshold,
    milestoneKeyRanges: keys.keyRanges.map((k) => ({ ...k })),
    solidEntryPoints: seps,
    outputs: [],
    baseToken: { ...source.network.baseToken },
    protocolParametersChanges: fixed.changes,
    receipts: fixed.receipts,
    ...(rollback.treasury ? { treasury: rollback.treasury } : {}),
    ...(g?.coordinator !== undefined ? { coordinator: g.coordinator } : {}),
    ...(g?.devWallet !== undefined ? { devWallet: g.devWallet } : {}),
    ...(g?.v3 !== undefined ? { v3: g.v3 } : {}),
  };
  const json = genesisToJson(head);
  delete json['outputs'];
  const text = JSON.stringify(json, null, 2);
  const tmp = `${file}.tmp`;
  const out = await open(tmp, 'w', 0o600); // a control snapshot may carry the dev network's private keys
  let bytes = 0;
  let outputs = 0;
  const write = async (s: string): Promise<void> => {
    const b = Buffer.from(s, 'utf8');
    await out.write(b);
    bytes += b.length;
  };
  try {
    await write(`${text.slice(0, text.lastIndexOf('}')).trimEnd()},\n  "outputs": [`);
    const ids = unspentOutputIdsAt(rollback, mapKeys(fixed.unspent));
    let chunk: Uint8Array[] = [];
    const flush = async (): Promise<void> => {
      const records = await store.getMany(LEDGER_TABLES.outputs, chunk);
      const lines = records.map((r, i) => {
        if (!r)
          throw new NodeError('INTERNAL', `output 0x${toHex(chunk[i]!)}, unspent at milestone ${index}, has no record`);
        const entry = {
          outputId: `0x${toHex(chunk[i]!)}`,
          blockId: `0x${toHex(r.blockId)}`,
          milestoneIndexBooked: r.milestoneIndexBooked,
          milestoneTimestampBooked: r.milestoneTimestampBooked,
          output: outputToJson(r.output),
        };
        return `${outputs + i === 0 ? '' : ','}\n    ${JSON.stringify(entry)}`;
      });
      await write(lines.join(''));
      outputs += chunk.length;
      chunk = [];
      options.progress?.(outputs);
    };
    for await (const id of ids) {
      chunk.push(id);
      if (chunk.length >= CHUNK) await flush();
    }
    if (chunk.length > 0) await flush();
    await write(`${outputs > 0 ? '\n  ' : ''}]\n}\n`);
    await out.sync();
  } finally {
    await out.close();
    await fixed.unspent.return?.();
  }
  renameDurably(tmp, file);
  return { index, file, outputs, solidEntryPoints: seps.length, bytes };
}

async function* mapKeys(keys: AsyncIterable<Uint8Array>): AsyncIterableIterator<Uint8Array> {
  for await (const k of keys) yield k.subarray(1);
}
