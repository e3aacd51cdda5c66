/**
 * What a coordinator needs before it signs: both Merkle roots of a milestone with the given parents, computed by a dry
 * run of White-Flag against the ledger as it is now (cone walk + transaction application, nothing written).
 */
import { reject } from '../errors.ts';
import type { NodeStore } from '../store/node-store.ts';
import { StoreBlockSource } from './block-source.ts';
import { walkCone, type ConeBlockSource } from './cone.ts';
import { LedgerState } from './ledger-state.ts';
import { validateTransactionSemantics } from './semantic.ts';
import { applyWhiteFlag, type ConeVerdict } from './white-flag.ts';

export interface MilestoneRoots {
  inclusionMerkleRoot: Uint8Array;
  appliedMerkleRoot: Uint8Array;
  /** The cone's verdicts, in White-Flag order (for logs and tests). */
  verdicts: ConeVerdict[];
}

export async function computeMilestoneRoots(
  store: NodeStore,
  draft: { index: number; timestamp: number; parents: readonly Uint8Array[] },
  blocks?: ConeBlockSource,
): Promise<MilestoneRoots> {
  const ledger = new LedgerState(store);
  const protocol = await ledger.protocolParameters(draft.index);
  if (protocol === undefined)
    reject(
      'MISSING_FIELD',
      `Cannot compute the roots of milestone ${draft.index}: the ledger has no protocol parameters`,
      { field: 'protocolParameters' },
    );
  const cone = await walkCone(draft.parents, blocks ?? (await StoreBlockSource.open(store)), draft.index);
  const wf = await applyWhiteFlag(cone, ledger, {
    milestoneIndex: draft.index,
    milestoneTimestamp: draft.timestamp,
    protocol,
    validate: validateTransactionSemantics,
  });
  return {
    inclusionMerkleRoot: wf.inclusionMerkleRoot,
    appliedMerkleRoot: wf.appliedMerkleRoot,
    verdicts: wf.verdicts,
  };
}
