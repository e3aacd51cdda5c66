/**
 * The cone a milestone confirms, read from memory: every block stored since it was last referenced is kept decoded
 * (as the attacher had it), so the coordinator's White-Flag dry run and the confirmation walk the cone without a store
 * read or a decode per block. A block in this set is unreferenced by definition (a confirmation removes what it
 * referenced); anything else is answered by the store, as StoreBlockSource does.
 */
import { toHex } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import type { ConeBlockSource } from '../../core/ledger/index.ts';
import type { Block } from '../../core/model/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import type { ProtocolState } from '../ledger/protocol-state.ts';

/** Blocks kept at most (the oldest are forgotten and read from the store if a cone ever reaches them). */
const MAX_RECENT = 50_000;

export class RecentBlocks implements ConeBlockSource {
  private readonly blocks = new Map<string, Block>();

  constructor(
    private readonly store: NodeStore,
    private readonly protocol: ProtocolState,
    private readonly max = MAX_RECENT,
  ) {}

  /** A block was stored (no milestone references a block before it is stored). */
  stored(blockId: Uint8Array, block: Block): void {
    if (this.blocks.size >= this.max) this.blocks.delete(this.blocks.keys().next().value as string);
    this.blocks.set(toHex(blockId), block);
  }

  /** A confirmation referenced these blocks. */
  referenced(blockIds: readonly Uint8Array[]): void {
    for (const id of blockIds) this.blocks.delete(toHex(id));
  }

  async block(blockId: Uint8Array): Promise<Block | undefined> {
    const kept = this.blocks.get(toHex(blockId));
    if (kept) return kept;
    const bytes = await this.store.getBlock(blockId);
    return bytes === undefined ? undefined : decodeBlock(bytes);
  }

  async isReferenced(blockId: Uint8Array): Promise<boolean> {
    if (this.blocks.has(toHex(blockId))) return false;
    if (this.protocol.isSolidEntryPoint(blockId)) return true;
    return (await this.store.getBlockMetadata(blockId))?.referenced !== undefined;
  }
}
