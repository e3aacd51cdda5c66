/**
 * The dev network's faucet, inx-faucet's rules (pkg/faucet/faucet.go, v1.0) inside the node: a wallet developer
 * enqueues a bech32 address and the faucet pays it a fixed amount from the genesis' dev wallet.
 *
 *   * Enqueue: the address must be bech32 of this network; one waiting request per address (queued, or in the
 *     transaction not yet confirmed); an address holding `amount` or more gets `smallAmount`, one holding
 *     `maxAddressBalance` or more is refused; a request the faucet's balance cannot pay is refused. The answers and
 *     their messages are inx-faucet's. Not inx-faucet's: at most `maxWaitingPerClient` requests of one client (IP
 *     address, clients.ts) wait at once (TOO_MANY_REQUESTS, the gateway's 429), and the refusals that pass with time
 *     (not synced or cut off from the network, not enough funds, queue full) are UNAVAILABLE with a Retry-After
 *     hint (503) where inx-faucet answers 500 (docs/decisions.md §26).
 *   * Rounds: `batchTimeoutMs` after a request arrives (at once when a full transaction waits), one transaction pays
 *     the queued requests in order (at most 127 outputs and the change back to the faucet's address; every spendable
 *     output of the faucet, up to 128, is an input). The node's intake fills parents and does the proof of work.
 *   * One transaction at a time: the next round waits until a milestone decides the previous one. Included: its
 *     requests are done. Conflicting, its inputs spent by another transaction, unknown, or below max depth: its
 *     requests go back to the front of the queue and the next round reads the faucet's outputs anew.
 *   * Balance (GET info): the faucet address's spendable funds less every waiting request, recomputed after each
 *     milestone (inx-faucet's `faucetBalance`).
 *
 * The settings, limits, ports and answer shapes are in settings.ts (re-exported here).
 */
import { equalBytes, toHex, toHex0x } from '../../core/bytes.ts';
import { bech32DecodeAddress, bech32EncodeAddress } from '../../core/ids/index.ts';
import { LIMITS, type Address, type Block } from '../../core/model/index.ts';
import { ConfigError } from '../config-error.ts';
import { NodeError } from '../support/errors.ts';
import type { BlockMetadataView } from '../tangle/reads.ts';
import { faucetClientOf, WaitingPerClient, type FaucetClient } from './clients.ts';
import {
  FAUCET_BUSY_RETRY_SECONDS,
  FAUCET_DEFAULTS,
  FAUCET_FUNDS_RETRY_SECONDS,
  FAUCET_QUEUE_LIMIT,
  type ConfirmedLedgerChanges,
  type FaucetDeps,
  type FaucetEnqueued,
  type FaucetInfo,
  type FaucetSettings,
} from './settings.ts';
import {
  buildFaucetTransaction,
  faucetKey,
  MAX_PAYOUTS,
  minBasicDeposit,
  planPayouts,
  type FaucetKey,
} from './transaction.ts';

export * from './settings.ts';

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
      isHealthy: this.deps.synced() && (await this.deps.refusal?.()) === undefined,
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
    const cutOff = await this.deps.refusal?.();
    if (cutOff)
      throw refused(
        `Faucet node is not synchronized/healthy. Please try again later! (${cutOff.message})`,
        FAUCET_BUSY_RETRY_SECONDS,
        'NODE_NOT_SYNCED',
      );
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
