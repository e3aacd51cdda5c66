/** Step 4 (TIP-18 Sender feature): a Sender on any output must name an address unlocked by this tx (conflict 11). */
import { FEATURE_SENDER, OUTPUT_FOUNDRY } from '../../model/output.ts';
import { CONFLICT } from '../conflict.ts';
import { addressKey, describeAddress } from './describe.ts';
import { findFeature } from './lookup.ts';
import { conflict, type StepResult } from './result.ts';
import type { WorkingSet } from './working-set.ts';

export function checkSenders(ws: WorkingSet): StepResult {
  const outputs = ws.tx.essence.outputs;
  for (let j = 0; j < outputs.length; j++) {
    const output = outputs[j]!;
    if (output.type === OUTPUT_FOUNDRY) continue; // a foundry cannot carry a Sender feature
    const sender = findFeature(output.features, FEATURE_SENDER);
    if (sender && !ws.unlocked.has(addressKey(sender.address))) {
      return conflict(
        CONFLICT.senderNotUnlocked,
        `output ${j}: sender ${describeAddress(sender.address)} is not unlocked by this transaction`,
      );
    }
  }
  return undefined;
}
