/**
 * The health rule (GET /info's isHealthy, /health, the metrics, the log) and when a node is cut off from its network
 * (submissions refused): pure functions of what the node knows at one moment, its clock included, so the rule is
 * tested without a network (docs/decisions.md §41 compares it with Hornet's).
 *
 * Healthy: almost synced (at most `syncTolerance` milestones behind what its peers announce), the ledger at the latest
 * milestone known, the latest milestone younger than the age bound, and, for a node that dials peers and does not
 * run the coordinator, a live peer: one that completed the handshake, whose stream is open and that sent a heartbeat
 * within `peerSilenceSeconds`. The age bound is `milestoneIntervals` intervals of the network, at most Hornet's 5
 * minutes and at least `minMilestoneAgeSeconds` (milestone timestamps are whole seconds); 5 minutes while the interval
 * is unknown. A coordinator's start counts as a milestone, so it has one bound's time to issue its first.
 *
 * Cut off: a node that dials peers (static peers configured) and does not run the coordinator, without a live peer or
 * with a stale latest milestone. It cannot tell whether what it accepts reaches the network, so it refuses
 * submissions until both hold again. A coordinator makes the milestones itself, and a node without static peers (a
 * single dev node, a node others dial) has no peers it is meant to reach: neither is ever cut off.
 */

export const HEALTH_REASON_CODES = ['not_synced', 'ledger_behind', 'milestone_stale', 'no_live_peer'] as const;
/** Why a node is not healthy, as the metrics label it (`ledger_health_reason{reason}`). */
export type HealthReasonCode = (typeof HEALTH_REASON_CODES)[number];

export interface HealthSettings {
  /** Milestone intervals without a new milestone after which the latest one is stale. */
  milestoneIntervals: number;
  /** The age bound is never below this (seconds). */
  minMilestoneAgeSeconds: number;
  /** A peer without a heartbeat for longer than this (seconds) is not live. */
  peerSilenceSeconds: number;
}

export const HEALTH_DEFAULTS: Readonly<HealthSettings> = Object.freeze({
  milestoneIntervals: 10,
  minMilestoneAgeSeconds: 30,
  peerSilenceSeconds: 5,
});

/** Hornet's bound (`maxAllowedMilestoneAge`): the age bound at most, and while the interval is unknown. */
export const MAX_MILESTONE_AGE_MS = 5 * 60 * 1000;

/** Seconds a refused submission is told to wait (Retry-After): about a heartbeat period and a milestone interval. */
export const CUT_OFF_RETRY_SECONDS = 5;

/** The settings with their defaults where not given. */
export function healthSettingsOf(given: Partial<HealthSettings> | undefined): HealthSettings {
  const s = { ...HEALTH_DEFAULTS };
  for (const key of Object.keys(s) as (keyof HealthSettings)[]) s[key] = given?.[key] ?? s[key];
  return s;
}

/**
 * How old the latest milestone may be while the node is healthy: `milestoneIntervals` intervals, at most Hornet's 5
 * minutes, at least `minMilestoneAgeSeconds`; Hornet's 5 minutes (or the minimum, if higher) when the interval is not
 * known.
 */
export function maxMilestoneAgeMs(
  intervalSeconds: number | undefined,
  settings: HealthSettings = HEALTH_DEFAULTS,
): number {
  const floor = settings.minMilestoneAgeSeconds * 1000;
  if (intervalSeconds === undefined || !(intervalSeconds > 0)) return Math.max(floor, MAX_MILESTONE_AGE_MS);
  return Math.max(floor, Math.min(MAX_MILESTONE_AGE_MS, settings.milestoneIntervals * intervalSeconds * 1000));
}

/** What the peer layer says about its peers (peering/sync-state.ts). */
export interface PeerLiveness {
  /** Static peers are configured (`--peer`, or added at run time): the node is meant to reach them. */
  configured: boolean;
  /** Handshaken peers with an open stream (distinct node IDs). */
  connected: number;
  /**
   * Milliseconds since the last heartbeat of a handshaken peer whose stream is open arrived (undefined: none heard),
   * on the peer layer's clock when read.
   */
  silentMs: number | undefined;
}

