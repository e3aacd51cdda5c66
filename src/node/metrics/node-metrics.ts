/**
 * The node's metrics (prom-client), one registry per node: the metrics port (metrics.ts) counted as Prometheus
 * counters and histograms, the gauges read at each scrape from the node's parts (scrape.ts), and the default process
 * metrics once a /metrics listener is started. The same reports give GET /info its rates (Hornet's confirmed-milestone
 * metric, `rates`) and the dashboard its per-second series and last milestones, so every figure has one source.
 *
 * Names follow Prometheus' conventions: `ledger_` prefix, `_total` for counters, base units (`_seconds`, `_bytes`).
 */
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { toHex } from '../../core/bytes.ts';
import { CONFLICT } from '../../core/ledger/index.ts';
import {
  BLOCK_OUTCOMES,
  BLOCK_SOURCES,
  ConfirmedMilestoneRates,
  RecentMilestones,
  SecondSeries,
  type BlockOutcome,
  type BlockSource,
  type ConfirmedMilestone,
  type MetricsPort,
  type MilestoneRates,
  type PowOutcome,
} from './metrics.ts';
import type { DiskFigures } from '../status/storage.ts';
import { registerDataDirGauges, registerScrapeGauges, type ScrapeSources } from './scrape.ts';

export type { ScrapeSources } from './scrape.ts';

/** Blocks stored without their past cone whose arrival is remembered for the solidification histogram, at most. */
const MAX_UNSOLID_TRACKED = 100_000;

/** TIP-20 conflict reason codes by name (the `reason` label). */
const CONFLICT_NAMES = new Map<number, string>(Object.entries(CONFLICT).map(([name, code]) => [code, name]));

/** What the last mined PoW job achieved (the dashboard's and `ledger_pow_hash_rate`'s figure). */
export interface PowStats {
  mined: number;
  refused: number;
  /** Hashes per second of the last mined job (0 before the first). */
  hashRate: number;
}

export class NodeMetrics implements MetricsPort {
  readonly registry = new Registry();
  /** The dashboard's chart: blocks stored per second and the referenced blocks/s of each confirmed milestone. */
  readonly series: SecondSeries;
  readonly recent = new RecentMilestones(20);
  private readonly milestoneRates = new ConfirmedMilestoneRates();
  private readonly now: () => number;
  /** Blocks stored (solid or not) and blocks referenced by milestones since start: the /info rates' counters. */
  private newBlocks = 0;
  private referencedBlocks = 0;
  private readonly unsolid = new Map<string, number>();
  private readonly pow: PowStats = { mined: 0, refused: 0, hashRate: 0 };
  private defaults = false;

  private readonly blocks: Counter<'source' | 'result'>;
  private readonly referenced: Counter;
  private readonly transactions: Counter<'state'>;
  private readonly conflicts: Counter<'reason'>;
  private readonly milestones: Counter;
  private readonly confirmationSeconds: Histogram;
  private readonly coneBlocks: Histogram;
  private readonly coneTransactions: Histogram;
  private readonly solidificationSeconds: Histogram;
  private readonly grpcHandled: Counter<'grpc_method' | 'grpc_code' | 'transport'>;
  private readonly grpcSeconds: Histogram<'grpc_method' | 'transport'>;
  /** The labelled series of grpcCall, by method, code and transport (bounded: the methods times the codes). */
  private readonly grpcSeries = new Map<string, { handled: { inc(): void }; seconds: { observe(v: number): void } }>();
  private readonly powJobs: Counter<'result'>;
  private readonly powSeconds: Histogram;
  private readonly powHashes: Counter;

