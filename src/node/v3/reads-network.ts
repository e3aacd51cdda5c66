/**
 * The network and account reads of TIP-48 (docs/decisions.md §38), from this node's own data, each as iota-core's
 * request handler answers it (pkg/requesthandler/accounts.go, components/restapi/core):
 *
 *   committee   the seats of the genesis (the committee is fixed: the same for every epoch up to the current one), with
 *               their stake (stakes.ts), by pool stake (highest first), then bech32 address;
 *   validators  the same seats, as registered validators: stake, `active` (the seat's latest attestation, its latest
 *               accepted validation block in a committed slot, is in the epoch of the latest commitment), the protocol
 *               version and parameters hash that block signalled; paged by iota-core's cursor `<epoch>,<index>`;
 *   validator   one known account (a seat or another block issuer of the genesis) as the list shows a validator;
 *   congestion  a known account: the latest (or named) commitment's slot and reference Mana cost, `ready` (the node
 *               takes a basic block now: dag.ts is not `full`), and as block issuance credits the Mana allotted to it
 *               (the node debits no burn, so that is what it credits the account with);
 *   rewards     for an Account Output with a Staking Feature or a Delegation Output, the epoch range iota-core answers
 *               for a pool without rewards, and 0: this node computes no reward pools (no performance factors, a
 *               zero rewards root) and its ledger refuses Reward inputs, so nothing can be claimed;
 *   metrics     network-metrics.ts, measured whenever slots are committed.
 *
 * Every read runs in the engine's queue (`engine.read`): it sees whole changes and the commitments of now.
 */
import { toHex0x } from '../../core/bytes.ts';
import { decodeBlockV3, epochFromSlot, slotFromTime, slotOfId } from '../../core/v3/index.ts';
import { accountAddressToBech32V3 } from '../../core/v3/ids/account-address.ts';
import { NodeError } from '../support/errors.ts';
import type { V3Engine } from './engine.ts';
import type { GenesisAccountV3 } from './genesis-v3.ts';
import { key } from './network.ts';
import type {
  CommitteeMemberV3,
  CommitteeV3,
  CongestionV3,
  ManaRewardsV3,
  ValidatorsPageV3,
  ValidatorV3,
} from './network-answers.ts';
import { V3NetworkMeter, type NetworkMetricsV3 } from './network-metrics.ts';
import { NO_STAKE_V3, stakesV3, stakingFeatureOf, type StakeV3 } from './stakes.ts';

/** Validators a page holds at most, and when no page size is given (iota-core's `restAPI.maxPageSize` default). */
export const VALIDATORS_MAX_PAGE_SIZE = 100;

const U32_MAX = 0xffffffff;
const ZERO_HASH = new Uint8Array(32);

const invalid = (message: string): NodeError => new NodeError('INVALID_REQUEST', message);

/** `<epoch>,<index>`: two decimal u32 numbers, as iota-core writes and reads the validators cursor. */
export function parseValidatorsCursor(cursor: string): { epoch: number; index: number } {
  const parts = cursor.split(',');
  const numbers = parts.map((p) => (/^[0-9]{1,10}$/.test(p) ? Number(p) : Number.NaN));
  if (numbers.length !== 2 || numbers.some((n) => !(n <= U32_MAX)))
    throw invalid(`invalid cursor: ${cursor.slice(0, 80)}, expected "<epoch>,<index>" as a previous answer's cursor`);
  return { epoch: numbers[0]!, index: numbers[1]! };
}

