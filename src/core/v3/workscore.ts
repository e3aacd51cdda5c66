/**
 * Work score (docs/protocol.md §V8): basic block = `block` + payload score; validation block = 0.
 * Tagged data / candidacy: dataByte × payload size (incl. type byte). Signed transaction: dataByte × size of the
 * whole payload + contextInput/input/allotment per item + per output (output, nativeToken with a Native Token Feature
 * or for a foundry, staking with a Staking Feature, blockIssuer with a Block Issuer Feature) + signatureEd25519 per
 * Ed25519 signature in signature unlocks (also inside multi unlocks).
 */
import type { BlockV3 } from './model/block.ts';
import type { OutputV3, FeatureV3 } from './model/output.ts';
import type { WorkScoreParametersV3 } from './model/params.ts';
import type { BlockPayloadV3, UnlockV3 } from './model/transaction.ts';
import { encodePayloadV3 } from './codec/index.ts';

export function outputWorkScoreV3(o: OutputV3, w: WorkScoreParametersV3): number {
  let score = w.output;
  const features: FeatureV3[] = 'features' in o ? o.features : [];
  if (o.type === 3 || features.some((f) => f.type === 5)) score += w.nativeToken;
  if (features.some((f) => f.type === 7)) score += w.staking;
  if (features.some((f) => f.type === 6)) score += w.blockIssuer;
  return score;
}

function unlockWorkScore(u: UnlockV3, w: WorkScoreParametersV3): number {
  if (u.type === 0) return w.signatureEd25519;
  if (u.type === 5) return u.unlocks.reduce((s, x) => s + unlockWorkScore(x, w), 0);
  return 0;
}

export function payloadWorkScoreV3(p: BlockPayloadV3, w: WorkScoreParametersV3): number {
  const size = encodePayloadV3(p).length;
  let score = w.dataByte * size;
  if (p.type === 1) {
    const tx = p.transaction;
    score += w.contextInput * tx.contextInputs.length + w.input * tx.inputs.length + w.allotment * tx.allotments.length;
    for (const o of tx.outputs) score += outputWorkScoreV3(o, w);
    for (const u of p.unlocks) score += unlockWorkScore(u, w);
  }
  return score;
}

/** Work score of a block. */
export function workScore(block: BlockV3, w: WorkScoreParametersV3): number {
  const body = block.body;
  if (body.type !== 0) return 0;
  return w.block + (body.payload ? payloadWorkScoreV3(body.payload, w) : 0);
}

/** Mana a block burns at a reference Mana cost: work score × RMC. */
export function manaCostV3(block: BlockV3, w: WorkScoreParametersV3, referenceManaCost: bigint): bigint {
  return BigInt(workScore(block, w)) * referenceManaCost;
}
