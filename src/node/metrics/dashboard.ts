/**
 * What the dashboard (`/dashboard` on the REST port) shows beyond GET /info: blocks stored per second and the
 * referenced blocks per second of each milestone over the last ten minutes, the last milestones with their cones and
 * confirmation times, the tip pools, the peers and proof of work. The page polls it (gRPC GetDashboard, REST
 * `/api/dashboard/v1/data`); every figure comes from the same counters as /metrics (prometheus/node-metrics.ts).
 */
import { toHex0x } from '../../core/bytes.ts';
import type { MilestoneSummary, SecondSample } from './metrics.ts';
import type { PeerInfo } from '../peering/manager.ts';

export interface DashboardSources {
  synced(): boolean;
  tips(): { nonLazy: number; semiLazy: number };
  peers(): PeerInfo[];
  /** Undefined when remote PoW is off. */
  pow(): { workers: number; pending: number; limit: number } | undefined;
  powStats(): { mined: number; refused: number; hashRate: number };
  series(): SecondSample[];
  milestones(): MilestoneSummary[];
  now?: () => number;
}

export interface DashboardData {
  /** Milliseconds since the Unix epoch. */
  time: number;
  synced: boolean;
  /**
   * One value per second from `start` (seconds since the Unix epoch); `referenced` is null in seconds without a
   * milestone.
   */
  series: { start: number; blocks: number[]; referenced: (number | null)[] };
  milestones: {
    index: number;
    milestoneId: string;
    blockId: string;
    timestamp: number;
    referencedBlocks: number;
    includedTransactions: number;
    conflictingTransactions: number;
    confirmationMs: number;
    confirmedAt: number;
  }[];
  tips: { nonLazy: number; semiLazy: number };
  peers: {
    id: string;
    alias?: string;
    address: string;
    relation: string;
    connected: boolean;
    latestMilestoneIndex?: number;
    confirmedMilestoneIndex?: number;
  }[];
  pow: {
    enabled: boolean;
    workers: number;
    pending: number;
    limit: number;
    mined: number;
    refused: number;
    hashRate: number;
  };
}

export function dashboardData(s: DashboardSources): DashboardData {
  const samples = s.series();
  const pow = s.pow();
  const stats = s.powStats();
  return {
    time: (s.now ?? Date.now)(),
    synced: s.synced(),
    series: {
      start: samples[0]?.t ?? 0,
      blocks: samples.map((x) => x.blocks),
      referenced: samples.map((x) => (x.referencedPerSecond === null ? null : round(x.referencedPerSecond))),
    },
    milestones: s.milestones().map((m) => ({
      index: m.index,
      milestoneId: toHex0x(m.milestoneId),
      blockId: toHex0x(m.blockId),
      timestamp: m.timestamp,
      referencedBlocks: m.referencedBlocks,
      includedTransactions: m.includedTransactions,
      conflictingTransactions: m.conflictingTransactions,
      confirmationMs: m.confirmationMs,
      confirmedAt: m.confirmedAt,
    })),
    tips: s.tips(),
    peers: s.peers().map((p) => ({
      id: p.id,
      ...(p.alias !== undefined ? { alias: p.alias } : {}),
      address: p.address,
      relation: p.relation,
      connected: p.connected,
      ...(p.heartbeat
        ? {
            latestMilestoneIndex: p.heartbeat.latestMilestoneIndex,
            confirmedMilestoneIndex: p.heartbeat.confirmedMilestoneIndex,
          }
        : {}),
    })),
    pow: {
      enabled: pow !== undefined,
      workers: pow?.workers ?? 0,
      pending: pow?.pending ?? 0,
      limit: pow?.limit ?? 0,
      mined: stats.mined,
      refused: stats.refused,
      hashRate: Math.round(stats.hashRate),
    },
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
