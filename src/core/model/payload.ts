/** Payloads (docs/protocol.md §3): Tagged Data (5), Transaction (6), Milestone (7) and Treasury Transaction (4). */
import type { Address } from './address.ts';
import type { TreasuryOutput } from './output.ts';
import type { Ed25519Signature, TransactionEssence, TreasuryInput, Unlock } from './transaction.ts';

export const PAYLOAD_TREASURY_TRANSACTION = 4;
export const PAYLOAD_TAGGED_DATA = 5;
export const PAYLOAD_TRANSACTION = 6;
export const PAYLOAD_MILESTONE = 7;

export interface TaggedDataPayload {
  type: typeof PAYLOAD_TAGGED_DATA;
  tag: Uint8Array;
  data: Uint8Array;
}

export interface TransactionPayload {
  type: typeof PAYLOAD_TRANSACTION;
  essence: TransactionEssence;
  unlocks: Unlock[];
}

export interface TreasuryTransactionPayload {
  type: typeof PAYLOAD_TREASURY_TRANSACTION;
  input: TreasuryInput;
  output: TreasuryOutput;
}

export interface MigratedFundsEntry {
  /** 49 bytes (t5b1 of a legacy tail transaction hash). */
  tailTransactionHash: Uint8Array;
  /** Ed25519 only. */
  address: Address;
  deposit: bigint;
}

export const MILESTONE_OPTION_RECEIPT = 0;
export const MILESTONE_OPTION_PROTOCOL_PARAMS = 1;

export interface ReceiptMilestoneOption {
  type: typeof MILESTONE_OPTION_RECEIPT;
  migratedAt: number;
  final: boolean;
  funds: MigratedFundsEntry[];
  transaction: TreasuryTransactionPayload;
}

export interface ProtocolParamsMilestoneOption {
  type: typeof MILESTONE_OPTION_PROTOCOL_PARAMS;
  targetMilestoneIndex: number;
  protocolVersion: number;
  /** Serialized protocol parameters (§11), at most 8192 bytes. */
  params: Uint8Array;
}

export type MilestoneOption = ReceiptMilestoneOption | ProtocolParamsMilestoneOption;

export interface MilestonePayload {
  type: typeof PAYLOAD_MILESTONE;
  index: number;
  timestamp: number;
  protocolVersion: number;
  previousMilestoneId: Uint8Array;
  parents: Uint8Array[];
  inclusionMerkleRoot: Uint8Array;
  appliedMerkleRoot: Uint8Array;
  metadata: Uint8Array;
  options: MilestoneOption[];
  signatures: Ed25519Signature[];
}

/** Payloads a block may carry. */
export type BlockPayload = TaggedDataPayload | TransactionPayload | MilestonePayload;
export type Payload = BlockPayload | TreasuryTransactionPayload;

export type PayloadType = Payload['type'];
/** The payload of one kind, by its type code. */
export type PayloadOf<T extends PayloadType> = Extract<Payload, { type: T }>;

/**
 * The entry of `type` in a table keyed by payload type (the codec's and the JSON layer's dispatch tables), or
 * `undefined` when `type` names no payload kind.
 */
export function payloadKindEntry<Table extends { readonly [T in PayloadType]: unknown }>(
  table: Table,
  type: unknown,
): Table[PayloadType] | undefined {
  return typeof type === 'number' && Object.hasOwn(table, type) ? table[type as PayloadType] : undefined;
}
