/**
 * Storing accepted blocks, with group commit: the blocks waiting to be stored when a write starts are stored together
 * in ONE atomic durable batch (bytes, metadata, children edges, the transaction index, tip table changes), so a crash
 * leaves each block whole or absent and many blocks share one fsync; each `attach` resolves only once the batch
 * holding its block is durable.
 *
 * Solidity: a block is solid when every parent is a solid entry point or a stored (or, within a group, an earlier)
 * solid block. A block with an unknown or unsolid parent is stored as not solid. When a block becomes solid, the
 * stored children waiting for it are re-checked in the same batch and become solid too when all their parents now
 * are (a future-cone walk), so late parents heal the DAG. A block that becomes solid gets its cone root indexes from
 * its parents (cone-roots.ts) in the same batch, and joins the tip pools once the batch is durable (urts.ts).
 *
 * Tips table (the blocks without children, for restarts and the consistency check): a block that becomes solid and
 * has no children enters it, and its parents leave it.
 *
 * The queue: work that must see a still ledger (milestone confirmation, the coordinator's dry run) runs through
 * `exclusive`, between groups and before any waiting group, so it never waits behind more than one write; the
 * coordinator's own blocks (milestones, checkpoints) come next, then the waiting groups.
 */
import { fromHex, toHex } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { transactionIdOf } from '../../core/ids/index.ts';
import { PAYLOAD_MILESTONE, PAYLOAD_TRANSACTION, type Block } from '../../core/model/index.ts';
import {
  TABLES,
  type BlockMetadata,
  type ConeRootIndexes,
  type NodeStore,
  type StoreBatch,
} from '../../core/store/index.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';
import type { ConeRoots } from './cone-roots.ts';
import type { KnownBlocks } from './known-blocks.ts';

export interface AttachResult {
  /** False when the block was already stored (the submission is idempotent). */
  stored: boolean;
  solid: boolean;
  /** Blocks (other than this one) that became solid with it. */
  solidified: number;
}

/**
 * Told about every newly stored block once its batch is durable, in the order of the batch; must not wait for the
 * queue.
 */
export type StoredListener = (blockId: Uint8Array, block: Block, result: AttachResult, bytes: Uint8Array) => void;

/** Told about every block that became solid (stored with it, or waiting for it), with its cone root indexes. */
export type SolidListener = (blockId: Uint8Array, parents: readonly Uint8Array[], coneRoots: ConeRootIndexes) => void;

interface AttachJob {
  blockId: Uint8Array;
  bytes: Uint8Array;
  block: Block;
  resolve: (r: AttachResult) => void;
  reject: (e: unknown) => void;
}

interface ExclusiveJob {
  run: () => Promise<void>;
}

/** Blocks stored together at most (a group of this many is about 1 MB of writes at most). */
export const MAX_GROUP = 256;

/** A block of the group being built: what the store will hold once the batch is written. */
interface Staged {
  metadata: BlockMetadata;
  parents: readonly Uint8Array[];
}

/** One group's batch and what it has staged so far. */
class Group {
  readonly batch: StoreBatch;
  readonly staged = new Map<string, Staged>();
  readonly children = new Map<string, Uint8Array[]>();
  readonly solid: { id: Uint8Array; parents: readonly Uint8Array[]; coneRoots: ConeRootIndexes }[] = [];

  constructor(store: NodeStore) {
    this.batch = store.batch();
  }

  stage(blockId: Uint8Array, staged: Staged): void {
    this.staged.set(toHex(blockId), staged);
  }

  addChild(parent: Uint8Array, child: Uint8Array): void {
    const k = toHex(parent);
    const list = this.children.get(k);
    if (list) list.push(child);
    else this.children.set(k, [child]);
  }
}

export class Attacher {
  private readonly attaches: AttachJob[] = [];
  /** The coordinator's blocks: stored in a group of their own ahead of the waiting ones. */
  private readonly urgent: AttachJob[] = [];
  private readonly exclusives: ExclusiveJob[] = [];
  private draining: Promise<void> | undefined;
  private readonly storedListeners: StoredListener[] = [];
  private readonly solidListeners: SolidListener[] = [];
  /**
   * Blocks (ID hex) that a stored unsolid block names as a parent: only these can have children in the store before
   * they become solid, so only for these is the children table read when they do.
   */
  private readonly awaited = new Set<string>();
  private readonly unsolidAtStart: Uint8Array[] = [];
  /** The blocks in the store's tips table (ID hex), so a parent that is no tip costs no delete. */
  private readonly tipsTable = new Set<string>();

