/**
 * The gauges (and the peer traffic counters the peer layer keeps itself) read from the node's parts at each scrape:
 * milestones, sync, tips, peers and their messages, the PoW queue, event subscribers and the size of the data folder.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DiskFigures } from '../status/storage.ts';
import { HEALTH_REASON_CODES } from '../status/health.ts';

/** What the node's parts tell at a scrape (the composition root builds it). */
export interface ScrapeSources {
  milestones(): Promise<{ latest: number; confirmed: number; pruning: number }>;
  /**
   * Whether the node is healthy (GET /info's isHealthy), why not (status/health.ts codes), whether it is cut off
   * (submissions refused) and the age of its latest milestone.
   */
  health(): Promise<{
    healthy: boolean;
    codes: readonly string[];
    cutOff: boolean;
    latestMilestoneAgeSeconds: number | undefined;
  }>;
  /** The highest milestone index this node or a connected peer knows. */
  latestKnown(): number;
  synced(): boolean;
  tips(): { nonLazy: number; semiLazy: number };
  peers(): { connected: number; known: number };
  /** Peer messages by kind since start (the peer layer's own counters). */
  traffic(): { received: Partial<Record<string, number>>; sent: Partial<Record<string, number>>; dropped: number };
  /** Undefined when remote PoW is off. */
  pow(): { workers: number; pending: number; limit: number } | undefined;
  /** Streams following the node's events (each gateway's event API holds one). */
  eventSubscribers(): number;
}

/** Figures the metrics object keeps itself. */
export interface OwnFigures {
  unsolidTracked(): number;
  pow(): { hashRate: number };
}

/** The gauges of one scrape read the health once: a reading is reused for this long. */
const HEALTH_READING_MS = 250;

