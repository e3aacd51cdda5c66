/**
 * The dev network's faucet, inx-faucet's rules (pkg/faucet/faucet.go, v1.0) inside the node: a wallet developer
 * enqueues a bech32 address and the faucet pays it a fixed amount from the genesis' dev wallet.
 *
 *   * Enqueue: the address must be bech32 of this network; one waiting request per address (queued, or in the
 *     transaction not yet confirmed); an address holding `amount` or more gets `smallAmount`, one holding
 *     `maxAddressBalance` or more is refused; a request the faucet's balance cannot pay is refused. The answers and
 *     their messages are inx-faucet's. Not inx-faucet's: at most `maxWaitingPerClient` requests of one client (IP
 *     address, clients.ts) wait at once (TOO_MANY_REQUESTS, the gateway's 429), and the refusals that pass with time
 *     (not synced, not enough funds, queue full) are UNAVAILABLE with a Retry-After hint (503) where inx-faucet
 *     answers 500 (docs/decisions.md §26).
 *   * Rounds: `batchTimeoutMs` after a request arrives (at once when a full transaction waits), one transaction pays
 *     the queued requests in order (at most 127 outputs and the change back to the faucet's address; every spendable
 *     output of the faucet, up to 128, is an input). The node's intake fills parents and does the proof of work.
 *   * One transaction at a time: the next round waits until a milestone decides the previous one. Included: its
 *     requests are done. Conflicting, its inputs spent by another transaction, unknown, or below max depth: its
 *     requests go back to the front of the queue and the next round reads the faucet's outputs anew.
 *   * Balance (GET info): the faucet address's spendable funds less every waiting request, recomputed after each
 *     milestone (inx-faucet's `faucetBalance`).
 */
import { equalBytes, toHex, toHex0x } from '../../core/bytes.ts';
import { bech32DecodeAddress, bech32EncodeAddress } from '../../core/ids/index.ts';
import { LIMITS, type Address, type Block, type ProtocolParameters } from '../../core/model/index.ts';
import { ConfigError } from '../config-error.ts';
import { NodeError } from '../support/errors.ts';
import type { Logger } from '../logger.ts';
import type { BlockMetadataView } from '../tangle/reads.ts';
import { faucetClientOf, WaitingPerClient, type FaucetClient } from './clients.ts';
import type { AddressFunds } from './funds.ts';
import {
  buildFaucetTransaction,
  faucetKey,
  MAX_PAYOUTS,
  minBasicDeposit,
  planPayouts,
  type FaucetKey,
} from './transaction.ts';

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

interface Request {
  /** The canonical (lower-case) bech32 text: the key of `waiting`. */
  key: string;
  address: Address;
  amount: bigint;
  /** Who asked (undefined: not counted per client). */
  client: FaucetClient | undefined;
}

interface PendingTransaction {
  blockId: Uint8Array;
  transactionId: Uint8Array;
  /** Hex of the consumed output IDs. */
  inputs: Set<string>;
  requests: Request[];
}

type Outcome = 'included' | 'failed' | 'undecided';

const invalid = (message: string): NodeError => new NodeError('INVALID_REQUEST', message);
/** inx-faucet answers these with 500 (echo.ErrInternalServerError); here 503 with a Retry-After hint. */
const refused = (
  message: string,
  retryAfterSeconds: number,
  code: 'UNAVAILABLE' | 'NODE_NOT_SYNCED' = 'UNAVAILABLE',
): NodeError => new NodeError(code, message, { retryAfterSeconds });

export class Faucet {
  private readonly key: FaucetKey;
  readonly settings: Readonly<FaucetSettings>;
  private readonly queue: Request[] = [];
  private readonly waiting = new Map<string, Request>();
  private readonly perClient = new WaitingPerClient();
  private balance = 0n;
  private pending: PendingTransaction | undefined;
  private round: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private settling: Promise<void> = Promise.resolve();
  private ready: Promise<void> | undefined;
  private closed = false;
  private readonly lifetime = new AbortController();

  constructor(
    private readonly deps: FaucetDeps,
    settings: Partial<FaucetSettings> = {},
  ) {
    this.key = faucetKey(deps.seed);
    this.settings = { ...FAUCET_DEFAULTS, ...settings };
    const min = minBasicDeposit(deps.protocol(), this.key.address);
    for (const [name, flag] of [
      ['amount', '--faucet-amount'],
      ['smallAmount', '--faucet-small-amount'],
    ] as const) {
      if (this.settings[name] < min)
        throw new ConfigError(
          `${flag} ${this.settings[name]} is below the storage deposit of a basic output on this network (${min})`,
        );
    }
    deps.onConfirmed((changes) => {
      if (this.closed) return;
      this.settling = this.settling
        .then(() => this.settle(changes))
        .catch((e: unknown) => deps.logger.error('faucet: settling a milestone failed', e));
    });
  }

