/**
 * The faucet's transaction, built with the node's own core: every input is a basic output of the faucet's Ed25519
 * address (one signature unlock, then references to it), one basic output per payout, then the change back to the
 * faucet's address, and inx-faucet's tagged-data payload inside the essence. `planPayouts` decides which requests one
 * transaction pays, so that the change is either nothing or at least the storage deposit of a basic output.
 */
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed, ed25519Sign } from '../../core/crypto/index.ts';
import {
  essenceHash,
  inputsCommitmentOf,
  networkIdFromName,
  parseOutputId,
  transactionIdOf,
} from '../../core/ids/index.ts';
import {
  LIMITS,
  type Address,
  type BasicOutput,
  type Ed25519Address,
  type ProtocolParameters,
  type TransactionPayload,
  type Unlock,
} from '../../core/model/index.ts';
import { minStorageDeposit } from '../../core/validation/index.ts';

/** inx-faucet's default tag of its transactions' tagged-data payload. */
export const FAUCET_TAG = 'HORNET FAUCET';

/** A spendable output of the faucet: a basic output with only an address unlock condition and no native tokens. */
export interface FaucetInput {
  outputId: Uint8Array;
  output: BasicOutput;
}

export interface Payout {
  address: Address;
  amount: bigint;
}

export interface FaucetKey {
  seed: Uint8Array;
  publicKey: Uint8Array;
  address: Ed25519Address;
}

export function faucetKey(seed: Uint8Array): FaucetKey {
  const publicKey = ed25519PublicKeyFromSeed(seed);
  return { seed, publicKey, address: ed25519AddressFromPublicKey(publicKey) };
}

export function basicOutput(address: Address, amount: bigint): BasicOutput {
  return { type: 3, amount, nativeTokens: [], unlockConditions: [{ type: 0, address }], features: [] };
}

/** The storage deposit of a basic output with one address unlock condition (every address serializes to 33 bytes). */
export function minBasicDeposit(params: ProtocolParameters, address: Address): bigint {
  return minStorageDeposit(basicOutput(address, 0n), params.rentStructure);
}

/** Most payouts one transaction carries: the outputs' limit less one for the change. */
export const MAX_PAYOUTS = LIMITS.outputs.max - 1;

export interface PayoutPlan<T> {
  /** The requests this transaction pays, in queue order. */
  paid: T[];
  /** Requests the funds cannot pay even alone (inx-faucet drops them). */
  unpayable: T[];
  /** Requests left for a later transaction. */
  later: T[];
  /** What goes back to the faucet: 0, or at least `minDeposit`. */
  change: bigint;
}

/**
 * Pays the requests in order while the funds last, at most MAX_PAYOUTS of them; a request is paid only when what is
 * left after it is nothing or at least `minDeposit` (a smaller change output would be invalid).
 */
export function planPayouts<T extends { amount: bigint }>(
  requests: readonly T[],
  funds: bigint,
  minDeposit: bigint,
  maxPayouts = MAX_PAYOUTS,
): PayoutPlan<T> {
  const plan: PayoutPlan<T> = { paid: [], unpayable: [], later: [], change: funds };
  for (const r of requests) {
    const rest = plan.change - r.amount;
    if (plan.paid.length >= maxPayouts) plan.later.push(r);
    else if (rest === 0n || rest >= minDeposit) {
      plan.paid.push(r);
      plan.change = rest;
    } else if (r.amount > funds || (funds - r.amount > 0n && funds - r.amount < minDeposit)) plan.unpayable.push(r);
    else plan.later.push(r);
  }
  return plan;
}

export interface BuiltTransaction {
  payload: TransactionPayload;
  transactionId: Uint8Array;
}

/** The signed transaction spending `inputs` (all of `key`'s address) into `payouts` and `change` (0 = none). */
export function buildFaucetTransaction(
  params: ProtocolParameters,
  key: FaucetKey,
  inputs: readonly FaucetInput[],
  payouts: readonly Payout[],
  change: bigint,
): BuiltTransaction {
  if (inputs.length === 0 || inputs.length > LIMITS.inputs.max)
    throw new RangeError(`a faucet transaction needs 1..${LIMITS.inputs.max} inputs, got ${inputs.length}`);
  const outputs = payouts.map((p) => basicOutput(p.address, p.amount));
  if (change > 0n) outputs.push(basicOutput(key.address, change));
  const essence = {
    type: 1 as const,
    networkId: networkIdFromName(params.networkName),
    inputs: inputs.map((i) => {
      const { transactionId, index } = parseOutputId(i.outputId);
      return { type: 0 as const, transactionId, transactionOutputIndex: index };
    }),
    inputsCommitment: inputsCommitmentOf(inputs.map((i) => i.output)),
    outputs,
    payload: { type: 5 as const, tag: new TextEncoder().encode(FAUCET_TAG), data: new Uint8Array(0) },
  };
  const signature = ed25519Sign(key.seed, essenceHash(essence));
  const unlocks: Unlock[] = inputs.map((_, i) =>
    i === 0 ? { type: 0, signature: { type: 0, publicKey: key.publicKey, signature } } : { type: 1, reference: 0 },
  );
  const payload: TransactionPayload = { type: 6, essence, unlocks };
  return { payload, transactionId: transactionIdOf(payload) };
}
