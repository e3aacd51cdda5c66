/**
 * The stake of the accounts of a v3 network as this node's ledger holds it (docs/decisions.md §38): an account's
 * validator stake, fixed cost and staking end epoch come from the Staking Feature of its unspent Account Output, its
 * delegated stake is the sum of the delegated amounts of the unspent Delegation Outputs that name it as validator and
 * are still delegating (a zero delegation ID: iota-core counts those in the pool and removes the stake when a
 * delegation output moves to delayed claiming).
 *
 * In this node's ledger, Account and Delegation Outputs exist only when the genesis holds them: transactions consume
 * and create Basic Outputs only (core/v3/ledger/semantic.ts), so these outputs never change. The committee is fixed by
 * the genesis (its seats), whatever their stake, which is why an account without a Staking Feature still holds its
 * seat, with a stake of 0: iota-core's account data for an account without one.
 */
import { chainIdFromOutputIdV3, type OutputV3, type StakingFeatureV3 } from '../../core/v3/index.ts';
import { genesisOutputIdsV3, type GenesisV3 } from './genesis-v3.ts';
import { key } from './network.ts';

/** An account's stake (all zero without a Staking Feature or delegations). */
export interface StakeV3 {
  validatorStake: bigint;
  /** Delegated amounts of the delegation outputs that delegate to the account. */
  delegationStake: bigint;
  fixedCost: bigint;
  /** The Staking Feature's end epoch (0 without one). */
  stakingEndEpoch: number;
}

export const NO_STAKE_V3: Readonly<StakeV3> = Object.freeze({
  validatorStake: 0n,
  delegationStake: 0n,
  fixedCost: 0n,
  stakingEndEpoch: 0,
});

/** What the stake reads need of the engine: the genesis and the ledger's view of an output. */
export interface StakeSourceV3 {
  genesis: GenesisV3;
  output(outputId: Uint8Array): { spent: boolean } | undefined;
}

const isZero = (b: Uint8Array): boolean => b.every((x) => x === 0);

/** The chain ID of a chain output: its own field, or (zero: created here) derived from its output ID. */
export function chainIdOf(id: Uint8Array, outputId: Uint8Array): Uint8Array {
  return isZero(id) ? chainIdFromOutputIdV3(outputId) : id;
}

/** The Staking Feature of an Account Output (undefined for other outputs and accounts without one). */
export function stakingFeatureOf(o: OutputV3): StakingFeatureV3 | undefined {
  if (o.type !== 1) return undefined;
  return o.features.find((f): f is StakingFeatureV3 => f.type === 7);
}

/** The stake of every account that has some, by account ID (network.ts `key`). */
export function stakesV3(source: StakeSourceV3): Map<string, StakeV3> {
  const out = new Map<string, StakeV3>();
  const entry = (accountId: Uint8Array): StakeV3 => {
    const k = key(accountId);
    const s = out.get(k) ?? { ...NO_STAKE_V3 };
    out.set(k, s);
    return s;
  };
  const ids = genesisOutputIdsV3(source.genesis);
  source.genesis.outputs.forEach((o, i) => {
    const outputId = ids[i]!;
    const held = source.output(outputId);
    if (held === undefined || held.spent) return;
    const staking = stakingFeatureOf(o);
    if (o.type === 1 && staking !== undefined) {
      const s = entry(chainIdOf(o.accountId, outputId));
      s.validatorStake += staking.stakedAmount;
      s.fixedCost = staking.fixedCost;
      s.stakingEndEpoch = staking.endEpoch;
    } else if (o.type === 5 && isZero(o.delegationId)) {
      entry(o.validatorAddress.accountId).delegationStake += o.delegatedAmount;
    }
  });
  return out;
}
