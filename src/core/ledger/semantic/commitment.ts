/** Step 2 (TIP-20): the essence's inputs commitment must equal the hash over the consumed outputs (conflict 10). */
import { equalBytes, toHex0x } from '../../bytes.ts';
import { inputsCommitmentOf } from '../../ids/of-model.ts';
import { CONFLICT } from '../conflict.ts';
import { conflict, type StepResult } from './result.ts';
import type { WorkingSet } from './working-set.ts';

export function checkInputsCommitment(ws: WorkingSet): StepResult {
  const actual = inputsCommitmentOf(ws.inputs.map((i) => i.output));
  const declared = ws.tx.essence.inputsCommitment;
  if (equalBytes(actual, declared)) return undefined;
  return conflict(
    CONFLICT.invalidInputsCommitment,
    `inputs commitment ${toHex0x(declared)} does not match the consumed outputs (${toHex0x(actual)})`,
  );
}
