/**
 * The fault suite's faults, one kind per cycle, in a seeded order: partitions of every shape (one node isolated, the
 * coordinator isolated, a cut between two nodes bridged by a third), packet loss between every two nodes, a node
 * SIGKILLed and restarted over its data folder, the coordinator paused (SIGSTOP, then SIGCONT), and the node behind
 * the standalone gateway killed and restarted. Each fault is applied, held, then healed; `spenders` names two nodes
 * on two sides of it (both running through it), where the cycle's double spend goes.
 */
import type { NftFaults } from '../nft.ts';
import type { Cluster, ClusterNode } from './cluster.ts';

export const FAULT_KINDS = [
  'isolate-node',
  'isolate-coordinator',
  'bridged-cut',
  'loss',
  'kill',
  'pause-coordinator',
  'gateway-node-kill',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export const isFaultKind = (s: string): s is FaultKind => (FAULT_KINDS as readonly string[]).includes(s);

export interface FaultTiming {
  /** How long a fault is held (default 3 s). */
  holdMs?: number;
  /** How long the coordinator stays paused (default 10 s). */
  pauseMs?: number;
  /** Packet loss in % (default 2). */
  lossPercent?: number;
}

export interface Fault {
  kind: FaultKind;
  /** The fault in words ("n2 isolated from n1, n3"). */
  what: string;
  spenders: [ClusterNode, ClusterNode] | undefined;
  holdMs: number;
  apply(): Promise<void>;
  /** Lifts the fault; resolves once it is lifted (after a kill: once the node runs again). */
  heal(): Promise<void>;
}

/** The kinds a cluster can have: a bridged cut needs three nodes, the gateway's fault a gateway. */
export function possibleKinds(cluster: Cluster): FaultKind[] {
  return FAULT_KINDS.filter(
    (k) => (k !== 'bridged-cut' || cluster.nodes.length >= 3) && (k !== 'gateway-node-kill' || cluster.gateway),
  );
}

/** `cycles` kinds: every kind once per round, each round in a seeded order. */
export function schedule(kinds: readonly FaultKind[], cycles: number, random: () => number): FaultKind[] {
  const out: FaultKind[] = [];
  while (out.length < cycles) {
    const round = [...kinds];
    for (let i = round.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [round[i], round[j]] = [round[j]!, round[i]!];
    }
    out.push(...round);
  }
  return out.slice(0, cycles);
}

const names = (ns: readonly ClusterNode[]): string => ns.map((n) => n.name).join(', ');

/** Two distinct nodes of `ns`, or undefined when there are fewer than two. */
function twoOf(ns: ClusterNode[], random: () => number): [ClusterNode, ClusterNode] | undefined {
  if (ns.length < 2) return undefined;
  const i = Math.floor(random() * ns.length);
  const j = (i + 1 + Math.floor(random() * (ns.length - 1))) % ns.length;
  return [ns[i]!, ns[j]!];
}

export function planFault(
  kind: FaultKind,
  cluster: Cluster,
  nft: NftFaults,
  random: () => number,
  timing: FaultTiming = {},
): Fault {
  const holdMs = timing.holdMs ?? 3000;
  const all = cluster.nodes;
  const c = cluster.coordinator;
  const pick = (ns: ClusterNode[]): ClusterNode => ns[Math.floor(random() * ns.length)]!;
  const heal = () => nft.heal();
  const isolate = (x: ClusterNode): Fault => {
    const others = all.filter((n) => n !== x);
    return {
      kind,
      what: `${x.name} isolated from ${names(others)}`,
      spenders: [x, pick(others)],
      holdMs,
      apply: () => nft.partition([[x.address], others.map((n) => n.address)]),
      heal,
    };
  };
  const kill = (x: ClusterNode, what: string): Fault => ({
    kind,
    what,
    spenders: twoOf(
      all.filter((n) => n !== x),
      random,
    ),
    holdMs,
    apply: () => cluster.kill(x),
    heal: () => cluster.restart(x),
  });
  switch (kind) {
    case 'isolate-node':
      return isolate(pick(all.filter((n) => n !== c)));
    case 'isolate-coordinator':
      return isolate(c);
    case 'bridged-cut': {
      const [a, b] = twoOf(all, random)!;
      const bridges = all.filter((n) => n !== a && n !== b);
      return {
        kind,
        what: `${a.name} | ${b.name} cut, both reach ${names(bridges)}`,
        spenders: [a, b],
        holdMs,
        apply: () => nft.drop(a.address, b.address),
        heal,
      };
    }
    case 'loss': {
      const percent = timing.lossPercent ?? 2;
      return {
        kind,
        what: `${percent}% packet loss between ${names(all)}`,
        spenders: twoOf(all, random),
        holdMs,
        apply: () =>
          nft.loss(
            percent,
            all.map((n) => n.address),
          ),
        heal,
      };
    }
    case 'kill': {
      const x = pick(all);
      return kill(x, `${x.name}${x === c ? ' (the coordinator)' : ''} SIGKILLed, restarted after ${holdMs} ms`);
    }
    case 'pause-coordinator': {
      const pauseMs = timing.pauseMs ?? 10000;
      return {
        kind,
        what: `${c.name} (the coordinator) paused ${pauseMs} ms`,
        spenders: twoOf(
          all.filter((n) => n !== c),
          random,
        ),
        holdMs: pauseMs,
        apply: async () => cluster.pause(c),
        heal: async () => cluster.resume(c),
      };
    }
    case 'gateway-node-kill': {
      const x = cluster.gateway?.node;
      if (!x) throw new Error('no gateway in this cluster');
      return kill(x, `${x.name} (behind the gateway) SIGKILLed, restarted after ${holdMs} ms`);
    }
  }
}