/** Orders by pool stake, highest first, then by bech32 address, as iota-core sorts the committee and validators. */
function byStakeThenAddress<T extends { poolStake: bigint; address: string }>(a: T, b: T): number {
  if (a.poolStake !== b.poolStake) return a.poolStake > b.poolStake ? -1 : 1;
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

export class V3NetworkReads {
  readonly meter: V3NetworkMeter;

  constructor(private readonly engine: V3Engine) {
    this.meter = new V3NetworkMeter(() => engine.dag.counts, engine.now);
    engine.commitments.onCommitted(() => this.meter.measure());
  }

  private get hrp(): string {
    return this.engine.params.bech32Hrp;
  }

  private stakes(): Map<string, StakeV3> {
    const e = this.engine;
    return stakesV3({ genesis: e.genesis, output: (id) => e.ledger.output(id) });
  }

  /** The epoch of the clock's slot (iota-core's `CurrentEpoch`). */
  private clockEpoch(): number {
    const e = this.engine;
    return epochFromSlot(slotFromTime(BigInt(e.now()) * 1_000_000n, e.params), e.params);
  }

  /** The epoch of the latest commitment. */
  private committedEpoch(): number {
    return epochFromSlot(this.engine.commitments.latestSlot, this.engine.params);
  }

  /** `/committee?epoch=`: INVALID_REQUEST for an epoch after the current one. */
  committee(epoch?: number): Promise<CommitteeV3> {
    const e = this.engine;
    return e.read(() => {
      const current = this.clockEpoch();
      const asked = epoch ?? current;
      if (asked > current) throw invalid(`epoch ${asked} is in the future: the current epoch is ${current}`);
      const stakes = this.stakes();
      const members = e.seats.map((s) => {
        const st = stakes.get(key(s.accountId)) ?? NO_STAKE_V3;
        const member: CommitteeMemberV3 = {
          accountId: s.accountId,
          poolStake: st.validatorStake + st.delegationStake,
          validatorStake: st.validatorStake,
          fixedCost: st.fixedCost,
        };
        return { ...member, address: accountAddressToBech32V3(this.hrp, s.accountId) };
      });
      members.sort(byStakeThenAddress);
      let totalStake = 0n;
      let totalValidatorStake = 0n;
      for (const m of members) {
        totalStake += m.poolStake;
        totalValidatorStake += m.validatorStake;
      }
      const committee = members.map(({ address: _, ...m }) => m);
      return { committee, totalStake, totalValidatorStake, epoch: asked };
    });
  }

  /** A known account of the genesis (NOT_FOUND otherwise). */
  private account(accountId: Uint8Array): GenesisAccountV3 {
    const k = key(accountId);
    const a = this.engine.genesis.accounts.find((x) => key(x.accountId) === k);
    if (a === undefined) throw new NodeError('NOT_FOUND', `account ${toHex0x(accountId)} not found`);
    return a;
  }

  /** The protocol version and parameters hash a validation block signalled (undefined when the block is gone). */
  private async signal(blockId: Uint8Array): Promise<{ version: number; hash: Uint8Array } | undefined> {
    const e = this.engine;
    const raw = await e.store.getBlock(blockId);
    if (raw === undefined) return undefined;
    const body = decodeBlockV3(raw, e.params).body;
    return body.type === 1 ? { version: body.highestSupportedVersion, hash: body.protocolParametersHash } : undefined;
  }

  private async validatorOf(a: GenesisAccountV3, stakes: Map<string, StakeV3>, epoch: number): Promise<ValidatorV3> {
    const e = this.engine;
    const st = stakes.get(key(a.accountId)) ?? NO_STAKE_V3;
    const seat = e.seats.indexOf(a);
    const attestation = seat < 0 ? undefined : e.commitments.attestation(seat);
    const signal = attestation && (await this.signal(attestation.blockId));
    return {
      accountId: a.accountId,
      stakingEndEpoch: st.stakingEndEpoch,
      poolStake: st.validatorStake + st.delegationStake,
      validatorStake: st.validatorStake,
      fixedCost: st.fixedCost,
      active: attestation !== undefined && epochFromSlot(slotOfId(attestation.blockId), e.params) === epoch,
      latestSupportedProtocolVersion: signal?.version ?? 0,
      latestSupportedProtocolHash: signal?.hash ?? ZERO_HASH,
    };
  }

  /** `/validators/{address}`: NOT_FOUND for an account the genesis does not know. */
  validator(accountId: Uint8Array): Promise<ValidatorV3> {
    return this.engine.read(() => this.validatorOf(this.account(accountId), this.stakes(), this.committedEpoch()));
  }

  /**
   * `/validators?pageSize=&cursor=`: `pageSize` 0 is the maximum; INVALID_REQUEST for a larger one, a malformed
   * cursor, one of an epoch after the latest commitment's or one past the list.
   */
  validators(pageSize: number, cursor: string): Promise<ValidatorsPageV3> {
    const e = this.engine;
    return e.read(async () => {
      const size = pageSize === 0 ? VALIDATORS_MAX_PAGE_SIZE : pageSize;
      if (size > VALIDATORS_MAX_PAGE_SIZE)
        throw invalid(`invalid pageSize: ${pageSize}, at most ${VALIDATORS_MAX_PAGE_SIZE}`);
      const current = this.committedEpoch();
      const { epoch, index } = cursor === '' ? { epoch: current, index: 0 } : parseValidatorsCursor(cursor);
      if (epoch > current)
        throw invalid(`invalid cursor: ${cursor}, its epoch ${epoch} is after the current epoch ${current}`);
      const stakes = this.stakes();
      const all: (ValidatorV3 & { address: string })[] = [];
      for (const s of e.seats) {
        const v = await this.validatorOf(s, stakes, current);
        all.push({ ...v, address: accountAddressToBech32V3(this.hrp, s.accountId) });
      }
      all.sort(byStakeThenAddress);
      if (index >= all.length)
        throw invalid(`invalid cursor: ${cursor}, index ${index} is past the ${all.length} validators`);
      const validators = all.slice(index, index + size).map(({ address: _, ...v }) => v);
      const page: ValidatorsPageV3 = { validators, pageSize: size };
      if (index + size < all.length) page.cursor = `${epoch},${index + size}`;
      return page;
    });
  }

  /** `/accounts/{address}/congestion`: NOT_FOUND for an unknown account or a commitment this node did not make. */
  congestion(accountId: Uint8Array, commitmentId?: Uint8Array): Promise<CongestionV3> {
    const e = this.engine;
    return e.read(async () => {
      const c = commitmentId === undefined ? e.latestCommitment : await e.commitment(commitmentId);
      if (c === undefined) throw new NodeError('NOT_FOUND', `commitment not found: ${toHex0x(commitmentId!)}`);
      this.account(accountId);
      return {
        slot: c.commitment.slot,
        ready: !e.dag.full,
        referenceManaCost: c.commitment.referenceManaCost,
        blockIssuanceCredits: e.ledger.allottedMana(accountId),
      };
    });
  }

  /**
   * `/rewards/{outputId}?slot=`: NOT_FOUND for an output the ledger does not hold; INVALID_REQUEST for one that is
   * neither an Account Output with a Staking Feature nor a Delegation Output.
   */
  rewards(outputId: Uint8Array, slot?: number): Promise<ManaRewardsV3> {
    const e = this.engine;
    return e.read(() => {
      const p = e.params;
      if (slot !== undefined && slot < p.genesisSlot)
        throw invalid(`slot ${slot} is before the genesis slot ${p.genesisSlot}`);
      const held = e.ledger.output(outputId);
      if (held === undefined) throw e.notFound(`output not found: ${toHex0x(outputId)}`, outputId.subarray(0, 36));
      const claimingEpoch = epochFromSlot((slot ?? e.commitments.latestSlot) + p.minCommittableAge, p);
      // the latest epoch whose last slot is committed (iota-core's latest applied epoch; 0 before the first)
      const applied = Math.max(0, epochFromSlot(e.commitments.latestSlot + 1, p) - 1);
      const retained = claimingEpoch > p.rewardsParameters.retentionPeriod;
      const earliest = retained ? claimingEpoch - p.rewardsParameters.retentionPeriod : 0;
      const o = held.output;
      let first: number;
      let last: number;
      if (o.type === 1) {
        const staking = stakingFeatureOf(o);
        if (staking === undefined)
          throw invalid(`output ${toHex0x(outputId)} is an account without a staking feature: not a validator`);
        // a validator's rewards start the epoch after its start epoch, but for 0 (the network's first validators)
        first = Math.max(staking.startEpoch === 0 ? 0 : staking.startEpoch + 1, earliest);
        last = Math.min(staking.endEpoch, applied);
        // no epoch has rewards: iota-core moves the start up to the last epoch
        if (first < last) first = last;
      } else if (o.type === 5) {
        // delegating (zero delegation ID): rewards up to the epoch before the claiming one (u32 arithmetic)
        const delegating = o.delegationId.every((x) => x === 0);
        const end = delegating ? (claimingEpoch + U32_MAX) % (U32_MAX + 1) : o.endEpoch;
        first = Math.max(o.startEpoch, earliest);
        last = Math.min(end, applied);
        // no epoch has rewards: iota-core moves the start past every epoch of the range
        if (first <= last) first = last + 1;
      } else {
        throw invalid(`output ${toHex0x(outputId)} is neither a delegation output nor an account`);
      }
      return { startEpoch: first, endEpoch: last, rewards: 0n, latestCommittedEpochPoolRewards: 0n };
    });
  }

  /** `/network/metrics`: the figures of the latest measurement. */
  metrics(): Promise<NetworkMetricsV3> {
    return this.engine.read(() => this.meter.current);
  }
}
