/**
 * The consistency checker: recomputes, from first principles, everything a STOPPED node's store derives from its
 * blocks and compares it with what is stored.
 *
 *   1. blocks: every stored v2 block's bytes hash (BLAKE2b-256) to its key and decode strictly; every v2 block has
 *      metadata and every metadata record has its block. 36-byte keys are IOTA 2.0 blocks, whose state the v3 engine
 *      keeps in its own tables: they are counted, not checked here.
 *   2. children: the `children` table equals the parent edges of the stored blocks, in both directions; the same for
 *      the `transactionBlocks` re-attachment index.
 *   3. solidity: a block is solid iff every parent is a solid entry point or a stored solid block (attach.ts heals
 *      the future cone in the same batch, so both directions are errors); a referenced block must be solid.
 *   4. tips, by the rule attach.ts uses (a block that becomes solid drops its parents from the pool and enters it
 *      when it has no stored child at that moment; solid entry points start in the pool): a tip must be a solid block
 *      or solid entry point without a solid child, and a solid block / entry point with no child at all must be a
 *      tip. A solid block whose only children are unsolid may be either (it depends on arrival order): counted.
 *   5. the ledger: `initLedger` of the genesis into a memory store holding the same blocks (their `referenced`
 *      cleared), then `confirmMilestone` for every stored milestone in index order; the resulting outputs, unspent
 *      and spent outputs, milestone diffs, treasury, receipts, milestones, milestone-ID index and included-block
 *      index must equal the stored tables byte for byte, every block's referenced data (milestone index, white-flag
 *      index, inclusion state, conflict reason) and milestone index must match, and so must the ledger and
 *      confirmed milestone indexes. The replay writes the TIP-26 index too, so its tables are compared the same way.
 *   6. the index (core ledger/indexer/verify.ts), without a genesis too: every unspent output has exactly the index
 *      entries its output gives, and every index entry names an unspent output it belongs to.
 *   7. the explorer history and its aggregates (core ledger/history/verify.ts, docs/explorer.md), without a genesis
 *      too: the aggregates against the unspent outputs, the ledger updates against the milestone diffs, the history's
 *      milestones and blocks against the stored ones, and its tables against each other.
 *
 * A pruned store (core pruning/, docs/decisions.md §27) is replayed from the ledger at its pruning index P, rebuilt
 * from the store (replay.ts), without a genesis too. A kept block referenced above P must name only stored blocks or
 * solid entry points of P as parents; a block no milestone referenced (or one still waiting for an unfinished run)
 * whose parent was pruned keeps its solid flag and is only counted; solid entry points need not be tips.
 */
