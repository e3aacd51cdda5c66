/** Reads of the stored tangle the node answers with: blocks, their metadata, and a transaction's included block. */
import { toHex0x } from '../../core/bytes.ts';
import { decodeBlock } from '../../core/codec/index.ts';
import type { BlockMetadata, NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../support/errors.ts';
import { notFound } from '../pruning/answers.ts';
import { promoteReattach, type PromoteReattach, type TipSelector } from './urts.ts';

export interface BlockMetadataView {
  blockId: Uint8Array;
  parents: Uint8Array[];
  metadata: BlockMetadata;
  /** For solid blocks no milestone referenced yet: what their tip score says (Hornet's metadata flags). */
  flags?: PromoteReattach;
}

export class TangleReader {
  constructor(
    private readonly store: NodeStore,
    private readonly tips: TipSelector,
  ) {}

  /** The stored bytes of a block (NOT_FOUND when the node does not hold it; on a pruned node the message says so). */
  async block(id: Uint8Array): Promise<Uint8Array> {
    const raw = await this.store.getBlock(id);
    if (raw === undefined) throw await notFound(this.store, `block not found: ${toHex0x(id)}`);
    return raw;
  }

  async metadata(id: Uint8Array): Promise<BlockMetadataView> {
    const [raw, metadata] = await Promise.all([this.block(id), this.store.getBlockMetadata(id)]);
    if (metadata === undefined) throw new NodeError('INTERNAL', `block ${toHex0x(id)} is stored without metadata`);
    const view: BlockMetadataView = { blockId: id, parents: decodeBlock(raw).parents, metadata };
    if (metadata.solid && !metadata.referenced) view.flags = promoteReattach(await this.tips.score(id));
    return view;
  }

  /** The block whose transaction a milestone included (NOT_FOUND before confirmation). */
  async includedBlockId(transactionId: Uint8Array): Promise<Uint8Array> {
    const blockId = await this.store.includedBlock(transactionId);
    if (blockId === undefined)
      throw await notFound(
        this.store,
        `transaction not included: ${toHex0x(transactionId)}`,
        'unknown, or not confirmed by a milestone yet',
      );
    return blockId;
  }
}
