/**
 * Checks the index against the unspent outputs (`tool check`, node/check/consistency.ts), both ways:
 *   1. every unspent output has exactly the entries its facts give (writes.ts indexEntriesOf), with the right values;
 *   2. every stored entry decodes, names an output that is unspent, and is one of that output's entries.
 * With the ledger at a milestone, the meta field `indexer.version` must say the index is complete.
 */
import { equalBytes, toHex, toHex0x } from '../../bytes.ts';
import { META } from '../../store/meta.ts';
import type { NodeStore } from '../../store/node-store.ts';
import { prefixRange } from '../../store/range.ts';
import { decodeTableKey, tableKey, type Table } from '../../store/table.ts';
import type { OutputRecord } from '../output-record.ts';
import { LEDGER_TABLES } from '../tables.ts';
import { INDEX_VERSION, INDEXER_META, INDEXER_TABLES, positionOutputId } from './tables.ts';
import { indexEntriesOf } from './writes.ts';

export interface IndexVerification {
  /** Unspent outputs checked. */
  unspentOutputs: number;
  /** Entries stored in the index tables. */
  entries: number;
  /** Every disagreement, one line each (at most `maxDifferences`, then a count of the rest). */
  differences: string[];
}

const CHUNK = 2_000;

interface ExpectedEntry {
  table: string;
  key: Uint8Array;
  value: Uint8Array;
}

/** The entries (store key, encoded value) an unspent output has, by hex of the store key. */
function expectedEntries(outputId: Uint8Array, record: OutputRecord): Map<string, ExpectedEntry> {
  const e = indexEntriesOf({
    outputId,
    milestoneTimestampBooked: record.milestoneTimestampBooked,
    output: record.output,
  });
  const out = new Map<string, ExpectedEntry>();
  const add = <K, V>(table: Table<K, V>, key: K, value: V): void => {
    const storeKey = tableKey(table, key);
    out.set(toHex(storeKey), { table: table.name, key: storeKey, value: table.value.encode(value) });
  };
  add(INDEXER_TABLES.byType, e.byType, null);
  for (const [key, roles] of e.byAddress) add(INDEXER_TABLES.byAddress, key, roles);
  if (e.byChainId !== undefined) add(INDEXER_TABLES.byChainId, e.byChainId[0], e.byChainId[1]);
  return out;
}

export async function verifyOutputIndex(store: NodeStore, maxDifferences = 1000): Promise<IndexVerification> {
  const result: IndexVerification = { unspentOutputs: 0, entries: 0, differences: [] };
  let dropped = 0;
  const diff = (line: string): void => {
    if (result.differences.length < maxDifferences) result.differences.push(line);
    else dropped++;
  };
  if ((await store.getMeta(META.ledgerIndex)) !== undefined) {
    const version = await store.getMeta(INDEXER_META.version);
    if (version !== INDEX_VERSION)
      diff(
        `indexer: meta ${INDEXER_META.version.name} is ${version ?? 'missing'}, ` +
          `expected ${INDEX_VERSION} (the index was not completed)`,
      );
  }

  // 1. unspent outputs -> their entries
  let ids: Uint8Array[] = [];
  const checkUnspent = async (): Promise<void> => {
    const records = await store.getMany(LEDGER_TABLES.outputs, ids);
    const wanted: [Uint8Array, ExpectedEntry][] = [];
    ids.forEach((id, i) => {
      const record = records[i];
      if (record === undefined) {
        diff(`indexer: unspent output ${toHex0x(id)} has no output record`);
        return;
      }
      for (const entry of expectedEntries(id, record).values()) wanted.push([id, entry]);
    });
    const stored = await store.kv.getMany(wanted.map(([, e]) => e.key));
    wanted.forEach(([id, e], i) => {
      const s = stored[i];
      const where = `${e.table}: entry ${toHex0x(e.key.subarray(1))} of unspent output ${toHex0x(id)}`;
      if (s === undefined) diff(`${where} is missing`);
      else if (!equalBytes(s, e.value)) diff(`${where} holds ${toHex0x(s)}, expected ${toHex0x(e.value)}`);
    });
    result.unspentOutputs += ids.length;
    ids = [];
  };
  for await (const id of store.keys(LEDGER_TABLES.unspent)) {
    ids.push(id);
    if (ids.length >= CHUNK) await checkUnspent();
  }
  if (ids.length > 0) await checkUnspent();

  // 2. stored entries -> an unspent output that has them
  for (const table of Object.values(INDEXER_TABLES) as Table<unknown, unknown>[]) {
    let chunk: [Uint8Array, Uint8Array, Uint8Array][] = [];
    const checkStored = async (): Promise<void> => {
      const outputIds = chunk.map(([, , id]) => id);
      const [unspent, records] = [
        await store.kv.getMany(outputIds.map((id) => tableKey(LEDGER_TABLES.unspent, id))),
        await store.getMany(LEDGER_TABLES.outputs, outputIds),
      ];
      chunk.forEach(([key, value, id], i) => {
        const record = records[i];
        const where = `${table.name}: entry ${toHex0x(key.subarray(1))} for output ${toHex0x(id)}`;
        if (record === undefined) {
          diff(`${where}: the ledger has no such output`);
          return;
        }
        if (unspent[i] === undefined) {
          diff(`${where}: the output is spent`);
          return;
        }
        const expected = expectedEntries(id, record).get(toHex(key));
        if (expected === undefined) diff(`${where}: not an entry of that output`);
        else if (!equalBytes(expected.value, value))
          diff(`${where}: holds ${toHex0x(value)}, expected ${toHex0x(expected.value)}`);
      });
      chunk = [];
    };
    for await (const [key, value] of store.kv.entries(prefixRange(Uint8Array.of(table.prefix)))) {
      result.entries++;
      const id = outputIdOfEntry(table, key, value);
      if (typeof id === 'string') diff(`${table.name}: entry ${toHex0x(key.subarray(1))} does not decode: ${id}`);
      else chunk.push([key, value, id]);
      if (chunk.length >= CHUNK) await checkStored();
    }
    if (chunk.length > 0) await checkStored();
  }
  if (dropped > 0) result.differences.push(`indexer: ${dropped} more difference(s) not listed`);
  return result;
}

/** The output an entry names (from the key's position, or the chain entry's value), or why it does not decode. */
function outputIdOfEntry(table: Table<unknown, unknown>, key: Uint8Array, value: Uint8Array): Uint8Array | string {
  try {
    const k = decodeTableKey(table, key) as { position?: Uint8Array };
    const v = table.value.decode(value, `${table.name} value`);
    return k.position !== undefined ? positionOutputId(k.position) : (v as Uint8Array);
  } catch (e) {
    return (e as Error).message;
  }
}
