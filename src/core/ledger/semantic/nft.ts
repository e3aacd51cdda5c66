/** NFT chain transitions (TIP-18 "NFT Output"): immutable features never change; burning is always allowed. */
import type { NftOutput } from '../../model/output.ts';
import { featuresEqual } from './equality.ts';
import { issuerProblem } from './issuer.ts';
import type { WorkingSet } from './working-set.ts';

export function nftGenesisProblem(ws: WorkingSet, next: NftOutput): string | undefined {
  return issuerProblem(ws, next);
}

export function nftTransitionProblem(cur: NftOutput, next: NftOutput): string | undefined {
  return featuresEqual(cur.immutableFeatures, next.immutableFeatures) ? undefined : 'immutable features changed';
}