  constructor(options: { now?: () => number } = {}) {
    this.now = options.now ?? Date.now;
    this.series = new SecondSeries(600, this.now);
    const counter = <L extends string = never>(
      name: string,
      help: string,
      labels: { names: readonly L[]; zeroes?: readonly Partial<Record<L, string>>[] } = { names: [] },
    ): Counter<L> => {
      const c = new Counter<L>({ name, help, labelNames: labels.names, registers: [this.registry] });
      for (const zero of labels.zeroes ?? []) c.inc(zero, 0); // these series exist before their first event
      return c;
    };
    const histogram = <L extends string = never>(
      name: string,
      help: string,
      buckets: number[],
      labelNames: readonly L[] = [],
    ): Histogram<L> => new Histogram<L>({ name, help, labelNames, buckets, registers: [this.registry] });
    this.blocks = counter(
      'ledger_blocks_received_total',
      'v2 blocks through the intake, by source (client: REST or gRPC SubmitBlock; ' +
        'peer; coordinator) and result (stored solid, stored unsolid, duplicate, invalid)',
      {
        names: ['source', 'result'],
        zeroes: BLOCK_SOURCES.flatMap((source) => BLOCK_OUTCOMES.map((result) => ({ source, result }))),
      },
    );
    this.referenced = counter('ledger_blocks_referenced_total', 'Blocks referenced by confirmed milestones');
    this.transactions = counter(
      'ledger_transactions_referenced_total',
      'Transactions referenced by confirmed milestones, by ledger inclusion state',
      { names: ['state'], zeroes: [{ state: 'included' }, { state: 'conflicting' }] },
    );
    this.conflicts = counter('ledger_conflicts_total', 'Conflicting transactions by TIP-20 conflict reason', {
      names: ['reason'],
    });
    this.milestones = counter('ledger_milestones_confirmed_total', 'Milestones confirmed by this node');
    this.confirmationSeconds = histogram(
      'ledger_milestone_confirmation_duration_seconds',
      'Time this node took to confirm a milestone (cone walk, White-Flag, semantic validation, one durable batch)',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    );
    this.coneBlocks = histogram(
      'ledger_milestone_referenced_blocks',
      'Blocks referenced per confirmed milestone',
      [1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000],
    );
    this.coneTransactions = histogram(
      'ledger_milestone_referenced_transactions',
      'Transactions (included or conflicting) referenced per confirmed milestone',
      [0, 1, 5, 10, 25, 50, 100, 250, 500, 1000, 5000],
    );
    this.solidificationSeconds = histogram(
      'ledger_solidification_duration_seconds',
      'Time from storing a block without its past cone until it became solid',
      [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    );
    this.grpcHandled = counter(
      'ledger_grpc_server_handled_total',
      'NodeService calls answered, by method, gRPC status and transport (grpc: unary calls on the gRPC port; mux: ' +
        'calls over NodeMux, the transport of standalone gateways; in-process: the REST gateway of ledger-node run)',
      { names: ['grpc_method', 'grpc_code', 'transport'] },
    );
    this.grpcSeconds = histogram(
      'ledger_grpc_server_handling_seconds',
      'Time to answer a NodeService call, by method and transport',
      [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      ['grpc_method', 'transport'],
    );
    this.powJobs = counter(
      'ledger_pow_jobs_total',
      'Remote proof-of-work jobs by result (mined, refused: queue full, aborted, failed)',
      { names: ['result'], zeroes: ['mined', 'refused', 'aborted', 'failed'].map((result) => ({ result })) },
    );
    this.powSeconds = histogram(
      'ledger_pow_job_duration_seconds',
      'Time of a mined proof-of-work job',
      [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    );
    this.powHashes = counter('ledger_pow_hashes_total', 'Curl-P-81 hashes computed by mined proof-of-work jobs');
  }

  /** Adds the gauges read at each scrape from the node's parts (once its parts exist). */
  observe(sources: ScrapeSources): void {
    registerScrapeGauges(this.registry, sources, {
      unsolidTracked: () => this.unsolid.size,
      pow: () => ({ ...this.pow }),
    });
  }

  /** Adds the size of the data folder `dir`, the free disk and the pruning target (scrape.ts). */
  observeDataDir(measure: () => Promise<DiskFigures>, pruneTargetBytes?: number): void {
    registerDataDirGauges(this.registry, measure, pruneTargetBytes);
  }

  /** Adds the default process metrics (CPU, memory, event loop lag, GC, handles); done when /metrics is served. */
  withDefaultMetrics(): void {
    if (this.defaults) return;
    this.defaults = true;
    collectDefaultMetrics({ register: this.registry });
  }

  // ---------------------------------------------------------------- the port

  blockReceived(source: BlockSource, outcome: BlockOutcome): void {
    this.blocks.inc({ source, result: outcome });
    if (outcome === 'stored' || outcome === 'unsolid') {
      this.newBlocks++;
      this.series.markBlocks();
    }
  }

  unsolidStored(blockId: Uint8Array): void {
    if (this.unsolid.size >= MAX_UNSOLID_TRACKED) this.unsolid.delete(this.unsolid.keys().next().value as string);
    this.unsolid.set(toHex(blockId), this.now());
  }

  solidified(blockId: Uint8Array): void {
    if (this.unsolid.size === 0) return;
    const k = toHex(blockId);
    const since = this.unsolid.get(k);
    if (since === undefined) return;
    this.unsolid.delete(k);
    this.solidificationSeconds.observe((this.now() - since) / 1000);
  }

  milestoneConfirmed(m: ConfirmedMilestone): void {
    this.referencedBlocks += m.referencedBlocks;
    const rates = this.milestoneRates.confirmed(this.newBlocks, this.referencedBlocks, m.timestamp);
    this.series.markMilestone(rates.referencedBlocksPerSecond);
    this.milestones.inc();
    this.referenced.inc(m.referencedBlocks);
    this.transactions.inc({ state: 'included' }, m.includedTransactions);
    this.transactions.inc({ state: 'conflicting' }, m.conflicts.length);
    for (const code of m.conflicts) this.conflicts.inc({ reason: CONFLICT_NAMES.get(code) ?? String(code) });
    this.confirmationSeconds.observe(m.ms / 1000);
    this.coneBlocks.observe(m.referencedBlocks);
    this.coneTransactions.observe(m.includedTransactions + m.conflicts.length);
    this.recent.add({
      index: m.index,
      timestamp: m.timestamp,
      milestoneId: m.milestoneId,
      blockId: m.blockId,
      referencedBlocks: m.referencedBlocks,
      includedTransactions: m.includedTransactions,
      conflictingTransactions: m.conflicts.length,
      confirmationMs: m.ms,
      confirmedAt: this.now(),
    });
  }

  powJob(outcome: PowOutcome, seconds: number, hashes: number): void {
    this.powJobs.inc({ result: outcome });
    if (outcome === 'refused') this.pow.refused++;
    if (outcome !== 'mined') return;
    this.pow.mined++;
    this.powSeconds.observe(seconds);
    this.powHashes.inc(hashes);
    if (seconds > 0) this.pow.hashRate = hashes / seconds;
  }

  /**
   * One answered call. The labelled series are looked up once per (method, code, transport) and kept: prom-client
   * hashes a labels object on every `inc` / `observe`, which costs more than the rest of an in-process read.
   */
  grpcCall(method: string, code: string, transport: string, seconds: number): void {
    const key = `${method} ${code} ${transport}`;
    let series = this.grpcSeries.get(key);
    if (series === undefined) {
      series = {
        handled: this.grpcHandled.labels({ grpc_method: method, grpc_code: code, transport }),
        seconds: this.grpcSeconds.labels({ grpc_method: method, transport }),
      };
      this.grpcSeries.set(key, series);
    }
    series.handled.inc();
    series.seconds.observe(seconds);
  }

  // ---------------------------------------------------------------- what the node answers itself

  /** GET /info's rates: those of the last confirmed milestone (Hornet's confirmed-milestone metric). */
  get rates(): MilestoneRates {
    return this.milestoneRates.current;
  }

  powStats(): PowStats {
    return { ...this.pow };
  }
}
