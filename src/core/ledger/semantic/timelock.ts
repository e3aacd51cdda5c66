/** Step 1 (TIP-18 Timelock): an input with a Timelock unlock condition needs `now >= unixTime` (conflict 6). */
import { UC_TIMELOCK } from '../../model/output.ts';
import { CONFLICT } from '../conflict.ts';
import { findCondition } from './lookup.ts';
import { conflict, type StepResult } from './result.ts';
import type { WorkingSet } from './working-set.ts';

export function checkTimelocks(ws: WorkingSet): StepResult {
  for (let i = 0; i < ws.inputs.length; i++) {
    const timelock = findCondition(ws.inputs[i]!.output, UC_TIMELOCK);
    if (timelock && ws.now < timelock.unixTime) {
      return conflict(
        CONFLICT.timelockNotExpired,
        `input ${i}: timelock until ${timelock.unixTime} has not expired at milestone timestamp ${ws.now}`,
      );
    }
  }
  return undefined;
}
