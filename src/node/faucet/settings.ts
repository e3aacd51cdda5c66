/**
 * The faucet's contract: its settings (inx-faucet's defaults and the amounts the configuration sets), its queue and
 * Retry-After limits, the ports it is built with (FaucetDeps) and the shapes of its answers. faucet.ts holds the
 * faucet itself and re-exports these.
 */
import type { Address, Block, ProtocolParameters } from '../../core/model/index.ts';
import type { Logger } from '../logger.ts';
import type { BlockMetadataView } from '../tangle/reads.ts';
import type { AddressFunds } from './funds.ts';

export interface FaucetSettings {
  /** What a request receives (inx-faucet `faucet.amount`). */
  amount: bigint;
  /** What an address already holding `amount` receives (`faucet.smallAmount`). */
  smallAmount: bigint;
  /** An address holding this much is refused (`faucet.maxAddressBalance`). */
  maxAddressBalance: bigint;
  /** How long requests are collected before a transaction pays them (`faucet.batchTimeout`). */
  batchTimeoutMs: number;
  /** Requests of one client (IP address, one IPv6 /64) waiting at once. */
  maxWaitingPerClient: number;
  /** Requests of a loopback client waiting at once (a developer on the node's machine, or every client of a proxy). */
  maxWaitingPerLoopbackClient: number;
}

/** inx-faucet v1.0's defaults (config_defaults.json); the per-client limits are this node's. */
export const FAUCET_DEFAULTS: Readonly<FaucetSettings> = Object.freeze({
  amount: 1_000_000_000n,
  smallAmount: 100_000_000n,
  maxAddressBalance: 2_000_000_000n,
  batchTimeoutMs: 2000,
  maxWaitingPerClient: 8,
  maxWaitingPerLoopbackClient: 128,
});

/** The amounts the configuration sets (`--faucet-amount`, `--faucet-small-amount`, `--faucet-max-address-balance`). */
export function faucetSettingsOf(c: {
  faucetAmount?: number;
  faucetSmallAmount?: number;
  faucetMaxAddressBalance?: number;
}): Partial<FaucetSettings> {
  const out: Partial<FaucetSettings> = {};
  if (c.faucetAmount !== undefined) out.amount = BigInt(c.faucetAmount);
  if (c.faucetSmallAmount !== undefined) out.smallAmount = BigInt(c.faucetSmallAmount);
  if (c.faucetMaxAddressBalance !== undefined) out.maxAddressBalance = BigInt(c.faucetMaxAddressBalance);
  return out;
}

/** inx-faucet's queue capacity. */
export const FAUCET_QUEUE_LIMIT = 5000;

/**
 * Retry-After of a refusal that a milestone or two may lift: a full queue, too many requests of the client, not synced.
 */
export const FAUCET_BUSY_RETRY_SECONDS = 10;
/** Retry-After of "not enough funds" (funds come back when a payout fails or someone refills the faucet). */
export const FAUCET_FUNDS_RETRY_SECONDS = 60;

/** What the faucet reads of a confirmed milestone. */
export interface ConfirmedLedgerChanges {
  verdicts: readonly { blockId: Uint8Array; ledgerInclusionState: string }[];
  consumed: readonly { outputId: Uint8Array }[];
}

export interface FaucetDeps {
  /** The dev wallet's Ed25519 seed. */
  seed: Uint8Array;
  protocol: () => ProtocolParameters;
  /** The base token's name (GET info `tokenName`). */
  tokenName: string;
  /** The basic outputs an address holds (funds.ts). */
  ledger: { funds(address: Address): Promise<AddressFunds> };
  /** Submits a block through the node's intake (parents and nonce filled there); resolves to its block ID. */
  submit: (block: Block, signal: AbortSignal) => Promise<Uint8Array>;
  /** A stored block's metadata (NOT_FOUND NodeError when the node does not hold it). */
  metadata: (blockId: Uint8Array) => Promise<BlockMetadataView>;
  /** Whether the node is synced (inx-faucet's node health). */
  synced: () => boolean;
  /** The error while the node is cut off from its network (status.ts `refusal`): requests are refused then. */
  refusal?: () => Promise<Error | undefined>;
  onConfirmed: (listener: (changes: ConfirmedLedgerChanges) => void) => void;
  logger: Logger;
}

export interface FaucetInfo {
  isHealthy: boolean;
  address: string;
  balance: bigint;
  tokenName: string;
  bech32Hrp: string;
}

export interface FaucetEnqueued {
  address: string;
  waitingRequests: number;
}
