/**
 * Step 6 (TIP-18 native tokens, iota.go `TxSemanticNativeTokens`), all conflict 7:
 * - amounts > 0 and per-ID sums within u256, on both sides;
 * - at most 64 distinct token IDs on the input side, and over inputs ∪ outputs;
 * - a token whose foundry is not on the output side may only be kept or burned: its output sum may not exceed its
 *   input sum, and it may not appear only on the output side.
 * The sums are stored in the working set for the foundry rules of step 7.
 */
import { toHex } from '../../bytes.ts';
import { LIMITS } from '../../model/limits.ts';
import type { CommonOutput } from '../../model/output.ts';
import { CONFLICT } from '../conflict.ts';
import { conflict, type StepResult } from './result.ts';
import type { SemanticResult } from './types.ts';
import type { WorkingSet } from './working-set.ts';

export const MAX_U256 = (1n << 256n) - 1n;

type Sums = Map<string, bigint>;

function sumTokens(outputs: CommonOutput[], side: 'input' | 'output'): Sums | SemanticResult {
  const sums: Sums = new Map();
  for (let i = 0; i < outputs.length; i++) {
    for (const token of outputs[i]!.nativeTokens) {
      const id = toHex(token.id);
      if (token.amount <= 0n) {
        return conflict(CONFLICT.invalidNativeTokens, `${side} ${i}: native token 0x${id} has amount ${token.amount}`);
      }
      const sum = (sums.get(id) ?? 0n) + token.amount;
      if (sum > MAX_U256) {
        return conflict(
          CONFLICT.invalidNativeTokens,
          `${side} ${i}: the ${side} sum of native token 0x${id} exceeds 2^256-1`,
        );
      }
      sums.set(id, sum);
    }
  }
  return sums;
}

export function checkNativeTokens(ws: WorkingSet): StepResult {
  const max = LIMITS.maxDistinctNativeTokens;
  const inSums = sumTokens(
    ws.inputs.map((i) => i.output),
    'input',
  );
  if (!(inSums instanceof Map)) return inSums;
  if (inSums.size > max) {
    return conflict(
      CONFLICT.invalidNativeTokens,
      `inputs carry ${inSums.size} distinct native tokens, more than ${max}`,
    );
  }
  const outSums = sumTokens(ws.tx.essence.outputs, 'output');
  if (!(outSums instanceof Map)) return outSums;
  const distinct = new Set([...inSums.keys(), ...outSums.keys()]);
  if (distinct.size > max) {
    return conflict(
      CONFLICT.invalidNativeTokens,
      `inputs and outputs carry ${distinct.size} distinct native tokens, more than ${max}`,
    );
  }
  ws.inTokens = inSums;
  ws.outTokens = outSums;

  // Token IDs are foundry IDs, and the chain key of a foundry is its ID in hex.
  for (const [id, inSum] of inSums) {
    if (ws.outChains.has(id)) continue;
    const outSum = outSums.get(id);
    if (outSum !== undefined && outSum > inSum) {
      return conflict(
        CONFLICT.invalidNativeTokens,
        `native token 0x${id}: outputs hold ${outSum} but inputs ` +
          `only ${inSum}, and its foundry is not transitioning to mint`,
      );
    }
  }
  for (const id of outSums.keys()) {
    if (ws.outChains.has(id)) continue;
    if (!inSums.has(id)) {
      return conflict(
        CONFLICT.invalidNativeTokens,
        `native token 0x${id} is new on the output side but its foundry is not transitioning`,
      );
    }
  }
  return undefined;
}