export const NO_PEERS: Readonly<PeerLiveness> = Object.freeze({
  configured: false,
  connected: 0,
  silentMs: undefined,
});

/** What the rule looks at. */
export interface HealthFacts {
  nowMs: number;
  /** Almost synced: at most `syncTolerance` milestones behind what the peers announce. */
  synced: boolean;
  /** The ledger index. */
  confirmed: number;
  /** The latest milestone known, with its timestamp (seconds) where known. */
  latest: { index: number; timestamp?: number | undefined };
  /** This node runs the coordinator (it makes the milestones). */
  runsCoordinator: boolean;
  /** When this node's coordinator started (ms), while it runs. */
  coordinatorSinceMs?: number | undefined;
  /** Seconds between the network's milestones, where known. */
  intervalSeconds?: number | undefined;
  peers: PeerLiveness;
}

/** Whether the node is healthy, why not, and whether it is cut off (submissions refused). */
export interface Health {
  healthy: boolean;
  /** One sentence per reason (empty when healthy), in the order of `codes`. */
  reasons: string[];
  codes: HealthReasonCode[];
  /** Seconds since the latest milestone (undefined: none with a timestamp is known). */
  latestMilestoneAgeSeconds: number | undefined;
  /** Submissions are refused: the node dials peers, runs no coordinator, and has no live peer or a stale milestone. */
  cutOff: boolean;
}

/** The rule (see the file comment). */
export function assessHealth(f: HealthFacts, settings: HealthSettings = HEALTH_DEFAULTS): Health {
  const reasons: string[] = [];
  const codes: HealthReasonCode[] = [];
  const say = (code: HealthReasonCode, text: string): void => {
    codes.push(code);
    reasons.push(text);
  };
  if (!f.synced) say('not_synced', 'catching up with its peers');
  if (f.confirmed < f.latest.index)
    say('ledger_behind', `the ledger is at milestone ${f.confirmed}, the latest known is ${f.latest.index}`);
  const stamp = f.latest.timestamp;
  const ageSeconds = stamp === undefined ? undefined : Math.max(0, Math.floor(f.nowMs / 1000) - stamp);
  // A coordinator that started recently has had no time to issue yet: its start counts as the last milestone.
  const since = f.coordinatorSinceMs;
  const freshFor = Math.min(
    ageSeconds ?? Infinity,
    since === undefined ? Infinity : Math.max(0, (f.nowMs - since) / 1000),
  );
  const bound = maxMilestoneAgeMs(f.intervalSeconds, settings) / 1000;
  if (freshFor >= bound) {
    say(
      'milestone_stale',
      ageSeconds === undefined
        ? `no milestone with a timestamp is known (milestone ${f.latest.index})`
        : `the latest milestone (${f.latest.index}) is ${ageSeconds} s old, more than the ${bound} s allowed`,
    );
  }
  const expectsPeers = f.peers.configured && !f.runsCoordinator;
  const dead = expectsPeers ? deadPeers(f.peers, settings.peerSilenceSeconds) : undefined;
  if (dead !== undefined) say('no_live_peer', dead);
  const cutOff = expectsPeers && (dead !== undefined || codes.includes('milestone_stale'));
  return { healthy: codes.length === 0, reasons, codes, latestMilestoneAgeSeconds: ageSeconds, cutOff };
}

/** Why no peer is live (undefined: one is). */
function deadPeers(p: PeerLiveness, silenceSeconds: number): string | undefined {
  if (p.connected === 0) return 'no live peer: none of its configured peers is connected';
  if (p.silentMs === undefined)
    return `no live peer: none of its ${p.connected} connected peer(s) has sent a heartbeat yet`;
  if (p.silentMs <= silenceSeconds * 1000) return undefined;
  return (
    `no live peer: no heartbeat from its ${p.connected} connected peer(s) for ${Math.floor(p.silentMs / 1000)} s ` +
    `(at most ${silenceSeconds} s)`
  );
}

/** The text of a refused submission of a cut-off node: not in sync, and why. */
export function cutOffMessage(h: Health): string {
  const why = h.codes.flatMap((c, i) => (c === 'milestone_stale' || c === 'no_live_peer' ? [h.reasons[i]!] : []));
  return `node is not synced: it is cut off from its network (${why.join('; ')})`;
}
