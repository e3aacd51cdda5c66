/**
 * Health tells the truth (status.ts): a node, its own coordinator included, is unhealthy once its latest milestone
 * is older than the bound derived from the milestone interval, says why in /info and the log, and is healthy again
 * after the next milestone; a coordinator that just started has one bound's time to issue.
 */
import { expect } from 'chai';
import { maxMilestoneAgeMs, MAX_MILESTONE_AGE_MS } from '../../../src/node/status/status.ts';
import { stallWarningMs } from '../../../src/node/ledger/coordinator.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import { harness, type Harness } from './support.ts';

describe('node health', function () {
  this.timeout(20_000);
  let clock: number;
  let h: Harness;
  beforeEach(async () => {
    clock = Date.now();
    h = await harness({ now: () => clock });
  });
  afterEach(async () => {
    await h.coordinator.stop();
    await h.close();
  });

  it("derives the age bound from the interval: ten intervals, at least 30 s, at most Hornet's 5 minutes", () => {
    expect(maxMilestoneAgeMs(undefined)).to.equal(MAX_MILESTONE_AGE_MS);
    expect(maxMilestoneAgeMs(1)).to.equal(30_000);
    expect(maxMilestoneAgeMs(5)).to.equal(50_000);
    expect(maxMilestoneAgeMs(3600)).to.equal(MAX_MILESTONE_AGE_MS);
    expect(stallWarningMs(1)).to.equal(10_000);
    expect(stallWarningMs(10)).to.equal(30_000);
  });

  it('a coordinator that stops issuing is unhealthy past the bound, says why in /info; the next heals it', async () => {
    await h.coordinator.issue();
    const bound = h.testing.status.maxMilestoneAgeMs;
    expect(bound).to.equal(maxMilestoneAgeMs(5)); // the dev genesis: a milestone every 5 s
    let info = await h.service.getInfo();
    expect([info.status?.isHealthy, info.status?.healthReasons]).to.deep.equal([true, []]);

    clock += bound + 2_000; // nothing issued meanwhile
    info = await h.service.getInfo();
    expect(info.status?.isHealthy).to.equal(false);
    expect(info.status?.healthReasons).to.have.length(1);
    expect(info.status?.healthReasons[0]).to.match(
      /^the latest milestone \(1\) is \d+ s old, more than the 50 s allowed$/,
    );

    await h.coordinator.issue();
    info = await h.service.getInfo();
    expect([info.status?.isHealthy, info.status?.latestMilestone?.index]).to.deep.equal([true, 2]);
  });

  it('a coordinator that just started counts as recent until the bound has passed since its start', async () => {
    clock += 10 * MAX_MILESTONE_AGE_MS; // the genesis milestone is old
    expect((await h.service.getInfo()).status?.isHealthy).to.equal(false);
    h.coordinator.start();
    expect((await h.service.getInfo()).status?.isHealthy).to.equal(true);
    clock += h.testing.status.maxMilestoneAgeMs;
    expect((await h.service.getInfo()).status?.isHealthy).to.equal(false);
  });

  it('logs each change of health once, with the reasons', async () => {
    const logger = new CollectingLogger();
    await h.coordinator.issue();
    const stop = h.testing.status.watch(logger, 20);
    try {
      const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 80));
      await settle();
      clock += h.testing.status.maxMilestoneAgeMs + 1_000;
      await settle();
      await h.coordinator.issue();
      await settle();
    } finally {
      stop();
    }
    const said = logger.lines.filter((l) => /health/.test(l));
    expect(said).to.have.length(2);
    expect(said[0]).to.match(/^WARN node unhealthy: the latest milestone \(1\) is \d+ s old/);
    expect(said[1]).to.equal('INFO node healthy again');
  });
});
