/**
 * The checker's ledger replay (consistency.ts step 5): `initLedger` of a base ledger into a memory store holding the
 * same blocks, then `confirmMilestone` for every stored milestone above the base in index order; the tables the
 * replay writes must equal the stored ones byte for byte, and so must every block's referenced data.
 *
 * The base is the genesis (or snapshot) the network started from; on a pruned store it is the ledger at the pruning
 * index P, rebuilt from the store itself (core pruning/rollback.ts: the unspent outputs now, the diffs above P rolled
 * back) with P's milestone from the pruning state and the solid entry points of P. What lies at or below P is then out
 * of scope: receipts are kept by design, the milestone P is the base's own; anything else stored at or below P is an
 * error, or, while a pruning run is unfinished (the node finishes it on its next start), counted as pending.
 */
import { toHex, toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import {
  confirmMilestone,
  INDEXER_TABLES,
  initLedger,
  LEDGER_META,
  LEDGER_TABLES,
  LedgerState,
  type GenesisOutput,
  type LedgerGenesis,
  type PruningState,
} from '../../core/ledger/index.ts';
import { ledgerRollback, unspentOutputIdsAt } from '../../core/pruning/index.ts';
import {
  META,
  MemoryKeyValueStore,
  NodeStore,
  prefixRange,
  TABLES,
  type BlockMetadata,
  type KeyValueStore,
} from '../../core/store/index.ts';

export interface BlockInfo {
  id: Uint8Array;
  bytes: Uint8Array;
  parents: Uint8Array[];
  transactionId?: Uint8Array;
  metadata?: BlockMetadata;
}

export interface ReplaySummary {
  milestonesReplayed: number;
  /** Entries at or below the pruning index an unfinished pruning run has still to delete. */
  pendingPruning: number;
}

const h = (b: Uint8Array): string => toHex0x(b);

export function referencedText(md: BlockMetadata | undefined): string {
  if (md === undefined) return 'no metadata';
  const r = md.referenced;
  const ref = r
    ? `referenced by ${r.milestoneIndex}, whiteFlagIndex ${r.whiteFlagIndex}, ` +
      `${r.ledgerInclusionState}, conflictReason ${r.conflictReason}`
    : 'not referenced';
  return md.milestoneIndex !== undefined ? `${ref}, milestone block ${md.milestoneIndex}` : ref;
}

/** Raw entries of one table (prefix byte), keyed by hex of the whole key. */
async function rawTable(kv: KeyValueStore, prefix: number): Promise<Map<string, Uint8Array>> {
  const out = new Map<string, Uint8Array>();
  for await (const [k, v] of kv.entries(prefixRange(Uint8Array.of(prefix)))) out.set(toHex(k.subarray(1)), v);
  return out;
}

const REPLAYED_TABLES = [
  ['outputs', LEDGER_TABLES.outputs.prefix],
  ['unspent', LEDGER_TABLES.unspent.prefix],
  ['spent', LEDGER_TABLES.spent.prefix],
  ['milestoneDiffs', LEDGER_TABLES.milestoneDiffs.prefix],
  ['treasury', LEDGER_TABLES.treasury.prefix],
  ['receipts', LEDGER_TABLES.receipts.prefix],
  ['includedBlock', TABLES.includedBlock.prefix],
  ['milestones', TABLES.milestones.prefix],
  ['milestoneIndexById', TABLES.milestoneIndexById.prefix],
  ...Object.values(INDEXER_TABLES).map((t) => [t.name, t.prefix] as const),
] as const;

/** Tables in which pruning deletes entries at or below the pruning index. */
const PRUNED_TABLES = new Set([
  'outputs',
  'spent',
  'milestoneDiffs',
  'treasury',
  'includedBlock',
  'milestones',
  'milestoneIndexById',
]);

const u32At = (hex: string, at: number, littleEndian: boolean): number =>
  new DataView(
    Uint8Array.from(
      hex
        .slice(at * 2, at * 2 + 8)
        .match(/../g)!
        .map((b) => parseInt(b, 16)),
    ).buffer,
  ).getUint32(0, littleEndian);

/** The ledger at the pruning index, rebuilt from a pruned store (see the file comment). */
export async function baseAtPruningIndex(
  store: NodeStore,
  state: PruningState,
  diffs: string[],
): Promise<LedgerGenesis | undefined> {
  const ledger = new LedgerState(store);
  const P = state.index;
  const [params, keys] = [await store.getMeta(LEDGER_META.protocolParameters), await ledger.milestoneKeys()];
  if (!params || !keys) {
    diffs.push('ledger meta: a pruned store without protocol parameters or milestone keys');
    return undefined;
  }
  let rollback: Awaited<ReturnType<typeof ledgerRollback>>;
  try {
    rollback = await ledgerRollback(ledger, P);
  } catch (e) {
    diffs.push(`ledger: cannot rebuild the ledger at the pruning index ${P}: ${(e as Error).message}`);
    return undefined;
  }
  const outputs: GenesisOutput[] = [];
  const ids: Uint8Array[] = [];
  for await (const id of unspentOutputIdsAt(rollback, store.keys(LEDGER_TABLES.unspent))) ids.push(id);
  for (let i = 0; i < ids.length; i += 1024) {
    const chunk = ids.slice(i, i + 1024);
    const records = await store.getMany(LEDGER_TABLES.outputs, chunk);
    records.forEach((r, j) => {
      if (r === undefined)
        diffs.push(`outputs: ${h(chunk[j]!)} is unspent at the pruning index ${P} but has no record`);
      else outputs.push({ outputId: chunk[j]!, ...r });
    });
  }
  const base: LedgerGenesis = {
    protocolParameters: params,
    milestone: {
      index: P,
      timestamp: state.milestone.timestamp,
      milestoneId: state.milestone.milestoneId,
      blockId: state.milestone.blockId,
    },
    milestoneKeyRanges: keys.keyRanges,
    milestonePublicKeyCount: keys.threshold,
    solidEntryPoints: await ledger.solidEntryPoints(),
    unspentOutputs: outputs,
    protocolParametersChanges: (await ledger.protocolParametersChanges()).filter((c) => c.announcedAt <= P),
  };
  if (rollback.treasury) base.treasury = rollback.treasury;
  return base;
}

/**
 * Replays the stored milestones above `base` and compares (see the file comment). `pruned`: the pruning state when the
 * base is the ledger at the pruning index.
 */
export async function replayLedger(
  store: NodeStore,
  base: LedgerGenesis,
  blocks: Map<string, BlockInfo>,
  diffs: string[],
  summary: ReplaySummary,
  pruned?: PruningState,
  progress?: (text: string) => void,
): Promise<void> {
  const P = pruned?.index;
  const pending = pruned !== undefined && pruned.done < pruned.index;
  const below = (m: number): boolean => P !== undefined && m <= P;
  const memKv = new MemoryKeyValueStore();
  const mem = await NodeStore.open(memKv);
  try {
    await initLedger(mem, base);
    const copy = mem.batch();
    for (const b of blocks.values()) {
      copy.put(TABLES.blocks, b.id, b.bytes);
      const md = b.metadata;
      const copied: BlockMetadata = {
        protocolVersion: md?.protocolVersion ?? 2,
        solid: md?.solid ?? false,
        arrivalTime: md?.arrivalTime ?? 0,
      };
      if (md?.milestoneIndex !== undefined) copied.milestoneIndex = md.milestoneIndex;
      // What a pruning run has still to delete stays referenced: no replayed cone enters it.
      if (md?.referenced && below(md.referenced.milestoneIndex)) copied.referenced = md.referenced;
      copy.putBlockMetadata(b.id, copied);
    }
    await copy.commit({ sync: false });

    const last = await store.getMeta(META.ledgerIndex);
    let expectedIndex = base.milestone.index + 1;
    for await (const [index, record] of store.entries(TABLES.milestones, { gt: base.milestone.index })) {
      if (index !== expectedIndex) {
        diffs.push(`milestones: index ${index} is stored after ${expectedIndex - 1} (gap)`);
        break;
      }
      const b = blocks.get(toHex(record.blockId));
      if (b === undefined) {
        diffs.push(
          `milestones: milestone ${index} names block ${h(record.blockId)}, which is not stored (or does not decode)`,
        );
        break;
      }
      progress?.(`check: replaying milestone ${index}${last !== undefined ? ` of ${last}` : ''}`);
      try {
        // The history is checked against the store itself (consistency.ts step 7), not replayed.
        const block = decodeBlock(b.bytes);
        const c = await confirmMilestone({ store: mem, milestoneBlockId: b.id, milestoneBlock: block, history: false });
        await c.batch.commit({ sync: false });
      } catch (e) {
        diffs.push(
          `ledger replay: milestone ${index} (block ${h(b.id)}) does not confirm on the ` +
            `${P !== undefined ? `ledger at the pruning index ${P}` : 'genesis ledger'}: ${(e as Error).message}`,
        );
        break;
      }
      summary.milestonesReplayed++;
      expectedIndex++;
    }

    for (const field of [META.ledgerIndex, META.confirmedMilestoneIndex]) {
      const [s, r] = [await store.getMeta(field), await mem.getMeta(field)];
      if (s !== r) diffs.push(`meta ${field.name}: stored ${s}, replay ${r}`);
    }
    const latest = await store.getMeta(META.latestMilestoneIndex);
    const cmi = await store.getMeta(META.confirmedMilestoneIndex);
    if (latest === undefined || (cmi !== undefined && latest < cmi))
      diffs.push(`meta latestMilestoneIndex: ${latest} is below the confirmed index ${cmi}`);
    const [sc, rc] = [
      await store.getMeta(LEDGER_META.protocolParametersChanges),
      await mem.getMeta(LEDGER_META.protocolParametersChanges),
    ];
    if (
      JSON.stringify(sc?.map((c) => [c.targetMilestoneIndex, c.announcedAt, toHex(c.params)])) !==
      JSON.stringify(rc?.map((c) => [c.targetMilestoneIndex, c.announcedAt, toHex(c.params)]))
    ) {
      diffs.push("meta ledger.protocolParametersChanges: the stored changes differ from the replay's");
    }

    for (const [name, prefix] of REPLAYED_TABLES) {
      const [stored, replay] = [await rawTable(store.kv, prefix), await rawTable(memKv, prefix)];
      for (const [k, v] of stored) {
        const r = replay.get(k);
        if (r === undefined) {
          if (name === 'receipts' && below(u32At(k, 4, false))) continue; // receipts are kept by design
          if (pending && PRUNED_TABLES.has(name)) summary.pendingPruning++;
          else
            diffs.push(
              `${name}: key 0x${k} is stored but the replay does not produce ` +
                `it${P !== undefined && PRUNED_TABLES.has(name) ? ` (pruned to ${P}: not pruned?)` : ''}`,
            );
        } else if (toHex(r) !== toHex(v)) diffs.push(`${name}: key 0x${k}: stored value ${h(v)}, replay ${h(r)}`);
      }
      for (const [k, v] of replay) {
        if (stored.has(k)) continue;
        // The base's own milestone: its record lives in the pruning state.
        if (
          P !== undefined &&
          ((name === 'milestones' && u32At(k, 0, false) === P) ||
            (name === 'milestoneIndexById' && u32At(toHex(v), 0, true) === P))
        )
          continue;
        diffs.push(`${name}: key 0x${k} is produced by the replay but not stored`);
      }
    }

    const ids = [...blocks.values()].map((b) => b.id);
    const replayed = await mem.getMany(TABLES.blockMetadata, ids);
    ids.forEach((id, i) => {
      const s = blocks.get(toHex(id))!.metadata;
      if (s === undefined) return;
      if (s.referenced && below(s.referenced.milestoneIndex)) {
        if (pending) summary.pendingPruning++;
        else
          diffs.push(
            `blockMetadata: ${h(id)} is referenced by milestone ` +
              `${s.referenced.milestoneIndex}, at or below the pruning index ${P}, but not pruned`,
          );
        return;
      }
      const r = replayed[i];
      if (referencedText(s) !== referencedText(r))
        diffs.push(`blockMetadata: ${h(id)}: stored ${referencedText(s)}; replay ${referencedText(r)}`);
    });
  } finally {
    await mem.close();
  }
}
