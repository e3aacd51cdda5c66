/**
 * The answers of the v3 network and account reads (reads-network.ts) as TIP-48 JSON and as the bytes iota-core sends
 * for `application/vnd.iota.serializer-v2`: iota.go's api types (api/core.go `CommitteeResponse`,
 * `ValidatorsResponse`, `ValidatorResponse`, `CongestionResponse`, `ManaRewardsResponse`, `NetworkMetricsResponse`)
 * encoded by serix. JSON keys in the structs' order; u64 and i64 as decimal strings, u8 / u32 as numbers, the
 * float64 metrics as strings in Go's shortest `%g` form (`strconv.FormatFloat(f, 'g', -1, 64)`, serix's JSON of a
 * float). Bytes: the fields in the same order, little endian, no type prefix (the api types are not registered), a
 * bool one byte, a float64 its eight IEEE 754 bytes, a string its UTF-8 bytes behind a u8 length, a list its entries
 * behind the length prefix the struct tag names (uint8 for the committee, uint16 for validators); serix writes an
 * `omitempty` field in binary too (an absent cursor: the empty string).
 */
import { toHex0x } from '../../core/bytes.ts';
import { ByteWriter } from '../../core/codec/writer.ts';
import { accountAddressToBech32V3 } from '../../core/v3/ids/account-address.ts';
import type { NetworkMetricsV3 } from './network-metrics.ts';

export interface CommitteeMemberV3 {
  accountId: Uint8Array;
  poolStake: bigint;
  validatorStake: bigint;
  fixedCost: bigint;
}

export interface CommitteeV3 {
  committee: CommitteeMemberV3[];
  totalStake: bigint;
  totalValidatorStake: bigint;
  epoch: number;
}

export interface ValidatorV3 {
  accountId: Uint8Array;
  stakingEndEpoch: number;
  poolStake: bigint;
  validatorStake: bigint;
  fixedCost: bigint;
  active: boolean;
  latestSupportedProtocolVersion: number;
  /** 32 bytes. */
  latestSupportedProtocolHash: Uint8Array;
}

export interface ValidatorsPageV3 {
  validators: ValidatorV3[];
  pageSize: number;
  /** `<epoch>,<index>` of the next page; absent on the last page. */
  cursor?: string;
}

export interface CongestionV3 {
  slot: number;
  ready: boolean;
  referenceManaCost: bigint;
  /** A signed 64-bit value in iota.go (`BlockIssuanceCredits`). */
  blockIssuanceCredits: bigint;
}

export interface ManaRewardsV3 {
  startEpoch: number;
  endEpoch: number;
  rewards: bigint;
  latestCommittedEpochPoolRewards: bigint;
}

type Json = Record<string, unknown>;

/** Go's `strconv.FormatFloat(x, 'g', -1, 64)`: the shortest digits, in exponent form below 1e-4 and from 1e6. */
export function goFloatString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
  const exp = Number(exponent);
  // Go: %e when the exponent is below -4 or at least the precision, which is 6 for the shortest form (`eprec`)
  if (exp < -4 || exp >= 6) {
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mantissa}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  return String(x); // JavaScript writes fixed notation from 1e-7 to 1e21, with the same shortest digits
}

const bech32 = (hrp: string, accountId: Uint8Array): string => accountAddressToBech32V3(hrp, accountId);

function i64(w: ByteWriter, v: bigint): void {
  w.u64(BigInt.asUintN(64, v));
}

function f64(w: ByteWriter, v: number): void {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v, true);
  w.bytes(b);
}

/** A string behind its u8 byte length (serix `lenPrefix=uint8`). */
function str8(w: ByteWriter, s: string): void {
  const b = new TextEncoder().encode(s);
  if (b.length > 0xff) throw new RangeError(`a string of ${b.length} bytes does not fit a u8 length prefix`);
  w.u8(b.length).bytes(b);
}

export function committeeJsonV3(c: CommitteeV3, hrp: string): Json {
  return {
    committee: c.committee.map((m) => ({
      address: bech32(hrp, m.accountId),
      poolStake: m.poolStake.toString(),
      validatorStake: m.validatorStake.toString(),
      fixedCost: m.fixedCost.toString(),
    })),
    totalStake: c.totalStake.toString(),
    totalValidatorStake: c.totalValidatorStake.toString(),
    epoch: c.epoch,
  };
}

