/**
 * Storing an accepted block: bytes, metadata, children edges, the transaction index and the tip pool change, all in
 * ONE atomic durable batch (StoreBatch.commit with sync), so a crash leaves either the whole block or nothing.
 *
 * Solidity (chosen here; peers and requests for missing blocks come later): a block is solid when every parent is a
 * solid entry point or a stored solid block. A block with an unknown or unsolid parent is accepted and stored as not
 * solid. When a block becomes solid, the stored children waiting for it are re-checked in the same batch and become
 * solid too when all their parents now are (a future-cone walk), so late parents heal the DAG.
 *
 * Tips (Hornet adds tips only when a block becomes solid): a block that becomes solid and has no children becomes a
 * tip, and its parents stop being tips. Unsolid blocks never enter the pool, so auto-filled parents are always solid.
 */
import { toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import { transactionIdOf } from '../../core/ids/index.ts';
import { PAYLOAD_MILESTONE, PAYLOAD_TRANSACTION, type Block } from '../../core/model/index.ts';
import { TABLES, type BlockMetadata, type NodeStore, type StoreBatch } from '../../core/store/index.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';

export interface AttachResult {
  /** False when the block was already stored (the submission is idempotent). */
  stored: boolean;
  solid: boolean;
  /** Blocks (other than this one) that became solid with it. */
  solidified: number;
}

const key = (id: Uint8Array): string => toHex0x(id);

/** Told about every newly stored block, inside the attach queue (must not wait for the queue). */
export type StoredListener = (blockId: Uint8Array, block: Block, result: AttachResult) => void;

export class Attacher {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly listeners: StoredListener[] = [];

  constructor(
    private readonly store: NodeStore,
    private readonly protocol: ProtocolState,
    private readonly now: () => number = Date.now,
  ) {}

  onStored(listener: StoredListener): void {
    this.listeners.push(listener);
  }

  /** Runs `fn` in the attach queue: no attach runs while it does (milestone confirmation, coordinator dry runs). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn);
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Stores `bytes` (the block `block`, ID `blockId`); attaches run one at a time so tip updates never interleave. */
  attach(blockId: Uint8Array, bytes: Uint8Array, block: Block): Promise<AttachResult> {
    const run = this.chain.then(() => this.attachNow(blockId, bytes, block));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Resolves once every attach started so far has finished. */
  async idle(): Promise<void> {
    await this.chain;
  }

  private async isSolid(parents: readonly Uint8Array[], solidNow: ReadonlySet<string>): Promise<boolean> {
    const unknown = parents.filter((p) => !this.protocol.isSolidEntryPoint(p) && !solidNow.has(key(p)));
    const metas = await this.store.getMany(TABLES.blockMetadata, unknown);
    return metas.every((m) => m?.solid === true);
  }

  private async attachNow(blockId: Uint8Array, bytes: Uint8Array, block: Block): Promise<AttachResult> {
    if (await this.store.hasBlock(blockId)) {
      const md = await this.store.getBlockMetadata(blockId);
      return { stored: false, solid: md?.solid === true, solidified: 0 };
    }
    const batch = this.store.batch();
    const solid = await this.isSolid(block.parents, new Set());
    const metadata: BlockMetadata = { protocolVersion: 2, solid, arrivalTime: this.now() };
    if (block.payload?.type === PAYLOAD_MILESTONE) metadata.milestoneIndex = block.payload.index;
    batch.addBlock({
      blockId,
      bytes,
      parents: block.parents,
      metadata,
      ...(block.payload?.type === PAYLOAD_TRANSACTION ? { transactionId: transactionIdOf(block.payload) } : {}),
    });
    let solidified = 0;
    if (solid) {
      await this.becameSolid(batch, blockId, block.parents);
      solidified = await this.solidifyFutureCone(batch, blockId);
    }
    await batch.commit({ sync: true });
    const result = { stored: true, solid, solidified };
    for (const l of this.listeners) l(blockId, block, result);
    return result;
  }

  /** Tip pool change for a block that is now solid. */
  private async becameSolid(batch: StoreBatch, blockId: Uint8Array, parents: readonly Uint8Array[]): Promise<void> {
    for (const parent of parents) batch.removeTip(parent);
    if ((await this.store.children(blockId)).length === 0) batch.addTip(blockId);
  }

  /** Marks the stored, unsolid descendants of `root` solid when all their parents are solid now. */
  private async solidifyFutureCone(batch: StoreBatch, root: Uint8Array): Promise<number> {
    const solidNow = new Set<string>([key(root)]);
    const queue: Uint8Array[] = [root];
    let count = 0;
    while (queue.length > 0) {
      const id = queue.shift()!;
      for (const child of await this.store.children(id)) {
        if (solidNow.has(key(child))) continue;
        const md = await this.store.getBlockMetadata(child);
        const bytes = await this.store.getBlock(child);
        if (!md || md.solid || !bytes) continue;
        const parents = decodeBlock(bytes).parents;
        if (!(await this.isSolid(parents, solidNow))) continue;
        solidNow.add(key(child));
        batch.putBlockMetadata(child, { ...md, solid: true });
        await this.becameSolid(batch, child, parents);
        queue.push(child);
        count++;
      }
    }
    return count;
  }
}
