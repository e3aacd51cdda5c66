/**
 * Applying a receipt (TIP-34, docs/protocol.md §17.2): one basic output per migrated-funds entry, with output ID =
 * milestone ID ‖ u16 entry index and only an Address unlock condition, and the treasury replaced by the receipt's
 * treasury output. The treasury transaction must spend the current treasury (input milestone ID = its creating
 * milestone) and balance: old treasury = Σ deposits + new treasury (else INVALID_FIELD). Migrated outputs are booked
 * with the milestone ID as their "creating block" ID, as Hornet does.
 */
import { equalBytes, toHex0x } from '../bytes.ts';
import { reject } from '../errors.ts';
import { outputId as makeOutputId } from '../ids/output-id.ts';
import { OUTPUT_BASIC, UC_ADDRESS } from '../model/output.ts';
import type { ReceiptMilestoneOption } from '../model/payload.ts';
import type { TreasuryMutation } from './milestone-diff.ts';
import type { TreasuryState } from './treasury-record.ts';
import type { CreatedOutput } from './white-flag.ts';

export interface ReceiptMilestone {
  index: number;
  timestamp: number;
  milestoneId: Uint8Array;
}

export interface ReceiptEffects {
  outputs: CreatedOutput[];
  treasury: TreasuryMutation;
}

export function applyReceipt(
  receipt: ReceiptMilestoneOption,
  ms: ReceiptMilestone,
  current: TreasuryState | undefined,
): ReceiptEffects {
  const what = `Invalid receipt in milestone ${ms.index}`;
  if (current === undefined)
    reject('MISSING_FIELD', `${what}: the ledger has no treasury output to spend`, {
      field: 'payload.options.receipt.transaction.input',
    });
  const input = receipt.transaction.input.milestoneId;
  if (!equalBytes(input, current.milestoneId)) {
    reject(
      'INVALID_FIELD',
      `${what}: treasury input ${toHex0x(input)} is not the current treasury ${toHex0x(current.milestoneId)}`,
      {
        field: 'payload.options.receipt.transaction.input.milestoneId',
        value: toHex0x(input),
      },
    );
  }
  const migrated = receipt.funds.reduce((sum, f) => sum + f.deposit, 0n);
  const remaining = receipt.transaction.output.amount;
  if (migrated + remaining !== current.amount) {
    reject(
      'INVALID_FIELD',
      `${what}: migrated ${migrated} + new treasury ${remaining} differs from the treasury's ${current.amount}`,
      {
        field: 'payload.options.receipt.transaction.output.amount',
        value: String(remaining),
      },
    );
  }
  const outputs: CreatedOutput[] = receipt.funds.map((f, i) => ({
    outputId: makeOutputId(ms.milestoneId, i),
    // As Hornet: the milestone ID stands in as the "creating block" of migrated funds.
    blockId: ms.milestoneId,
    milestoneIndexBooked: ms.index,
    milestoneTimestampBooked: ms.timestamp,
    output: {
      type: OUTPUT_BASIC,
      amount: f.deposit,
      nativeTokens: [],
      unlockConditions: [{ type: UC_ADDRESS, address: f.address }],
      features: [],
    },
  }));
  return { outputs, treasury: { spent: current, created: { milestoneId: ms.milestoneId, amount: remaining } } };
}
