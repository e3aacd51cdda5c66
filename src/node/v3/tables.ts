/**
 * The v3 (IOTA 2.0) tables, at the prefixes reserved for v3 (0x20..). Raw v3 blocks live in the shared `blocks`
 * table and their attachments in `transactionBlocks` (36-byte IDs behind their length byte, so they never mix with
 * v2 IDs); everything else v3 keeps here. Records are JSON text (hex bytes, decimal strings for u64).
 *
 * | byte | table             | key                         | value                                                 |
 * |------|-------------------|-----------------------------|-------------------------------------------------------|
 * | 0x20 | v3SlotBlocks      | slot (u32 BE) ‖ block ID    | empty (every attached block; pruning.ts finds old     |
 * |      |                   |                             | slots' blocks; the `blocksBySlot` byte                |
 * |      |                   |                             | core/store/prefixes.ts reserved)                      |
 * | 0x21 | v3BlockState      | len ‖ block ID              | BlockStateRecord: parents, seat, witness/ratifier     |
 * |      |                   |                             | bitsets, accepted, confirmed, slot, tx                |
 * | 0x22 | v3Tips            | len ‖ block ID              | empty (blocks without children)                       |
 * | 0x23 | v3Outputs         | len ‖ output ID (38)        | OutputRecord: output bytes, creation slot, spender    |
 * | 0x24 | v3Transactions    | len ‖ transaction ID        | TransactionRecord: state, included block, reason      |
 * | 0x25 | v3Meta            | name (UTF-8)                | `genesis` (genesis v3 JSON), `status` (StatusRecord), |
 * |      |                   |                             | `pruning` (PruningRecordV3), `slotBlocks` (`built`:   |
 * |      |                   |                             | the slot index covers every block)                    |
 * | 0x26 | v3AccountMana     | len ‖ account ID            | Mana allotted to the account (u64 LE)                 |
 * | 0x27 | v3Commitments     | slot (u32 BE)               | the slot's commitment, 89 bytes (docs/protocol.md     |
 * |      |                   |                             | §V7.4); every slot from the genesis slot, kept        |
 * | 0x28 | v3Roots           | slot (u32 BE)               | the slot's roots, 256 bytes (§V7.12); pruned with     |
 * |      |                   |                             | the slot's blocks                                     |
 * | 0x29 | v3UtxoChanges     | slot (u32 BE)               | UtxoChangesRecord: the outputs the transactions the   |
 * |      |                   |                             | slot's commitment covers created and consumed, with   |
 * |      |                   |                             | their bytes (empty value: none); written with the     |
 * |      |                   |                             | commitment, pruned with the slot's blocks             |
 * |      |                   |                             | (utxo-changes.ts)                                     |
 *
 * v3Meta also holds `commitments` (CommitmentsRecordV3: the latest finalized slot and the seats' attestations).
 */
import {
  bytesCodec,
  defineTable,
  emptyCodec,
  idKeyCodec,
  u32BlockKeyCodec,
  u32KeyCodec,
  u64Codec,
  utf8Codec,
  type Codec,
} from '../../core/store/index.ts';

export interface BlockStateRecord {
  parents: string[];
  seat: number;
  witnesses: string;
  ratifiers: string;
  accepted: boolean;
  confirmed: boolean;
  slot: number;
  issuingTime: string;
  validation: boolean;
  seq: number;
  transactionId?: string;
  /** Slot of the block's `slotCommitmentId` (absent in records of the older layout). */
  commitmentSlot?: number;
  /** Not accepted when its slot (or a parent's) was committed: never accepted afterwards (commitments.ts). */
  orphaned?: boolean;
  /** Weak parents (absent when none, and in records of the older layout). */
  weakParents?: string[];
}

export interface OutputRecord {
  output: string;
  creationSlot: number;
  spentBy?: string;
}

export type TransactionStateV3 = 'pending' | 'confirmed' | 'failed';

/**
 * A transaction as the ledger holds it: `confirmed` = applied (an attachment was confirmed), with its included block
 * and, once a slot commitment covers it, the slot of that commitment (its state mutation root names the
 * transaction); `failed` with iota.go's numeric failure reason and the node's message.
 */
export interface TransactionRecord {
  state: TransactionStateV3;
  includedBlockId?: string;
  committedSlot?: number;
  failureCode?: number;
  failureReason?: string;
}

