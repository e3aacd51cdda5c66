/**
 * The health rule and the cut-off rule (src/node/status/health.ts) on facts with a fixed clock: which reasons hold,
 * which of them make a node cut off (submissions refused), and who is never cut off (the coordinator, a node without
 * static peers).
 */
import { expect } from 'chai';
import {
  assessHealth,
  cutOffMessage,
  HEALTH_DEFAULTS,
  healthSettingsOf,
  MAX_MILESTONE_AGE_MS,
  maxMilestoneAgeMs,
  NO_PEERS,
  type HealthFacts,
} from '../../../src/node/status/health.ts';

const NOW = 1_800_000_000_000; // ms
const NOW_S = NOW / 1000;

/** A synced node at milestone 7, issued 2 s ago, every 1 s, that dials peers and heard one 1 s ago. */
function facts(over: Partial<HealthFacts> = {}): HealthFacts {
  return {
    nowMs: NOW,
    synced: true,
    confirmed: 7,
    latest: { index: 7, timestamp: NOW_S - 2 },
    runsCoordinator: false,
    intervalSeconds: 1,
    peers: { configured: true, connected: 2, silentMs: 1000 },
    ...over,
  };
}

describe('health rule (status/health.ts)', () => {
  it('the age bound: N intervals, at least the minimum, at most 5 minutes; 5 minutes when unknown', () => {
    expect(maxMilestoneAgeMs(undefined)).to.equal(MAX_MILESTONE_AGE_MS);
    expect(maxMilestoneAgeMs(0)).to.equal(MAX_MILESTONE_AGE_MS);
    expect(maxMilestoneAgeMs(1)).to.equal(30_000); // 10 s, raised to the 30 s minimum
    expect(maxMilestoneAgeMs(5)).to.equal(50_000);
    expect(maxMilestoneAgeMs(3600)).to.equal(MAX_MILESTONE_AGE_MS);
    const s = healthSettingsOf({ milestoneIntervals: 4, minMilestoneAgeSeconds: 2 });
    expect([s.milestoneIntervals, s.minMilestoneAgeSeconds, s.peerSilenceSeconds]).to.deep.equal([4, 2, 5]);
    expect(maxMilestoneAgeMs(1, s)).to.equal(4_000);
    expect(maxMilestoneAgeMs(0.3, s)).to.equal(2_000);
    expect(maxMilestoneAgeMs(undefined, healthSettingsOf({ minMilestoneAgeSeconds: 600 }))).to.equal(600_000);
    expect(healthSettingsOf(undefined)).to.deep.equal(HEALTH_DEFAULTS);
  });

  it('a synced node with a live peer and a recent milestone is healthy and takes submissions', () => {
    const h = assessHealth(facts());
    expect(h).to.deep.equal({ healthy: true, reasons: [], codes: [], latestMilestoneAgeSeconds: 2, cutOff: false });
  });

  it('no peer connected: unhealthy and cut off, saying so', () => {
    const h = assessHealth(facts({ peers: { configured: true, connected: 0, silentMs: undefined } }));
    expect([h.healthy, h.codes, h.cutOff]).to.deep.equal([false, ['no_live_peer'], true]);
    expect(h.reasons).to.deep.equal(['no live peer: none of its configured peers is connected']);
    expect(cutOffMessage(h)).to.equal(
      'node is not synced: it is cut off from its network (no live peer: none of its configured peers is connected)',
    );
  });

  it('peers connected but silent past the bound: no live peer; a heartbeat within it is enough', () => {
    const silent = (ms: number) => facts({ peers: { configured: true, connected: 2, silentMs: ms } });
    expect(assessHealth(silent(5_000)).healthy).to.equal(true);
    const h = assessHealth(silent(6_500));
    expect([h.codes, h.cutOff]).to.deep.equal([['no_live_peer'], true]);
    expect(h.reasons[0]).to.equal('no live peer: no heartbeat from its 2 connected peer(s) for 6 s (at most 5 s)');
    const quiet = healthSettingsOf({ peerSilenceSeconds: 10 });
    expect(assessHealth(silent(6_500), quiet).healthy).to.equal(true);
    const never = assessHealth(facts({ peers: { configured: true, connected: 1, silentMs: undefined } }));
    expect(never.reasons[0]).to.equal('no live peer: none of its 1 connected peer(s) has sent a heartbeat yet');
  });

  it('a stale milestone with live peers: unhealthy and cut off; the next milestone lifts both', () => {
    const stale = facts({ latest: { index: 7, timestamp: NOW_S - 31 } });
    const h = assessHealth(stale);
    expect([h.healthy, h.codes, h.cutOff, h.latestMilestoneAgeSeconds]).to.deep.equal([
      false,
      ['milestone_stale'],
      true,
      31,
    ]);
    expect(cutOffMessage(h)).to.equal(
      'node is not synced: it is cut off from its network (the latest milestone (7) is 31 s old, more than the 30 s ' +
        'allowed)',
    );
    const next = facts({ confirmed: 8, latest: { index: 8, timestamp: NOW_S } });
    expect(assessHealth(next).cutOff).to.equal(false);
    // the bound follows the interval and the settings
    const fast = healthSettingsOf({ milestoneIntervals: 3, minMilestoneAgeSeconds: 1 });
    expect(assessHealth(facts({ latest: { index: 7, timestamp: NOW_S - 3 } }), fast).codes).to.deep.equal([
      'milestone_stale',
    ]);
    expect(assessHealth(facts({ latest: { index: 7, timestamp: NOW_S - 2 } }), fast).healthy).to.equal(true);
  });

  it('both at once: both reasons, one refusal naming both', () => {
    const h = assessHealth(
      facts({
        latest: { index: 7, timestamp: NOW_S - 100 },
        peers: { configured: true, connected: 0, silentMs: undefined },
      }),
    );
    expect(h.codes).to.deep.equal(['milestone_stale', 'no_live_peer']);
    expect(cutOffMessage(h)).to.match(/\(the latest milestone \(7\) is 100 s old, .*; no live peer: none of/);
  });

  it('the coordinator is never cut off and needs no peer; its start counts as a milestone', () => {
    const alone = { configured: true, connected: 0, silentMs: undefined };
    const h = assessHealth(facts({ runsCoordinator: true, peers: alone }));
    expect([h.healthy, h.cutOff]).to.deep.equal([true, false]);
    const stale = facts({ runsCoordinator: true, peers: alone, latest: { index: 7, timestamp: NOW_S - 600 } });
    const s = assessHealth(stale);
    expect([s.codes, s.cutOff]).to.deep.equal([['milestone_stale'], false]); // unhealthy (it stopped issuing)
    expect(assessHealth({ ...stale, coordinatorSinceMs: NOW - 10_000 }).healthy).to.equal(true);
    expect(assessHealth({ ...stale, coordinatorSinceMs: NOW - 30_000 }).healthy).to.equal(false);
  });

  it('a node without static peers needs no peer and is never cut off; a stale milestone is unhealthy as before', () => {
    expect(assessHealth(facts({ peers: NO_PEERS })).healthy).to.equal(true);
    const h = assessHealth(facts({ peers: NO_PEERS, latest: { index: 7, timestamp: NOW_S - 600 } }));
    expect([h.healthy, h.codes, h.cutOff]).to.deep.equal([false, ['milestone_stale'], false]);
    const inbound = { configured: false, connected: 3, silentMs: 60_000 };
    expect(assessHealth(facts({ peers: inbound })).healthy).to.equal(true);
  });

  it('catching up or a ledger behind the latest milestone: unhealthy, not cut off (the sync check refuses)', () => {
    const h = assessHealth(facts({ synced: false, confirmed: 5 }));
    expect([h.codes, h.cutOff]).to.deep.equal([['not_synced', 'ledger_behind'], false]);
    expect(h.reasons).to.deep.equal([
      'catching up with its peers',
      'the ledger is at milestone 5, the latest known is 7',
    ]);
  });

  it('no timestamp known: stale, saying so', () => {
    const h = assessHealth(facts({ latest: { index: 3 }, confirmed: 3 }));
    expect([h.codes, h.reasons, h.latestMilestoneAgeSeconds]).to.deep.equal([
      ['milestone_stale'],
      ['no milestone with a timestamp is known (milestone 3)'],
      undefined,
    ]);
  });
});
