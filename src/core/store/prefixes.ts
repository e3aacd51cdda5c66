/**
 * The one table of key prefixes. Every store key is `prefix (1 byte) ‖ table key`. A prefix is never reused
 * for another meaning: a retired table keeps its byte. Numbers inside keys are big-endian (so they sort);
 * IDs of variable length (v2 32 bytes, v3 36 bytes) sit behind a one-byte length.
 *
 * | byte | table                | key                                 | value                                        |
 * |------|----------------------|-------------------------------------|----------------------------------------------|
 * | 0x00 | meta                 | field name (UTF-8)                  | per field (schema version, network, indexes) |
 * | 0x01 | blocks               | len ‖ block ID                      | raw block bytes, exactly as received         |
 * | 0x02 | blockMetadata        | len ‖ block ID                      | BlockMetadata record (block-metadata.ts)     |
 * | 0x03 | children             | len ‖ parent ID ‖ child ID          | empty (children of X = prefix scan)          |
 * | 0x04 | tips                 | len ‖ block ID                      | empty (a set)                                |
 * | 0x05 | transactionBlocks    | len ‖ transaction ID ‖ block ID     | empty (every block carrying the tx)          |
 * | 0x06 | includedBlock        | len ‖ transaction ID                | block ID of the included attachment          |
 * | 0x07 | milestones           | milestone index (u32 BE)            | MilestoneRecord (milestone-record.ts)        |
 * | 0x08 | milestoneIndexById   | len ‖ milestone ID                  | milestone index (u32 LE)                     |
 * | 0x09 | unreferencedBlocks   | confirmed index (u32 BE) ‖ block ID | empty (blocks stored at that index; pruning) |
 * | 0x10 | (reserved) outputs            — ledger issue: output ID -> output bytes + booking metadata           |
 * | 0x11 | (reserved) unspent            — ledger issue: output ID -> empty                                     |
 * | 0x12 | (reserved) spent              — ledger issue: output ID -> spending tx, milestone index/timestamp     |
 * | 0x13 | (reserved) milestoneDiffs     — ledger issue: milestone index -> created/consumed output IDs         |
 * | 0x14 | (reserved) treasury           — ledger issue: treasury output                                        |
 * | 0x15 | (reserved) receipts           — ledger issue: migrated-at index ‖ milestone index -> receipt         |
 * | 0x20 | blocksBySlot: v3SlotBlocks    — v3: slot (u32 BE) ‖ block ID -> empty (src/node/v3/tables.ts)        |
 * | 0x30 | (reserved) indexByType        — indexer (TIP-26): output type ‖ createdAt ‖ output ID -> empty       |
 * | 0x31 | (reserved) indexByAddress     — indexer: address ‖ output type ‖ createdAt ‖ output ID -> roles      |
 * | 0x32 | (reserved) indexByChainId     — indexer: output type ‖ alias/NFT/foundry ID -> output ID             |
 * |      | 0x33-0x3f stay reserved for the indexer (ledger/indexer/tables.ts, docs/indexer.md)                  |
 * | 0x40 | historyMilestones .. 0x46 historyByMilestone — the explorer history (ledger/history/tables.ts)        |
 * | 0x47 | addressBalances, 0x48 richestAddresses, 0x49 tokenDistribution — its aggregates (same file)          |
 * |      | 0x4a-0x4f stay reserved for the history (docs/explorer.md)                                            |
 * | 0xff | (reserved) tests and tools; never used by the node                                                  |
 */
export const PREFIX = Object.freeze({
  meta: 0x00,
  blocks: 0x01,
  blockMetadata: 0x02,
  children: 0x03,
  tips: 0x04,
  transactionBlocks: 0x05,
  includedBlock: 0x06,
  milestones: 0x07,
  milestoneIndexById: 0x08,
  unreferencedBlocks: 0x09,
  outputs: 0x10,
  unspent: 0x11,
  spent: 0x12,
  milestoneDiffs: 0x13,
  treasury: 0x14,
  receipts: 0x15,
  blocksBySlot: 0x20,
  indexByType: 0x30,
  indexByAddress: 0x31,
  indexByChainId: 0x32,
  historyMilestones: 0x40,
  historyMilestoneIds: 0x41,
  historyBlocks: 0x42,
  historyMilestoneBlocks: 0x43,
  historyChildren: 0x44,
  historyByAddress: 0x45,
  historyByMilestone: 0x46,
  addressBalances: 0x47,
  richestAddresses: 0x48,
  tokenDistribution: 0x49,
  scratch: 0xff,
} as const);

export type PrefixName = keyof typeof PREFIX;
