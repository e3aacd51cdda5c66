/**
 * Applying a cone in White-Flag order (docs/protocol.md §17.2): every transaction is checked against the ledger plus
 * what this milestone applied before it, then either applied (inputs spent, outputs booked as `txId ‖ index`) or
 * marked conflicting. Input resolution follows Hornet's order, per input, stopping at the first failure:
 *   spent earlier in this milestone -> 2; created earlier in this milestone -> use it; unknown to the ledger -> 3;
 *   known but spent -> 1.
 * Everything after input resolution (codes 4-12, 255) is the semantic validator's (semantic.ts). Nothing is written
 * here: the result lists the mutations, in White-Flag order.
 */
import { toHex } from '../bytes.ts';
import { merkleRoot } from '../ids/merkle.ts';
import { transactionIdOf } from '../ids/of-model.ts';
import { outputId as makeOutputId } from '../ids/output-id.ts';
import type { CommonOutput } from '../model/output.ts';
import { PAYLOAD_TRANSACTION, type TransactionPayload } from '../model/payload.ts';
import type { ProtocolParameters } from '../model/protocol.ts';
import type { LedgerInclusionState } from '../store/block-metadata.ts';
import type { ConeBlock } from './cone.ts';
import { CONFLICT, type ConflictReason } from './conflict.ts';
import type { LedgerState } from './ledger-state.ts';
import type { OutputRecord, SpentRecord } from './output-record.ts';
import { LEDGER_TABLES } from './tables.ts';

const ledgerOutputs = LEDGER_TABLES.outputs;

/** The semantic validator's shape (semantic.ts `validateTransactionSemantics`). */
export type SemanticValidator = (
  tx: TransactionPayload,
  inputs: { outputId: Uint8Array; output: CommonOutput }[],
  ctx: { milestoneIndex: number; milestoneTimestamp: number; protocol: ProtocolParameters },
) => { reason: ConflictReason; message?: string };

export interface WhiteFlagContext {
  milestoneIndex: number;
  milestoneTimestamp: number;
  protocol: ProtocolParameters;
  validate: SemanticValidator;
}

/** The outcome for one block of the cone. */
export interface ConeVerdict {
  blockId: Uint8Array;
  whiteFlagIndex: number;
  ledgerInclusionState: LedgerInclusionState;
  conflictReason: ConflictReason;
  /** Transaction blocks only. */
  transactionId?: Uint8Array;
  /** Why a transaction conflicts, for logs (node-local). */
  message?: string;
}

export interface CreatedOutput extends OutputRecord {
  outputId: Uint8Array;
}

export interface ConsumedOutput extends OutputRecord {
  outputId: Uint8Array;
  spent: SpentRecord;
}

export interface WhiteFlagResult {
  verdicts: ConeVerdict[];
  /** Outputs created, in White-Flag order (including ones consumed later in the same milestone). */
  created: CreatedOutput[];
  /** Outputs consumed, in White-Flag order. */
  consumed: ConsumedOutput[];
  /** MTH over every cone block ID. */
  inclusionMerkleRoot: Uint8Array;
  /** MTH over the IDs of the blocks whose transaction was applied. */
  appliedMerkleRoot: Uint8Array;
}

type Resolution = { ok: true; inputs: CreatedOutput[] } | { ok: false; reason: ConflictReason; message: string };

export async function applyWhiteFlag(
  cone: readonly ConeBlock[],
  ledger: LedgerState,
  ctx: WhiteFlagContext,
): Promise<WhiteFlagResult> {
  const created = new Map<string, CreatedOutput>();
  const consumed = new Map<string, ConsumedOutput>();
  const verdicts: ConeVerdict[] = [];
  const applied: Uint8Array[] = [];

  const resolve = async (tx: TransactionPayload): Promise<Resolution> => {
    const inputs: CreatedOutput[] = [];
    for (const [i, input] of tx.essence.inputs.entries()) {
      const id = makeOutputId(input.transactionId, input.transactionOutputIndex);
      const key = toHex(id);
      const where = `input ${i} (output 0x${key})`;
      if (consumed.has(key))
        return {
          ok: false,
          reason: CONFLICT.inputSpentInThisMilestone,
          message: `${where} was spent earlier in this milestone`,
        };
      const fresh = created.get(key);
      if (fresh !== undefined) {
        inputs.push(fresh);
        continue;
      }
      const record = await ledger.store.get(ledgerOutputs, id);
      if (record === undefined) return { ok: false, reason: CONFLICT.inputNotFound, message: `${where} is unknown` };
      if (!(await ledger.isUnspent(id)))
        return { ok: false, reason: CONFLICT.inputAlreadySpent, message: `${where} is already spent` };
      inputs.push({ outputId: id, ...record });
    }
    return { ok: true, inputs };
  };

  for (const [whiteFlagIndex, { blockId, block }] of cone.entries()) {
    const payload = block.payload;
    if (payload === undefined || payload.type !== PAYLOAD_TRANSACTION) {
      verdicts.push({ blockId, whiteFlagIndex, ledgerInclusionState: 'noTransaction', conflictReason: CONFLICT.none });
      continue;
    }
    const transactionId = transactionIdOf(payload);
    const resolved = await resolve(payload);
    let reason: ConflictReason = CONFLICT.none;
    let message: string | undefined;
    if (!resolved.ok) {
      reason = resolved.reason;
      message = resolved.message;
    } else {
      const inputs = resolved.inputs.map((o) => ({ outputId: o.outputId, output: o.output }));
      const result = ctx.validate(payload, inputs, {
        milestoneIndex: ctx.milestoneIndex,
        milestoneTimestamp: ctx.milestoneTimestamp,
        protocol: ctx.protocol,
      });
      reason = result.reason;
      message = result.message;
    }
    if (reason !== CONFLICT.none || !resolved.ok) {
      const verdict: ConeVerdict = {
        blockId,
        whiteFlagIndex,
        ledgerInclusionState: 'conflicting',
        conflictReason: reason,
        transactionId,
      };
      if (message !== undefined) verdict.message = message;
      verdicts.push(verdict);
      continue;
    }
    const spent: SpentRecord = {
      transactionIdSpent: transactionId,
      milestoneIndexSpent: ctx.milestoneIndex,
      milestoneTimestampSpent: ctx.milestoneTimestamp,
    };
    for (const input of resolved.inputs) consumed.set(toHex(input.outputId), { ...input, spent });
    payload.essence.outputs.forEach((output, index) => {
      const id = makeOutputId(transactionId, index);
      created.set(toHex(id), {
        outputId: id,
        blockId,
        milestoneIndexBooked: ctx.milestoneIndex,
        milestoneTimestampBooked: ctx.milestoneTimestamp,
        output,
      });
    });
    applied.push(blockId);
    verdicts.push({
      blockId,
      whiteFlagIndex,
      ledgerInclusionState: 'included',
      conflictReason: CONFLICT.none,
      transactionId,
    });
  }

  return {
    verdicts,
    created: [...created.values()],
    consumed: [...consumed.values()],
    inclusionMerkleRoot: merkleRoot(cone.map((c) => c.blockId)),
    appliedMerkleRoot: merkleRoot(applied),
  };
}