  constructor(
    private readonly store: NodeStore,
    private readonly protocol: ProtocolState,
    private readonly coneRoots: ConeRoots,
    private readonly known: KnownBlocks,
    private readonly now: () => number = Date.now,
    private readonly maxGroup = MAX_GROUP,
  ) {}

  /**
   * Start-up, for every stored block (the composition root's one pass over the metadata): it is known; unsolid ones
   * wait.
   */
  noteStored(blockId: Uint8Array, md: BlockMetadata): void {
    this.known.add(blockId);
    if (!md.solid && md.protocolVersion === 2) this.unsolidAtStart.push(blockId);
  }

  /** Start-up, after noteStored: the tips table, and the parents the stored unsolid blocks wait for. */
  async load(): Promise<void> {
    for (const tip of await this.store.tips()) this.tipsTable.add(toHex(tip));
    for (const id of this.unsolidAtStart.splice(0)) {
      for (const p of (await this.parentsOf(id)) ?? [])
        if ((await this.store.getBlockMetadata(p))?.solid !== true) this.awaited.add(toHex(p));
    }
  }

  onStored(listener: StoredListener): void {
    this.storedListeners.push(listener);
  }

  onSolid(listener: SolidListener): void {
    this.solidListeners.push(listener);
  }

  /** Pruning deleted these blocks (no milestone referenced them): the ones that were tips are not any more. */
  forgetPruned(blockIds: readonly Uint8Array[]): void {
    for (const id of blockIds) this.tipsTable.delete(toHex(id));
  }

  /**
   * After pruning, in `exclusive`: a missing parent that no stored block names any more (its unsolid children were
   * pruned) is not awaited. Returns how many were dropped.
   */
  async dropPrunedWaits(): Promise<number> {
    let dropped = 0;
    for (const key of [...this.awaited]) {
      if ((await this.store.children(fromHex(key))).length > 0) continue;
      this.awaited.delete(key);
      dropped++;
    }
    return dropped;
  }

  /** What the attacher holds in memory across groups (tests, metrics). */
  get held(): { awaited: number; tips: number } {
    return { awaited: this.awaited.size, tips: this.tipsTable.size };
  }

