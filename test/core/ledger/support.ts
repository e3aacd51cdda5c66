/** Models the ledger tests share. */
import type { MigratedFundsEntry, ReceiptMilestoneOption } from '../../../src/core/model/index.ts';

/** A receipt migrated at 7 (not final) paying out `funds` from the treasury of `treasuryMilestoneId`, 7 Mi left. */
export function migrationReceipt(funds: MigratedFundsEntry[], treasuryMilestoneId: Uint8Array): ReceiptMilestoneOption {
  return {
    type: 0,
    migratedAt: 7,
    final: false,
    funds,
    transaction: {
      type: 4,
      input: { type: 1, milestoneId: treasuryMilestoneId },
      output: { type: 2, amount: 7_000_000n },
    },
  };
}
