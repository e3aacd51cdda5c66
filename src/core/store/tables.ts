/** The node's tables (prefixes.ts lists every byte). The ledger issue defines its own beside these with defineTable. */
import { decodeBlockMetadata, encodeBlockMetadata, type BlockMetadata } from './block-metadata.ts';
import {
  bytesCodec,
  emptyCodec,
  idKeyCodec,
  idPairKeyCodec,
  u32Codec,
  u32BlockKeyCodec,
  u32KeyCodec,
  utf8Codec,
  type Codec,
} from './codec.ts';
import { decodeMilestoneRecord, encodeMilestoneRecord, type MilestoneRecord } from './milestone-record.ts';
import { PREFIX } from './prefixes.ts';
import { defineTable } from './table.ts';

const blockMetadataCodec: Codec<BlockMetadata> = { encode: encodeBlockMetadata, decode: decodeBlockMetadata };
const milestoneRecordCodec: Codec<MilestoneRecord> = { encode: encodeMilestoneRecord, decode: decodeMilestoneRecord };

/** A block stored while the confirmed milestone index was `index` (an empty ID only as a range bound). */
export interface UnreferencedKey {
  index: number;
  blockId: Uint8Array;
}

/** index (u32 BE, so a range is "stored at or below an index") ‖ the block ID (the rest of the key). */
const unreferencedKeyCodec: Codec<UnreferencedKey> = u32BlockKeyCodec('index');

export const TABLES = Object.freeze({
  /** Meta fields by name; typed access through meta.ts. */
  meta: defineTable('meta', PREFIX.meta, utf8Codec, bytesCodec),
  /** Block ID -> raw block bytes exactly as received. */
  blocks: defineTable('blocks', PREFIX.blocks, idKeyCodec, bytesCodec),
  blockMetadata: defineTable('blockMetadata', PREFIX.blockMetadata, idKeyCodec, blockMetadataCodec),
  /** [parent ID, child ID] -> empty. */
  children: defineTable('children', PREFIX.children, idPairKeyCodec, emptyCodec),
  tips: defineTable('tips', PREFIX.tips, idKeyCodec, emptyCodec),
  /** [transaction ID, block ID] -> empty: every block that carries the transaction (re-attachments). */
  transactionBlocks: defineTable('transactionBlocks', PREFIX.transactionBlocks, idPairKeyCodec, emptyCodec),
  /** Transaction ID -> the block whose inclusion the ledger booked. */
  includedBlock: defineTable('includedBlock', PREFIX.includedBlock, idKeyCodec, bytesCodec),
  milestones: defineTable('milestones', PREFIX.milestones, u32KeyCodec, milestoneRecordCodec),
  milestoneIndexById: defineTable('milestoneIndexById', PREFIX.milestoneIndexById, idKeyCodec, u32Codec),
  /**
   * Every v2 block the attacher stores, under the confirmed milestone index of that moment (Hornet's unreferenced
   * blocks table): pruning to P deletes the blocks stored at or below P that no milestone referenced, and the entries.
   */
  unreferencedBlocks: defineTable('unreferencedBlocks', PREFIX.unreferencedBlocks, unreferencedKeyCodec, emptyCodec),
});