  /**
   * Runs `fn` with no attach running meanwhile (milestone confirmation, the coordinator); it goes before waiting
   * groups.
   */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.exclusives.push({ run: () => fn().then(resolve, reject) });
      this.kick();
    });
  }

  /**
   * Stores `bytes` (the block `block`, ID `blockId`); resolves once the batch holding it is durable. `urgent` blocks
   * (the coordinator's) go before the blocks already waiting.
   */
  attach(blockId: Uint8Array, bytes: Uint8Array, block: Block, urgent = false): Promise<AttachResult> {
    return new Promise<AttachResult>((resolve, reject) => {
      (urgent ? this.urgent : this.attaches).push({ blockId, bytes, block, resolve, reject });
      this.kick();
    });
  }

  /** Resolves once every attach and exclusive job started so far has finished. */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = undefined;
      if (this.attaches.length > 0 || this.urgent.length > 0 || this.exclusives.length > 0) this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (;;) {
      const exclusive = this.exclusives.shift();
      if (exclusive) {
        await exclusive.run();
        continue;
      }
      const queue = this.urgent.length > 0 ? this.urgent : this.attaches;
      if (queue.length === 0) return;
      const jobs = queue.splice(0, this.maxGroup);
      try {
        await this.storeGroup(jobs);
      } catch (e) {
        for (const j of jobs) j.reject(e);
      }
    }
  }

  /** Stores a group of blocks in one batch and resolves each job once it is durable. */
  private async storeGroup(jobs: AttachJob[]): Promise<void> {
    const group = new Group(this.store);
    const results: AttachResult[] = [];
    const fresh: AttachJob[] = [];
    for (const job of jobs) {
      const result = await this.stage(group, job);
      results.push(result);
      if (result.stored) fresh.push(job);
    }
    if (group.batch.length > 0) await group.batch.commit({ sync: true });
    for (const s of group.solid) {
      this.coneRoots.noteSolid(s.id, s.parents);
      for (const l of this.solidListeners) l(s.id, s.parents, s.coneRoots);
    }
    jobs.forEach((job, i) => {
      if (results[i]!.stored) for (const l of this.storedListeners) l(job.blockId, job.block, results[i]!, job.bytes);
      job.resolve(results[i]!);
    });
  }

  private async stage(group: Group, job: AttachJob): Promise<AttachResult> {
    const { blockId, bytes, block } = job;
    const staged = group.staged.get(toHex(blockId))?.metadata;
    const already =
      staged ?? (this.known.mightContain(blockId) ? await this.store.getBlockMetadata(blockId) : undefined);
    if (already) return { stored: false, solid: already.solid, solidified: 0 };
    this.known.add(blockId);
    const solid = await this.isSolid(group, block.parents);
    const metadata: BlockMetadata = { protocolVersion: 2, solid, arrivalTime: this.now() };
    if (block.payload?.type === PAYLOAD_MILESTONE) metadata.milestoneIndex = block.payload.index;
    if (solid)
      metadata.coneRoots = await this.coneRoots.fromParents(block.parents, (k) => group.staged.get(k)?.metadata);
    group.batch.addBlock({
      blockId,
      bytes,
      parents: block.parents,
      metadata,
      ...(block.payload?.type === PAYLOAD_TRANSACTION ? { transactionId: transactionIdOf(block.payload) } : {}),
    });
    // Under the confirmed index of now: pruning deletes it with that index if no milestone referenced it by then.
    if (this.protocol.hasLedger)
      group.batch.put(TABLES.unreferencedBlocks, { index: this.protocol.ledgerIndex, blockId }, null);
    group.stage(blockId, { metadata, parents: block.parents });
    for (const p of block.parents) group.addChild(p, blockId);
    if (!solid) {
      for (const p of block.parents)
        if (!this.protocol.isSolidEntryPoint(p) && (await this.metadataOf(group, p))?.solid !== true)
          this.awaited.add(toHex(p));
      return { stored: true, solid, solidified: 0 };
    }
    const children = await this.becameSolid(group, blockId, block.parents, metadata.coneRoots!);
    return { stored: true, solid, solidified: await this.solidifyFutureCone(group, children) };
  }

  private async metadataOf(group: Group, id: Uint8Array): Promise<BlockMetadata | undefined> {
    return group.staged.get(toHex(id))?.metadata ?? (await this.store.getBlockMetadata(id));
  }

  private async isSolid(group: Group, parents: readonly Uint8Array[]): Promise<boolean> {
    for (const p of parents) {
      if (this.protocol.isSolidEntryPoint(p)) continue;
      if ((await this.metadataOf(group, p))?.solid !== true) return false;
    }
    return true;
  }

  /** The children of a block that just became solid: in the store only if a stored unsolid block awaited it. */
  private async childrenOf(group: Group, id: Uint8Array): Promise<Uint8Array[]> {
    const key = toHex(id);
    const staged = group.children.get(key) ?? [];
    if (!this.awaited.delete(key)) return staged;
    return [...(await this.store.children(id)), ...staged];
  }

  /**
   * Tips table change for a block that is now solid (it joins the pools once the batch is durable); returns its
   * children.
   */
  private async becameSolid(
    group: Group,
    blockId: Uint8Array,
    parents: readonly Uint8Array[],
    coneRoots: ConeRootIndexes,
  ): Promise<Uint8Array[]> {
    for (const parent of parents) if (this.tipsTable.delete(toHex(parent))) group.batch.removeTip(parent);
    const children = await this.childrenOf(group, blockId);
    if (children.length === 0) {
      group.batch.addTip(blockId);
      this.tipsTable.add(toHex(blockId));
    }
    group.solid.push({ id: blockId, parents, coneRoots });
    return children;
  }

  /** Marks the stored, unsolid descendants of a block that became solid solid when all their parents are solid now. */
  private async solidifyFutureCone(group: Group, rootChildren: Uint8Array[]): Promise<number> {
    const queue: Uint8Array[][] = [rootChildren];
    let count = 0;
    while (queue.length > 0) {
      for (const child of queue.shift()!) {
        const key = toHex(child);
        const staged = group.staged.get(key);
        const md = staged?.metadata ?? (await this.store.getBlockMetadata(child));
        if (!md || md.solid) continue;
        const parents = staged?.parents ?? (await this.parentsOf(child));
        if (!parents || !(await this.isSolid(group, parents))) continue;
        const coneRoots = await this.coneRoots.fromParents(parents, (k) => group.staged.get(k)?.metadata);
        const metadata: BlockMetadata = { ...md, solid: true, coneRoots };
        group.batch.putBlockMetadata(child, metadata);
        group.stage(child, { metadata, parents });
        queue.push(await this.becameSolid(group, child, parents, coneRoots));
        count++;
      }
    }
    return count;
  }

  private async parentsOf(id: Uint8Array): Promise<readonly Uint8Array[] | undefined> {
    const bytes = await this.store.getBlock(id);
    return bytes === undefined ? undefined : decodeBlock(bytes).parents;
  }
}