/** The `commitments` record of v3Meta (commitments.ts). */
export interface CommitmentsRecordV3 {
  latestFinalizedSlot: number;
  /** Each seat's latest attestation (its best accepted validation block in a committed slot). */
  attestations: {
    seat: number;
    blockId: string;
    commitmentSlot: number;
    issuingTime: string;
    bodyHash: string;
  }[];
}

/**
 * v3 pruning (pruning.ts): the confirmed blocks of the slots before `slot` are deleted, or being deleted by a run the
 * next one finishes. Set by the v2 pruning (`slot` is the slot of the timestamp of milestone `milestoneIndex`, the v2
 * pruning index) or by the v3 retention (retention.ts: `slot` starts the `keptEpochs`-th epoch before the epoch of
 * the latest commitment); the record names one of the two.
 */
export interface PruningRecordV3 {
  slot: number;
  milestoneIndex?: number;
  keptEpochs?: number;
}

/** A key of the slot index (an empty block ID only as a range bound). */
export interface SlotBlockKey {
  slot: number;
  blockId: Uint8Array;
}

/** slot (u32 BE, so a range is "the slots before S") ‖ the block ID (the rest of the key). */
const slotBlockKeyCodec: Codec<SlotBlockKey> = u32BlockKeyCodec('slot');

/**
 * The UTXO changes of a committed slot (utxo-changes.ts): every output the transactions its commitment covers created,
 * and every output they consumed, each as [output ID, output bytes] in 0x hex, sorted by output ID. An output created
 * and consumed by transactions of the same slot is in both lists, as in iota-core.
 */
export interface UtxoChangesRecord {
  created: [string, string][];
  consumed: [string, string][];
}

/** JSON text; a slot without changes (most slots) as an empty value. */
const utxoChangesCodec: Codec<UtxoChangesRecord> = {
  encode: (v) =>
    v.created.length === 0 && v.consumed.length === 0 ? new Uint8Array(0) : utf8Codec.encode(JSON.stringify(v)),
  decode: (b, subject) =>
    b.length === 0 ? { created: [], consumed: [] } : (JSON.parse(utf8Codec.decode(b, subject)) as UtxoChangesRecord),
};

export interface StatusRecord {
  latestAcceptedBlockSlot: number;
  latestConfirmedBlockSlot: number;
  /** Issuing times (ns, decimal) of the latest accepted / confirmed block. */
  acceptedTangleTime: string;
  confirmedTangleTime: string;
}

function jsonCodec<T>(): Codec<T> {
  return {
    encode: (v) => utf8Codec.encode(JSON.stringify(v)),
    decode: (b, subject) => JSON.parse(utf8Codec.decode(b, subject)) as T,
  };
}

export const V3_PREFIX = Object.freeze({
  blockState: 0x21,
  tips: 0x22,
  outputs: 0x23,
  transactions: 0x24,
  meta: 0x25,
  accountMana: 0x26,
  slotBlocks: 0x20,
  commitments: 0x27,
  roots: 0x28,
  utxoChanges: 0x29,
} as const);

export const V3_TABLES = Object.freeze({
  blockState: defineTable('v3BlockState', V3_PREFIX.blockState, idKeyCodec, jsonCodec<BlockStateRecord>()),
  tips: defineTable('v3Tips', V3_PREFIX.tips, idKeyCodec, emptyCodec),
  outputs: defineTable('v3Outputs', V3_PREFIX.outputs, idKeyCodec, jsonCodec<OutputRecord>()),
  transactions: defineTable('v3Transactions', V3_PREFIX.transactions, idKeyCodec, jsonCodec<TransactionRecord>()),
  meta: defineTable('v3Meta', V3_PREFIX.meta, utf8Codec, utf8Codec),
  accountMana: defineTable('v3AccountMana', V3_PREFIX.accountMana, idKeyCodec, u64Codec),
  slotBlocks: defineTable('v3SlotBlocks', V3_PREFIX.slotBlocks, slotBlockKeyCodec, emptyCodec),
  commitments: defineTable('v3Commitments', V3_PREFIX.commitments, u32KeyCodec, bytesCodec),
  roots: defineTable('v3Roots', V3_PREFIX.roots, u32KeyCodec, bytesCodec),
  utxoChanges: defineTable('v3UtxoChanges', V3_PREFIX.utxoChanges, u32KeyCodec, utxoChangesCodec),
});
