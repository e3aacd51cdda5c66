/** The node's tables (prefixes.ts lists every byte). The ledger issue defines its own beside these with defineTable. */
import { decodeBlockMetadata, encodeBlockMetadata, type BlockMetadata } from './block-metadata.ts';
import { bytesCodec, emptyCodec, idKeyCodec, idPairKeyCodec, u32Codec, u32KeyCodec, utf8Codec, type Codec } from './codec.ts';
import { decodeMilestoneRecord, encodeMilestoneRecord, type MilestoneRecord } from './milestone-record.ts';
import { PREFIX } from './prefixes.ts';
import { defineTable } from './table.ts';

const blockMetadataCodec: Codec<BlockMetadata> = { encode: encodeBlockMetadata, decode: decodeBlockMetadata };
const milestoneRecordCodec: Codec<MilestoneRecord> = { encode: encodeMilestoneRecord, decode: decodeMilestoneRecord };

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
});