export function committeeBytesV3(c: CommitteeV3, hrp: string): Uint8Array {
  const w = new ByteWriter(64 + c.committee.length * 120);
  w.u8(c.committee.length);
  for (const m of c.committee) {
    str8(w, bech32(hrp, m.accountId));
    w.u64(m.poolStake).u64(m.validatorStake).u64(m.fixedCost);
  }
  return w.u64(c.totalStake).u64(c.totalValidatorStake).u32(c.epoch).finish();
}

export function validatorJsonV3(v: ValidatorV3, hrp: string): Json {
  return {
    address: bech32(hrp, v.accountId),
    stakingEndEpoch: v.stakingEndEpoch,
    poolStake: v.poolStake.toString(),
    validatorStake: v.validatorStake.toString(),
    fixedCost: v.fixedCost.toString(),
    active: v.active,
    latestSupportedProtocolVersion: v.latestSupportedProtocolVersion,
    latestSupportedProtocolHash: toHex0x(v.latestSupportedProtocolHash),
  };
}

function writeValidator(w: ByteWriter, v: ValidatorV3, hrp: string): void {
  str8(w, bech32(hrp, v.accountId));
  w.u32(v.stakingEndEpoch).u64(v.poolStake).u64(v.validatorStake).u64(v.fixedCost);
  w.u8(v.active ? 1 : 0)
    .u8(v.latestSupportedProtocolVersion)
    .bytes(v.latestSupportedProtocolHash);
}

export function validatorBytesV3(v: ValidatorV3, hrp: string): Uint8Array {
  const w = new ByteWriter(160);
  writeValidator(w, v, hrp);
  return w.finish();
}

export function validatorsJsonV3(p: ValidatorsPageV3, hrp: string): Json {
  const out: Json = { validators: p.validators.map((v) => validatorJsonV3(v, hrp)), pageSize: p.pageSize };
  if (p.cursor !== undefined) out['cursor'] = p.cursor;
  return out;
}

export function validatorsBytesV3(p: ValidatorsPageV3, hrp: string): Uint8Array {
  const w = new ByteWriter(32 + p.validators.length * 160);
  w.u16(p.validators.length);
  for (const v of p.validators) writeValidator(w, v, hrp);
  w.u32(p.pageSize);
  str8(w, p.cursor ?? '');
  return w.finish();
}

export function congestionJsonV3(c: CongestionV3): Json {
  return {
    slot: c.slot,
    ready: c.ready,
    referenceManaCost: c.referenceManaCost.toString(),
    blockIssuanceCredits: c.blockIssuanceCredits.toString(),
  };
}

export function congestionBytesV3(c: CongestionV3): Uint8Array {
  const w = new ByteWriter(21);
  w.u32(c.slot)
    .u8(c.ready ? 1 : 0)
    .u64(c.referenceManaCost);
  i64(w, c.blockIssuanceCredits);
  return w.finish();
}

export function manaRewardsJsonV3(r: ManaRewardsV3): Json {
  return {
    startEpoch: r.startEpoch,
    endEpoch: r.endEpoch,
    rewards: r.rewards.toString(),
    latestCommittedEpochPoolRewards: r.latestCommittedEpochPoolRewards.toString(),
  };
}

export function manaRewardsBytesV3(r: ManaRewardsV3): Uint8Array {
  return new ByteWriter(24)
    .u32(r.startEpoch)
    .u32(r.endEpoch)
    .u64(r.rewards)
    .u64(r.latestCommittedEpochPoolRewards)
    .finish();
}

export function networkMetricsJsonV3(m: NetworkMetricsV3): Json {
  return {
    blocksPerSecond: goFloatString(m.blocksPerSecond),
    confirmedBlocksPerSecond: goFloatString(m.confirmedBlocksPerSecond),
    confirmationRate: goFloatString(m.confirmationRate),
  };
}

export function networkMetricsBytesV3(m: NetworkMetricsV3): Uint8Array {
  const w = new ByteWriter(24);
  f64(w, m.blocksPerSecond);
  f64(w, m.confirmedBlocksPerSecond);
  f64(w, m.confirmationRate);
  return w.finish();
}