export function registerScrapeGauges(registry: Registry, s: ScrapeSources, own: OwnFigures): void {
  const registers = [registry];
  let reading: { at: number; health: ReturnType<ScrapeSources['health']> } | undefined;
  const health = (): ReturnType<ScrapeSources['health']> => {
    const now = Date.now();
    if (reading === undefined || now - reading.at > HEALTH_READING_MS) reading = { at: now, health: s.health() };
    return reading.health;
  };
  const gauge = (name: string, help: string, read: () => number | Promise<number>): void => {
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        this.set(await read());
      },
    });
  };
  gauge(
    'ledger_milestone_latest_index',
    'Highest milestone index known with valid signatures',
    async () => (await s.milestones()).latest,
  );
  gauge(
    'ledger_milestone_confirmed_index',
    'Index of the last confirmed milestone (the ledger index)',
    async () => (await s.milestones()).confirmed,
  );
  gauge(
    'ledger_pruning_index',
    'Milestone index below which the node pruned its store (0: never pruned)',
    async () => (await s.milestones()).pruning,
  );
  gauge(
    'ledger_sync_lag_milestones',
    'Milestones the ledger is behind the highest index this node or a peer knows',
    async () => Math.max(0, s.latestKnown() - (await s.milestones()).confirmed),
  );
  gauge(
    'ledger_healthy',
    "1 while the node is healthy (GET /info's isHealthy; the reasons when not are in /info and the log)",
    async () => ((await health()).healthy ? 1 : 0),
  );
  new Gauge({
    name: 'ledger_health_reason',
    help: 'Why the node is not healthy: 1 while this reason holds (the sentences are in /info and the log)',
    labelNames: ['reason'],
    registers,
    async collect() {
      const h = await health();
      for (const reason of HEALTH_REASON_CODES) this.set({ reason }, h.codes.includes(reason) ? 1 : 0);
    },
  });
  gauge(
    'ledger_cut_off',
    '1 while the node is cut off from its network (no live peer or a stale milestone): it refuses submissions',
    async () => ((await health()).cutOff ? 1 : 0),
  );
  gauge(
    'ledger_milestone_age_seconds',
    'Seconds since the timestamp of the latest milestone (-1: none known)',
    async () => (await health()).latestMilestoneAgeSeconds ?? -1,
  );
  gauge('ledger_synced', '1 while the node is at most 2 milestones behind (it takes submissions), else 0', () =>
    s.synced() ? 1 : 0,
  );
  gauge(
    'ledger_unsolid_blocks',
    'Blocks stored without their past cone and not solid yet (as far as the metrics track them)',
    () => own.unsolidTracked(),
  );
  new Gauge({
    name: 'ledger_tips',
    help: 'Tips in the tip selection pools',
    labelNames: ['pool'],
    registers,
    collect() {
      const t = s.tips();
      this.set({ pool: 'non_lazy' }, t.nonLazy);
      this.set({ pool: 'semi_lazy' }, t.semiLazy);
    },
  });
  gauge(
    'ledger_peers_connected',
    'Peers with an open stream and a completed handshake (distinct node IDs)',
    () => s.peers().connected,
  );
  gauge('ledger_peers_known', 'Static peers (--peer, or added at run time)', () => s.peers().known);
  const traffic = (direction: 'received' | 'sent'): void => {
    new Counter({
      name: `ledger_peer_messages_${direction}_total`,
      help: `Peer messages ${direction}, every peer together, by type`,
      labelNames: ['type'],
      registers,
      collect() {
        this.reset();
        for (const [type, n] of Object.entries(s.traffic()[direction])) this.inc({ type }, n ?? 0);
      },
    });
  };
  traffic('received');
  traffic('sent');
  new Counter({
    name: 'ledger_peer_messages_dropped_total',
    help: 'Peer messages not sent: the stream was closed or its send buffer full',
    registers,
    collect() {
      this.reset();
      this.inc(s.traffic().dropped);
    },
  });
  gauge('ledger_pow_workers', 'Proof-of-work worker threads (0: remote PoW off)', () => s.pow()?.workers ?? 0);
  gauge(
    'ledger_pow_queue_jobs',
    'Proof-of-work jobs admitted and not finished (running or waiting)',
    () => s.pow()?.pending ?? 0,
  );
  gauge(
    'ledger_pow_queue_limit',
    'Proof-of-work jobs admitted at once at most (more: 503 with Retry-After)',
    () => s.pow()?.limit ?? 0,
  );
  gauge(
    'ledger_pow_hash_rate',
    'Curl-P-81 hashes per second of the last mined proof-of-work job',
    () => own.pow().hashRate,
  );
  gauge(
    'ledger_event_subscribers',
    'Streams following the node events (TIP-28; each gateway event API holds one)',
    () => s.eventSubscribers(),
  );
}

/**
 * The data folder's figures, measured by the storage watch (status/storage.ts, at most every 10 s):
 * `ledger_database_size_bytes` (its files), `ledger_disk_free_bytes` and `ledger_disk_size_bytes` (the file system it
 * is on, as `df` reports: the bytes an unprivileged writer may still use, and the whole), and
 * `ledger_pruning_target_bytes` (--prune-size, 0 when unset): what the alert rules of ops/prometheus/ watch to warn
 * before the disk fills up.
 */
export function registerDataDirGauges(
  registry: Registry,
  measure: () => Promise<DiskFigures>,
  pruneTargetBytes: number | undefined,
): void {
  const registers = [registry];
  const gauge = (name: string, help: string, read: (f: DiskFigures) => number): void => {
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        this.set(read(await measure()));
      },
    });
  };
  gauge(
    'ledger_database_size_bytes',
    'Bytes on disk of the data folder (the store and genesis.json)',
    (f) => f.databaseBytes,
  );
  gauge(
    'ledger_disk_free_bytes',
    'Bytes still free for the node on the file system of the data folder (0: unknown)',
    (f) => f.diskFreeBytes,
  );
  gauge('ledger_disk_size_bytes', 'Bytes of the file system of the data folder (0: unknown)', (f) => f.diskSizeBytes);
  gauge(
    'ledger_pruning_target_bytes',
    'The store size pruning keeps the data folder under (--prune-size; 0: no size target)',
    () => pruneTargetBytes ?? 0,
  );
}