import { toHex, toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { blake2b256 } from '../../core/crypto/index.ts';
import { transactionIdOf } from '../../core/ids/index.ts';
import { LEDGER_META, verifyHistory, verifyOutputIndex, type LedgerGenesis } from '../../core/ledger/index.ts';
import { PAYLOAD_TRANSACTION } from '../../core/model/index.ts';
import { META, type NodeStore, TABLES } from '../../core/store/index.ts';
import { baseAtPruningIndex, replayLedger, type BlockInfo } from './replay.ts';

export interface CheckOptions {
  /** The genesis ledger the store started from; without it the ledger replay is skipped (reported as skipped). */
  genesis?: LedgerGenesis;
  /** The network's solid entry points (default: the genesis', else the ledger meta's; a pruned store's own). */
  solidEntryPoints?: Uint8Array[];
  /** Told what the check is doing (a terminal shows it: tool check). */
  progress?: (text: string) => void;
}

export interface CheckSummary {
  blocks: number;
  v3Blocks: number;
  solid: number;
  unsolid: number;
  referenced: number;
  childEdges: number;
  tips: number;
  /** Solid blocks whose only children are unsolid: may or may not be tips (arrival order). */
  tipUndetermined: number;
  milestonesReplayed: number;
  ledgerIndex: number | undefined;
  unspentOutputs: number;
  /** Entries of the TIP-26 index tables. */
  indexEntries: number;
  /** The explorer history: ledger updates and referenced blocks kept, addresses with a balance record. */
  historyUpdates: number;
  historyBlocks: number;
  historyAddresses: number;
  /** History entries an interrupted retention run has still to delete (the node finishes it on its next start). */
  historyPending: number;
  ledgerReplay: 'done' | 'done from the pruning index' | 'skipped: no genesis' | 'skipped: no ledger';
  /** The store's pruning index (undefined: never pruned). */
  pruningIndex?: number;
  /** Entries an unfinished pruning run has still to delete (the node finishes it on its next start). */
  pendingPruning: number;
  /** Kept blocks no milestone referenced whose parent was pruned (below max depth; pruned in their turn). */
  prunedParents: number;
  ms: number;
}

export interface CheckReport {
  ok: boolean;
  summary: CheckSummary;
  /** Every disagreement, one line each. */
  differences: string[];
}

const h = (b: Uint8Array): string => toHex0x(b);

export async function checkStore(store: NodeStore, options: CheckOptions = {}): Promise<CheckReport> {
  const started = Date.now();
  const diffs: string[] = [];
  const summary: CheckSummary = {
    blocks: 0,
    v3Blocks: 0,
    solid: 0,
    unsolid: 0,
    referenced: 0,
    childEdges: 0,
    tips: 0,
    tipUndetermined: 0,
    milestonesReplayed: 0,
    ledgerIndex: await store.getMeta(META.ledgerIndex),
    unspentOutputs: 0,
    indexEntries: 0,
    historyUpdates: 0,
    historyBlocks: 0,
    historyAddresses: 0,
    historyPending: 0,
    ledgerReplay: 'done',
    pendingPruning: 0,
    prunedParents: 0,
    ms: 0,
  };
  const pruning = await store.getMeta(LEDGER_META.pruning);
  if (pruning) summary.pruningIndex = pruning.index;
  const P = pruning?.index;
  options.progress?.('check: reading the blocks');

  // 1. blocks and metadata
  const blocks = new Map<string, BlockInfo>();
  for await (const [id, bytes] of store.entries(TABLES.blocks)) {
    if (id.length === 36) {
      summary.v3Blocks++;
      continue;
    }
    if (id.length !== 32) {
      diffs.push(`blocks: key ${h(id)} is ${id.length} bytes, neither a v2 (32) nor a v3 (36) block ID`);
      continue;
    }
    if (++summary.blocks % 10_000 === 0) options.progress?.(`check: ${summary.blocks} blocks read`);
    const hash = blake2b256(bytes);
    if (toHex(hash) !== toHex(id)) diffs.push(`blocks: ${h(id)} holds bytes hashing to ${h(hash)}`);
    try {
      const block = decodeBlock(bytes);
      const info: BlockInfo = { id, bytes, parents: block.parents };
      if (block.payload?.type === PAYLOAD_TRANSACTION) info.transactionId = transactionIdOf(block.payload);
      blocks.set(toHex(id), info);
    } catch (e) {
      diffs.push(`blocks: ${h(id)} does not decode: ${(e as Error).message}`);
    }
  }
  for await (const [id, md] of store.entries(TABLES.blockMetadata)) {
    const b = blocks.get(toHex(id));
    if (b === undefined) {
      if (!(await store.hasBlock(id))) diffs.push(`blockMetadata: ${h(id)} has metadata but no stored block`);
      continue;
    }
    b.metadata = md;
  }
  for (const b of blocks.values())
    if (b.metadata === undefined) diffs.push(`blockMetadata: block ${h(b.id)} has no metadata`);

  // 2. children and transaction indexes, both directions
  const expectedEdges = new Set<string>();
  for (const b of blocks.values()) for (const p of b.parents) expectedEdges.add(`${toHex(p)}:${toHex(b.id)}`);
  const storedEdges = new Set<string>();
  for await (const [parent, child] of store.keys(TABLES.children)) {
    const e = `${toHex(parent)}:${toHex(child)}`;
    storedEdges.add(e);
    if (!expectedEdges.has(e))
      diffs.push(
        `children: edge ${h(parent)} -> ${h(child)} is stored, but ` +
          `${blocks.has(toHex(child)) ? 'the child does not name that parent' : 'the child block is not stored'}`,
      );
  }
  summary.childEdges = storedEdges.size;
  for (const e of expectedEdges) {
    if (!storedEdges.has(e)) {
      const [p, c] = e.split(':');
      diffs.push(`children: block 0x${c} names parent 0x${p}, but the edge is missing`);
    }
  }
  const expectedTx = new Set<string>();
  for (const b of blocks.values()) if (b.transactionId) expectedTx.add(`${toHex(b.transactionId)}:${toHex(b.id)}`);
  const storedTx = new Set<string>();
  for await (const [tx, blockId] of store.keys(TABLES.transactionBlocks)) {
    if (blockId.length !== 32) continue; // v3 attachments
    const e = `${toHex(tx)}:${toHex(blockId)}`;
    storedTx.add(e);
    if (!expectedTx.has(e))
      diffs.push(
        `transactionBlocks: ${h(tx)} -> ${h(blockId)} is stored, but that block does not carry that transaction`,
      );
  }
  for (const e of expectedTx) {
    if (!storedTx.has(e)) {
      const [t, b] = e.split(':');
      diffs.push(`transactionBlocks: block 0x${b} carries transaction 0x${t}, but the index lacks it`);
    }
  }

  // 3. solidity
  const storedSeps = (await store.getMeta(LEDGER_META.solidEntryPoints)) ?? [];
  const seps = options.solidEntryPoints ?? (pruning ? storedSeps : (options.genesis?.solidEntryPoints ?? storedSeps));
  const sepSet = new Set(seps.map(toHex));
  const isSolid = (k: string): boolean => sepSet.has(k) || blocks.get(k)?.metadata?.solid === true;
  for (const b of blocks.values()) {
    const md = b.metadata;
    if (!md) continue;
    const expected = b.parents.every((p) => isSolid(toHex(p)));
    if (md.solid) summary.solid++;
    else summary.unsolid++;
    if (md.referenced) summary.referenced++;
    const pruned = b.parents.filter((p) => !isSolid(toHex(p)) && !blocks.has(toHex(p)));
    if (
      md.solid &&
      !expected &&
      P !== undefined &&
      pruned.length > 0 &&
      md.referenced &&
      md.referenced.milestoneIndex > P
    ) {
      diffs.push(
        `solid entry points: ${h(b.id)} (referenced by milestone ${md.referenced.milestoneIndex}) ` +
          `names ${pruned.map(h).join(', ')}, pruned but not a solid entry point of the pruning index ${P}`,
      );
    } else if (
      md.solid &&
      !expected &&
      P !== undefined &&
      pruned.length === b.parents.filter((p) => !isSolid(toHex(p))).length
    ) {
      summary.prunedParents++;
    } else if (md.solid && !expected) {
      const bad = b.parents
        .filter((p) => !isSolid(toHex(p)))
        .map((p) => `${h(p)} (${blocks.has(toHex(p)) ? 'unsolid' : 'not stored'})`);
      diffs.push(`solidity: ${h(b.id)} is marked solid, but parent(s) ${bad.join(', ')} are not solid`);
    } else if (!md.solid && expected) {
      diffs.push(`solidity: ${h(b.id)} is marked unsolid, but every parent is solid (the future-cone walk missed it)`);
    }
    if (md.referenced && !md.solid)
      diffs.push(`solidity: ${h(b.id)} is referenced by milestone ${md.referenced.milestoneIndex} but not solid`);
  }

  // 4. tips
  const solidChildren = new Map<string, number>();
  const anyChildren = new Map<string, number>();
  for (const b of blocks.values()) {
    for (const p of b.parents) {
      const k = toHex(p);
      anyChildren.set(k, (anyChildren.get(k) ?? 0) + 1);
      if (b.metadata?.solid) solidChildren.set(k, (solidChildren.get(k) ?? 0) + 1);
    }
  }
  const storedTips = new Set<string>();
  for await (const tip of store.keys(TABLES.tips)) {
    const k = toHex(tip);
    storedTips.add(k);
    if (!isSolid(k))
      diffs.push(
        `tips: ${h(tip)} is a tip but ` +
          `${blocks.has(k) ? 'not solid' : 'neither a stored block nor a solid entry point'}`,
      );
    else if ((solidChildren.get(k) ?? 0) > 0)
      diffs.push(`tips: ${h(tip)} is a tip but has ${solidChildren.get(k)} solid child(ren)`);
  }
  summary.tips = storedTips.size;
  // Pruning never adds its solid entry points to the tips (their kept children already left the pool).
  const candidates = [
    ...(P === undefined ? sepSet : []),
    ...[...blocks.values()].filter((b) => b.metadata?.solid).map((b) => toHex(b.id)),
  ];
  for (const k of candidates) {
    if ((solidChildren.get(k) ?? 0) > 0) continue;
    if ((anyChildren.get(k) ?? 0) > 0) {
      summary.tipUndetermined++;
      continue;
    }
    if (!storedTips.has(k))
      diffs.push(
        `tips: 0x${k} is ${sepSet.has(k) ? 'a solid entry point' : 'a solid block'} without children, but not a tip`,
      );
  }

  // 5. the ledger replay: from the genesis, or from the ledger at the pruning index
  let base: LedgerGenesis | undefined = options.genesis;
  if (pruning && summary.ledgerIndex !== undefined) {
    options.progress?.(`check: rebuilding the ledger at the pruning index ${pruning.index}`);
    base = await baseAtPruningIndex(store, pruning, diffs);
    summary.ledgerReplay = 'done from the pruning index';
  }
  if (summary.ledgerIndex === undefined) summary.ledgerReplay = 'skipped: no ledger';
  else if (base === undefined) summary.ledgerReplay = pruning ? summary.ledgerReplay : 'skipped: no genesis';
  else await replayLedger(store, base, blocks, diffs, summary, pruning, options.progress);
  options.progress?.('check: the output index');
  // 6. the index against the unspent outputs
  const index = await verifyOutputIndex(store);
  summary.unspentOutputs = index.unspentOutputs;
  summary.indexEntries = index.entries;
  diffs.push(...index.differences);
  options.progress?.('check: the explorer history');
  // 7. the history and its aggregates
  const history = await verifyHistory(store);
  summary.historyUpdates = history.updates;
  summary.historyBlocks = history.blocks;
  summary.historyAddresses = history.addresses;
  summary.historyPending = history.pending;
  diffs.push(...history.differences);

  summary.ms = Date.now() - started;
  return { ok: diffs.length === 0, summary, differences: diffs };
}
