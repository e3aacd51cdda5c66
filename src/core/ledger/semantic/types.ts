/** Public shapes of semantic validation (the interface between the White-Flag walker and the validator). */
import type { CommonOutput } from '../../model/output.ts';
import type { ProtocolParameters } from '../../model/protocol.ts';
import type { ConflictReason } from '../conflict.ts';

/** A resolved input: the consumed output and its 34-byte output ID, in the essence's input order. */
export interface SemanticInput {
  outputId: Uint8Array;
  output: CommonOutput;
}

/** What the confirming milestone supplies: `milestoneTimestamp` is "now" for time locks and expirations. */
export interface SemanticContext {
  milestoneIndex: number;
  milestoneTimestamp: number;
  protocol: ProtocolParameters;
}

/** `reason` 0 (CONFLICT.none) means the transaction applies; otherwise `message` says which input/output and why. */
export interface SemanticResult {
  reason: ConflictReason;
  message?: string;
}
