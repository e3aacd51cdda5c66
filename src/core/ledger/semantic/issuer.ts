/** TIP-18 Issuer feature: a newly created alias/NFT may only name an issuer that this transaction unlocked. */
import { FEATURE_ISSUER, type AliasOutput, type NftOutput } from '../../model/output.ts';
import { addressKey, describeAddress } from './describe.ts';
import { findFeature } from './lookup.ts';
import type { WorkingSet } from './working-set.ts';

export function issuerProblem(ws: WorkingSet, output: AliasOutput | NftOutput): string | undefined {
  const issuer = findFeature(output.immutableFeatures, FEATURE_ISSUER);
  if (!issuer || ws.unlocked.has(addressKey(issuer.address))) return undefined;
  return `issuer ${describeAddress(issuer.address)} is not unlocked by this transaction`;
}
