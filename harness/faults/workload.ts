/**
 * The fault suite's clients, writing to every node all the time: plain data blocks (tagged data) and signed transfers
 * (one lane per node: its coin spent into 1 Mi to a new address and the change; the next transfer once the change is
 * included, or a new attempt on the same coin when the last one was refused or is still not included after
 * `retryAfterMs`), and data blocks through the standalone gateway when there is one. Writes to a node the suite
 * killed are left out until it is back (its clients would only be refused a connection); a paused node is written
 * to, and its clients wait. Double spends: one coin of the pool spent in two transactions at once, each submitted
 * to another node (one on each side of a cut). Every answer goes to the journal.
 */
import type { Cluster, ClusterNode } from './cluster.ts';
import { getJson, postBlock } from './client.ts';
import type { DoubleSpend, Journal } from './journal.ts';
import { randomSeed, type Coin, type Wallet } from './wallet.ts';

export interface WorkloadOptions {
  /** Pause between two data blocks of one writer (default 200 ms). */
  dataPauseMs?: number;
  /** Pause between two steps of a transfer lane (default 250 ms). */
  lanePauseMs?: number;
  /** A transfer still not included after this long is attempted again (default 30 s: beyond max depth). */
  retryAfterMs?: number;
}

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const hex = (text: string): string => `0x${Buffer.from(text).toString('hex')}`;
const TAG = hex('fault-suite');
const TRANSFER = 1_000_000n;

interface Attempt {
  txId: string;
  change: Coin;
  sentAt: number;
}

export class Workload {
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly lanes: Coin[];
  private readonly o: Required<WorkloadOptions>;

  constructor(
    private readonly cluster: Cluster,
    private readonly journal: Journal,
    private readonly wallet: Wallet,
    /** One coin per node for its transfer lane. */
    lanes: Coin[],
    /** Coins for the double spends, one each. */
    private readonly pool: Coin[],
    options: WorkloadOptions = {},
  ) {
    this.lanes = [...lanes];
    this.o = { dataPauseMs: 200, lanePauseMs: 250, retryAfterMs: 30000, ...options };
  }

  /** Coins left for double spends. */
  get poolLeft(): number {
    return this.pool.length;
  }

  start(): void {
    for (const n of this.cluster.nodes) {
      this.loops.push(this.dataWriter(n));
      this.loops.push(this.lane(n, this.lanes[n.index]!));
    }
    if (this.cluster.gateway) this.loops.push(this.gatewayWriter());
  }

  /** Stops every writer after its request under way. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.loops);
  }

  /** Spends one pool coin twice at once: one transaction to `a`, another to `b`; undefined when the pool is empty. */
  async doubleSpend(fault: string, a: ClusterNode, b: ClusterNode): Promise<DoubleSpend | undefined> {
    const coin = this.pool.pop();
    if (!coin) return undefined;
    const amount = BigInt(coin.output.amount);
    const t = [a, b].map(() => this.wallet.transfer(coin, [{ seed: randomSeed(), amount }]));
    const r = await Promise.all([postBlock(a.base, t[0]!.payload), postBlock(b.base, t[1]!.payload)]);
    const ids = [a, b].map((n, i) => this.journal.record(n.name, 'rest', 'double', r[i]!));
    const d: DoubleSpend = {
      cycle: this.journal.cycle,
      fault,
      nodes: [a.name, b.name],
      txIds: [t[0]!.txId, t[1]!.txId],
      blockIds: [ids[0], ids[1]],
      statuses: [r[0]!.status, r[1]!.status],
    };
    this.journal.doubles.push(d);
    return d;
  }

  private async dataWriter(n: ClusterNode): Promise<void> {
    for (let seq = 0; !this.stopping; seq++) {
      if (!n.up) {
        await pause(100);
        continue;
      }
      const r = await postBlock(n.base, { type: 5, tag: TAG, data: hex(`${n.name} ${seq}`) });
      this.journal.record(n.name, 'rest', 'data', r);
      await pause(r.blockId ? this.o.dataPauseMs : 250);
    }
  }

  private async gatewayWriter(): Promise<void> {
    const g = this.cluster.gateway!;
    for (let seq = 0; !this.stopping; seq++) {
      const r = await postBlock(g.base, { type: 5, tag: TAG, data: hex(`gateway ${seq}`) });
      this.journal.record(g.node.name, 'gateway', 'data', r);
      await pause(r.blockId ? this.o.dataPauseMs : 250);
    }
  }

  private async lane(n: ClusterNode, start: Coin): Promise<void> {
    let coin = start;
    let attempts: Attempt[] = [];
    while (!this.stopping) {
      await pause(this.o.lanePauseMs);
      if (!n.up) continue;
      for (const a of attempts) {
        const r = await getJson(n.base, `/transactions/${a.txId}/included-block/metadata`);
        if (r.status === 200) {
          coin = a.change;
          attempts = [];
          break;
        }
      }
      const last = attempts[attempts.length - 1];
      if (last && Date.now() - last.sentAt < this.o.retryAfterMs) continue;
      const t = this.wallet.transfer(coin, [{ seed: randomSeed(), amount: TRANSFER }]);
      const r = await postBlock(n.base, t.payload);
      this.journal.record(n.name, 'rest', 'transfer', r);
      // a refusal leaves the coin unspent (the next step tries again); an answer lost on the way may still land
      if (r.status === 201 || r.status === 0)
        attempts = [...attempts.slice(-9), { txId: t.txId, change: t.created[1]!, sentAt: Date.now() }];
    }
  }
}