  /** The faucet's bech32 address. */
  get address(): string {
    return bech32EncodeAddress(this.deps.protocol().bech32Hrp, this.key.address);
  }

  /** Reads the faucet's balance; requests wait for it. */
  start(): Promise<void> {
    this.ready ??= this.refreshBalance();
    return this.ready;
  }

  /** Stops the rounds and aborts a submission in flight. */
  async stop(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.lifetime.abort(new Error('the faucet is stopping'));
    await this.idle();
  }

  async info(): Promise<FaucetInfo> {
    await this.start();
    const hrp = this.deps.protocol().bech32Hrp;
    return {
      isHealthy: this.deps.synced(),
      address: this.address,
      balance: this.balance,
      tokenName: this.deps.tokenName,
      bech32Hrp: hrp,
    };
  }

  /**
   * Queues a payout to `bech32` (inx-faucet's Enqueue, with its checks and messages). `client`: the IP address the
   * request came from ('' or absent: not counted per client).
   */
  async enqueue(bech32: string, client = ''): Promise<FaucetEnqueued> {
    const address = this.parse(bech32);
    const key = bech32EncodeAddress(this.deps.protocol().bech32Hrp, address);
    if (!this.deps.synced())
      throw refused(
        'Faucet node is not synchronized/healthy. Please try again later!',
        FAUCET_BUSY_RETRY_SECONDS,
        'NODE_NOT_SYNCED',
      );
    await this.start();
    if (this.waiting.has(key)) throw invalid('Address is already in the queue.');
    const who = faucetClientOf(client, {
      perClient: this.settings.maxWaitingPerClient,
      perLoopbackClient: this.settings.maxWaitingPerLoopbackClient,
    });
    this.checkClient(who);
    const { balance } = await this.deps.ledger.funds(address);
    let amount = this.settings.amount;
    if (balance >= this.settings.amount) {
      amount = this.settings.smallAmount;
      if (balance >= this.settings.maxAddressBalance) throw invalid('You already have enough funds on your address.');
    }
    if (this.waiting.has(key)) throw invalid('Address is already in the queue.'); // enqueued while its funds were read
    this.checkClient(who); // the client's other requests may have been enqueued meanwhile too
    if (amount > this.balance)
      throw refused(
        'Faucet does not have enough funds to process your request. Please try again later!',
        FAUCET_FUNDS_RETRY_SECONDS,
      );
    if (this.closed || this.queue.length >= FAUCET_QUEUE_LIMIT)
      throw refused('Faucet queue is full. Please try again later!', FAUCET_BUSY_RETRY_SECONDS);
    const request: Request = { key, address, amount, client: who };
    this.queue.push(request);
    this.waiting.set(key, request);
    this.perClient.add(who);
    this.balance -= amount;
    this.schedule();
    return { address: bech32, waitingRequests: this.waiting.size };
  }

