/**
 * Step 5 (TIP-20 / TIP-18 base token rules, iota.go `TxSemanticDeposit`):
 * - Σ input amounts = Σ output amounts (conflict 4);
 * - Storage Deposit Return: per return address, the return amounts of inputs that address did not unlock itself must
 *   be covered by "simple transfer" basic outputs to it (only an Address UC, no native tokens, no features) (conflict
 * 8).
 */
import {
  OUTPUT_BASIC,
  UC_ADDRESS,
  UC_STORAGE_DEPOSIT_RETURN,
  type BasicOutput,
  type CommonOutput,
} from '../../model/output.ts';
import type { Address } from '../../model/address.ts';
import { CONFLICT } from '../conflict.ts';
import { addressKey, describeAddress } from './describe.ts';
import { findCondition } from './lookup.ts';
import { conflict, type StepResult } from './result.ts';
import type { WorkingSet } from './working-set.ts';

function isSimpleTransfer(o: CommonOutput): o is BasicOutput {
  return (
    o.type === OUTPUT_BASIC && o.features.length === 0 && o.unlockConditions.length === 1 && o.nativeTokens.length === 0
  );
}

interface ReturnDue {
  address: Address;
  amount: bigint;
}

export function checkDeposit(ws: WorkingSet): StepResult {
  let totalIn = 0n;
  const due = new Map<string, ReturnDue>();
  ws.inputs.forEach(({ output }, i) => {
    totalIn += output.amount;
    const sdr = findCondition(output, UC_STORAGE_DEPOSIT_RETURN);
    if (!sdr) return;
    const key = addressKey(sdr.returnAddress);
    // Returning to yourself is no obligation (e.g. the return address unlocked an expired output).
    if (ws.unlocked.unlockedBy(i, key)) return;
    const entry = due.get(key) ?? { address: sdr.returnAddress, amount: 0n };
    entry.amount += sdr.amount;
    due.set(key, entry);
  });

  let totalOut = 0n;
  const returned = new Map<string, bigint>();
  for (const output of ws.tx.essence.outputs) {
    totalOut += output.amount;
    if (!isSimpleTransfer(output)) continue;
    const target = findCondition(output, UC_ADDRESS);
    if (!target) continue;
    const key = addressKey(target.address);
    returned.set(key, (returned.get(key) ?? 0n) + output.amount);
  }

  if (totalIn !== totalOut) {
    return conflict(CONFLICT.amountMismatch, `inputs hold ${totalIn} base tokens but outputs ${totalOut}`);
  }
  for (const [key, { address, amount }] of due) {
    const paid = returned.get(key) ?? 0n;
    if (paid < amount) {
      return conflict(
        CONFLICT.returnAmountNotFulfilled,
        `storage deposit return of ${amount} to ${describeAddress(address)} ` +
          `is not fulfilled: simple transfers to it total ${paid}`,
      );
    }
  }
  return undefined;
}
