/**
 * Building the index from the unspent outputs, once, for a store whose ledger has no index yet (written before the
 * indexer existed) or an index of another layout version (INDEXER_META.version). The node runs it on open, before it
 * confirms anything (node/open-network.ts). The version is written last, after every entry: a build cut short by a
 * crash leaves no version and starts over (clearing what it wrote) on the next open.
 */
import { toHex0x } from '../../bytes.ts';
import { META } from '../../store/meta.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { TABLES } from '../../store/tables.ts';
import { LEDGER_TABLES } from '../tables.ts';
import { INDEX_VERSION, INDEXER_META, INDEXER_TABLES } from './tables.ts';
import { putOutputIndex } from './writes.ts';

export interface IndexBuild {
  /** Whether the index was (re)built now. */
  built: boolean;
  /** Unspent outputs indexed by this build. */
  outputs: number;
}

const CHUNK = 5_000;

/** Builds the index when the store holds a ledger without a complete index of this version; otherwise does nothing. */
export async function ensureOutputIndex(store: NodeStore): Promise<IndexBuild> {
  if ((await store.getMeta(META.ledgerIndex)) === undefined) return { built: false, outputs: 0 };
  if ((await store.getMeta(INDEXER_META.version)) === INDEX_VERSION) return { built: false, outputs: 0 };
  return { built: true, outputs: await rebuildOutputIndex(store) };
}

/** Drops every index entry and indexes every unspent output again; returns how many were indexed. */
export async function rebuildOutputIndex(store: NodeStore, chunk = CHUNK): Promise<number> {
  await store.batch().del(TABLES.meta, INDEXER_META.version.name).commit({ sync: true });
  await clearOutputIndex(store, chunk);
  let count = 0;
  let ids: Uint8Array[] = [];
  const flush = async (): Promise<void> => {
    const records = await store.getMany(LEDGER_TABLES.outputs, ids);
    const batch = store.batch();
    ids.forEach((outputId, i) => {
      const record = records[i];
      if (record === undefined)
        throw new Error(`Cannot build the output index: unspent output ${toHex0x(outputId)} has no output record`);
      putOutputIndex(batch, {
        outputId,
        milestoneTimestampBooked: record.milestoneTimestampBooked,
        output: record.output,
      });
    });
    await batch.commit({ sync: false });
    count += ids.length;
    ids = [];
  };
  for await (const outputId of store.keys(LEDGER_TABLES.unspent)) {
    ids.push(outputId);
    if (ids.length >= chunk) await flush();
  }
  if (ids.length > 0) await flush();
  await store.batch().putMeta(INDEXER_META.version, INDEX_VERSION).commit({ sync: true });
  return count;
}

/** Deletes every key of the index tables. */
export async function clearOutputIndex(store: NodeStore, chunk = CHUNK): Promise<void> {
  await store.clearTables(Object.values(INDEXER_TABLES), chunk);
}
