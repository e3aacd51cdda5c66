/** Building conflict results; a step returns `undefined` when its rule holds. */
import { CONFLICT, type ConflictReason } from '../conflict.ts';
import type { SemanticResult } from './types.ts';

export type StepResult = SemanticResult | undefined;

export function conflict(reason: ConflictReason, message: string): SemanticResult {
  return { reason, message };
}

export const APPLIES: SemanticResult = Object.freeze({ reason: CONFLICT.none });
