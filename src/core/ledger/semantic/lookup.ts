/** Typed lookups of unlock conditions and features by type (each type occurs at most once, syntactically). */
import type { CommonOutput, Feature, UnlockCondition } from '../../model/output.ts';

export function findCondition<T extends UnlockCondition['type']>(
  output: CommonOutput,
  type: T,
): Extract<UnlockCondition, { type: T }> | undefined {
  return output.unlockConditions.find((c) => c.type === type) as Extract<UnlockCondition, { type: T }> | undefined;
}

export function findFeature<T extends Feature['type']>(
  features: Feature[],
  type: T,
): Extract<Feature, { type: T }> | undefined {
  return features.find((f) => f.type === type) as Extract<Feature, { type: T }> | undefined;
}