  /** Pays what is queued now instead of after the batch timeout (inx-faucet's FlushRequests); resolves when sent. */
  async flush(): Promise<void> {
    await this.settling;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.round === undefined) this.startRound();
    await this.round;
  }

  /** Resolves when no round runs and every confirmed milestone has been settled. */
  async idle(): Promise<void> {
    await this.round;
    await this.settling;
  }

  /** Waiting requests (queued or in the unconfirmed transaction), the queued ones, and the unconfirmed transaction. */
  get state(): { waiting: number; queued: number; pending?: { blockId: Uint8Array; transactionId: Uint8Array } } {
    const p = this.pending;
    return {
      waiting: this.waiting.size,
      queued: this.queue.length,
      ...(p ? { pending: { blockId: p.blockId, transactionId: p.transactionId } } : {}),
    };
  }

  private checkClient(who: FaucetClient | undefined): void {
    if (this.perClient.allows(who)) return;
    throw new NodeError(
      'TOO_MANY_REQUESTS',
      `Too many requests from your IP address are waiting (at most ${who!.limit}). Please try again later!`,
      {
        retryAfterSeconds: FAUCET_BUSY_RETRY_SECONDS,
      },
    );
  }

  /** A request is done (paid, or dropped): its address and its client may ask again. */
  private release(r: Request): void {
    this.waiting.delete(r.key);
    this.perClient.remove(r.client);
  }

  private parse(text: string): Address {
    const hrp = this.deps.protocol().bech32Hrp;
    let decoded: ReturnType<typeof bech32DecodeAddress>;
    try {
      decoded = bech32DecodeAddress(text);
    } catch {
      throw invalid('Invalid bech32 address provided!');
    }
    if (decoded.hrp !== hrp) throw invalid(`Invalid bech32 address provided! Address does not start with "${hrp}".`);
    return decoded.address;
  }

  private schedule(): void {
    if (
      this.closed ||
      this.pending !== undefined ||
      this.round !== undefined ||
      this.timer !== undefined ||
      this.queue.length === 0
    )
      return;
    const delay = this.queue.length >= MAX_PAYOUTS ? 0 : this.settings.batchTimeoutMs;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.startRound();
    }, delay);
  }

  private startRound(): void {
    this.round = this.pay()
      .catch((e: unknown) => this.deps.logger.error('faucet: a payout round failed', e))
      .finally(() => {
        this.round = undefined;
        this.schedule();
      });
  }

  /** One round: the queued requests the faucet's outputs can pay, in one transaction. */
  private async pay(): Promise<void> {
    if (this.closed || this.pending !== undefined || this.queue.length === 0) return;
    const params = this.deps.protocol();
    const inputs = (await this.deps.ledger.funds(this.key.address)).spendable
      .sort((a, b) => (a.output.amount > b.output.amount ? -1 : a.output.amount < b.output.amount ? 1 : 0))
      .slice(0, LIMITS.inputs.max);
    const funds = inputs.reduce((s, i) => s + i.output.amount, 0n);
    const batch = this.queue.splice(0, MAX_PAYOUTS);
    const plan = planPayouts(batch, funds, minBasicDeposit(params, this.key.address));
    for (const r of plan.unpayable) {
      // inx-faucet drops a request its funds cannot pay; the address may ask again.
      this.release(r);
      this.balance += r.amount;
      this.deps.logger.warn(
        `faucet: dropped the request of ${r.key}: ${r.amount} is more than the faucet's outputs can pay (${funds})`,
      );
    }
    this.queue.unshift(...plan.later);
    if (plan.paid.length === 0) return;
    try {
      const tx = buildFaucetTransaction(params, this.key, inputs, plan.paid, plan.change);
      const block: Block = { protocolVersion: params.version, parents: [], payload: tx.payload, nonce: 0n };
      const blockId = await this.deps.submit(block, this.lifetime.signal);
      this.pending = {
        blockId,
        transactionId: tx.transactionId,
        inputs: new Set(inputs.map((i) => toHex(i.outputId))),
        requests: plan.paid,
      };
      this.deps.logger.info(
        `faucet: block ${toHex0x(blockId)} pays ${plan.paid.length} ` +
          `request(s), transaction ${toHex0x(tx.transactionId)}`,
      );
    } catch (e) {
      this.queue.unshift(...plan.paid);
      if (!this.closed)
        this.deps.logger.warn(
          `faucet: sending the payout of ${plan.paid.length} request(s) ` +
            `failed, retrying in the next round: ${(e as Error).message}`,
        );
    }
  }

  /** After a milestone: decides the pending transaction, then recomputes the balance and starts the next round. */
  private async settle(changes: ConfirmedLedgerChanges): Promise<void> {
    await this.round;
    const p = this.pending;
    if (p !== undefined) {
      const outcome = await this.outcomeOf(p, changes);
      if (outcome !== 'undecided') {
        this.pending = undefined;
        if (outcome === 'included') {
          for (const r of p.requests) this.release(r);
          this.deps.logger.info(
            `faucet: transaction ${toHex0x(p.transactionId)} confirmed, ${p.requests.length} request(s) paid`,
          );
        } else {
          this.queue.unshift(...p.requests);
          this.deps.logger.warn(
            `faucet: transaction ${toHex0x(p.transactionId)} was not ` +
              `included; its ${p.requests.length} request(s) are queued again`,
          );
        }
      }
    }
    if (this.closed) return;
    await this.refreshBalance();
    this.schedule();
  }

  private async outcomeOf(p: PendingTransaction, changes: ConfirmedLedgerChanges): Promise<Outcome> {
    const verdict = changes.verdicts.find((v) => equalBytes(v.blockId, p.blockId));
    if (verdict !== undefined) return verdict.ledgerInclusionState === 'included' ? 'included' : 'failed';
    // another transaction spent an input
    if (changes.consumed.some((o) => p.inputs.has(toHex(o.outputId)))) return 'failed';
    let view: BlockMetadataView;
    try {
      view = await this.deps.metadata(p.blockId);
    } catch (e) {
      if (e instanceof NodeError && e.code === 'NOT_FOUND') return 'failed';
      throw e;
    }
    const referenced = view.metadata.referenced;
    if (referenced !== undefined) return referenced.ledgerInclusionState === 'included' ? 'included' : 'failed';
    return view.flags?.shouldReattach === true ? 'failed' : 'undecided';
  }

  private async refreshBalance(): Promise<void> {
    const { spendableBalance } = await this.deps.ledger.funds(this.key.address);
    let waiting = 0n;
    for (const r of this.waiting.values()) waiting += r.amount;
    this.balance = spendableBalance > waiting ? spendableBalance - waiting : 0n;
  }
}
