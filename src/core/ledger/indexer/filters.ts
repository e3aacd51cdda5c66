/**
 * The filters of a checked query (params.ts) on an output's facts (facts.ts), with inx-indexer's semantics
 * (pkg/indexer/basic_output.go, alias.go, foundry.go, nft.go):
 *   - `unlockableByAddress`: the address is in any unlock condition: the Address, Storage Deposit Return or
 *     Expiration return address (basic, NFT), the state controller or governor (alias), the immutable alias
 *     (foundry: only the combined route, which includes foundries only for an alias address);
 *   - `expiresBefore/After`, `timelockedBefore/After`, `createdBefore/After`: strictly before / after the Unix time;
 *     an output without the condition matches neither;
 *   - `hasNativeTokens`: at least one native token (false: none); `min/maxNativeTokenCount` bound the count;
 *   - address filters compare the serialized address; `tag` compares the whole tag.
 * createdAt (the booking milestone's timestamp) and the cursor bound the scanned range (query.ts), not these checks.
 */
import { equalBytes } from '../../bytes.ts';
import type { OutputFacts } from './facts.ts';
import type { AddressParam, OutputQuery } from './params.ts';
import { FLAG, ROLE } from './tables.ts';

/** The role an address filter asks the address to have (`unlockableByAddress`: any role). */
export const ADDRESS_FILTER_ROLE: Readonly<Record<Exclude<AddressParam, 'sender' | 'issuer'>, number>> = Object.freeze({
  address: ROLE.address,
  unlockableByAddress: 0x3f,
  storageDepositReturnAddress: ROLE.storageDepositReturn,
  expirationReturnAddress: ROLE.expirationReturn,
  stateController: ROLE.stateController,
  governor: ROLE.governor,
  aliasAddress: ROLE.immutableAlias,
});

const same = (a: Uint8Array | undefined, b: Uint8Array): boolean => a !== undefined && equalBytes(a, b);

function unlockable(f: OutputFacts, x: Uint8Array): boolean {
  return (
    same(f.address, x) ||
    same(f.storageDepositReturnAddress, x) ||
    same(f.expirationReturnAddress, x) ||
    same(f.stateController, x) ||
    same(f.governor, x) ||
    same(f.immutableAlias, x)
  );
}

const before = (t: number | undefined, bound: number): boolean => t !== undefined && t < bound;
const after = (t: number | undefined, bound: number): boolean => t !== undefined && t > bound;

/** Whether the output's facts pass every filter of `q` (createdAt and the cursor are the scan's). */
export function matchesFacts(f: OutputFacts, q: OutputQuery): boolean {
  if (q.hasNativeTokens !== undefined && q.hasNativeTokens !== f.nativeTokenCount > 0) return false;
  if (q.minNativeTokenCount !== undefined && f.nativeTokenCount < q.minNativeTokenCount) return false;
  if (q.maxNativeTokenCount !== undefined && f.nativeTokenCount > q.maxNativeTokenCount) return false;
  if (q.unlockableByAddress !== undefined && !unlockable(f, q.unlockableByAddress)) return false;
  if (q.address !== undefined && !same(f.address, q.address)) return false;
  if (
    q.hasStorageDepositReturn !== undefined &&
    q.hasStorageDepositReturn !== (f.storageDepositReturnAddress !== undefined)
  )
    return false;
  if (
    q.storageDepositReturnAddress !== undefined &&
    !same(f.storageDepositReturnAddress, q.storageDepositReturnAddress)
  )
    return false;
  if (q.hasExpiration !== undefined && q.hasExpiration !== (f.expirationTime !== undefined)) return false;
  if (q.expirationReturnAddress !== undefined && !same(f.expirationReturnAddress, q.expirationReturnAddress))
    return false;
  if (q.expiresBefore !== undefined && !before(f.expirationTime, q.expiresBefore)) return false;
  if (q.expiresAfter !== undefined && !after(f.expirationTime, q.expiresAfter)) return false;
  if (q.hasTimelock !== undefined && q.hasTimelock !== (f.timelockTime !== undefined)) return false;
  if (q.timelockedBefore !== undefined && !before(f.timelockTime, q.timelockedBefore)) return false;
  if (q.timelockedAfter !== undefined && !after(f.timelockTime, q.timelockedAfter)) return false;
  if (q.stateController !== undefined && !same(f.stateController, q.stateController)) return false;
  if (q.governor !== undefined && !same(f.governor, q.governor)) return false;
  if (q.aliasAddress !== undefined && !same(f.immutableAlias, q.aliasAddress)) return false;
  if (q.sender !== undefined && !same(f.sender, q.sender)) return false;
  if (q.issuer !== undefined && !same(f.issuer, q.issuer)) return false;
  if (q.tag !== undefined && !same(f.tag, q.tag)) return false;
  return true;
}

/** Filters the scan itself settles: the range (createdAt, cursor) and the page size. */
const SCAN_PARAMS = new Set(['route', 'pageSize', 'cursor', 'createdBefore', 'createdAfter']);

/** The `has*` filters an address entry's flags settle (tables.ts FLAG). */
const FLAG_PARAMS: Readonly<Record<string, number>> = Object.freeze({
  hasNativeTokens: FLAG.nativeTokens,
  hasStorageDepositReturn: FLAG.storageDepositReturn,
  hasExpiration: FLAG.expiration,
  hasTimelock: FLAG.timelock,
});

/** The flag checks of `q` on an address entry: `(flags & mask) === value`. */
export function flagChecks(q: OutputQuery): { mask: number; value: number } {
  let mask = 0;
  let value = 0;
  for (const [name, flag] of Object.entries(FLAG_PARAMS)) {
    const wanted = (q as Record<string, unknown>)[name] as boolean | undefined;
    if (wanted === undefined) continue;
    mask |= flag;
    if (wanted) value |= flag;
  }
  return { mask, value };
}

/**
 * Whether some filter of `q` needs the output itself: the scan settles createdAt and the cursor, and the entries of the
 * `scanned` address settle every address filter naming that address (their roles: roleChecks) and the `has*` filters
 * (their flags: flagChecks); anything else is checked on the decoded output.
 */
export function needsOutput(q: OutputQuery, scanned: Uint8Array | undefined): boolean {
  for (const [name, value] of Object.entries(q)) {
    if (value === undefined || SCAN_PARAMS.has(name)) continue;
    if (scanned !== undefined && name in FLAG_PARAMS) continue;
    if (scanned !== undefined && name in ADDRESS_FILTER_ROLE && equalBytes(value as Uint8Array, scanned)) continue;
    return true;
  }
  return false;
}

/** The role checks on entries of the scanned address: every bit of `required`, and one of `any` when set. */
export function roleChecks(q: OutputQuery, scanned: Uint8Array): { required: number; any: number } {
  let required = 0;
  let any = 0;
  for (const [name, role] of Object.entries(ADDRESS_FILTER_ROLE)) {
    const value = (q as Record<string, unknown>)[name] as Uint8Array | undefined;
    if (value === undefined || !equalBytes(value, scanned)) continue;
    if (name === 'unlockableByAddress') any = role;
    else required |= role;
  }
  return { required, any };
}
