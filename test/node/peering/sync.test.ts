/**
 * The sync state of the peer layer (src/node/peering/sync.ts): the milestone blocks it tracks above the ledger, not
 * synced while a peer knows milestones above the ledger (SubmitBlock answers NODE_NOT_SYNCED, the missing milestones
 * are requested), and almost synced up to 2 milestones behind.
 */
import { expect } from 'chai';
import type { Block } from '../../../src/core/model/index.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { settingsOf, type PeeringContext } from '../../../src/node/peering/context.ts';
import type { PeeringPort } from '../../../src/node/peering/port.ts';
import { MAX_MILESTONE_BLOCKS, Sync, type SyncRequests, type SyncStatusView } from '../../../src/node/peering/sync.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import type { PeeringOptions } from '../../../src/node/peering/manager.ts';
import { until } from '../support.ts';
import { heartbeat, peeringHarness, tagged, type PeeringHarness } from './support.ts';

const NETWORK = 'peering-test';
const harness = (options: Partial<PeeringOptions> = {}, minPowScore = 0): Promise<PeeringHarness> =>
  peeringHarness(NETWORK, { requestTimeoutMs: 100, ...options }, minPowScore);

describe('peering: sync state', function () {
  this.timeout(10000);
  let h: PeeringHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('Sync tracks at most MAX_MILESTONE_BLOCKS milestone blocks above the ledger, forgetting the highest first', () => {
    const ctx: PeeringContext = {
      settings: settingsOf({ peers: [], logger: new CollectingLogger() }),
      log: new CollectingLogger(),
      now: () => 0,
      stats: { received: 0, duplicates: 0, gossiped: 0, requested: 0, dropped: 0, offered: 0 },
      traffic: undefined as never,
      running: () => false,
    };
    const requests = { milestoneArrived: () => undefined } as unknown as SyncRequests;
    const sync = new Sync(ctx, {} as Pick<PeeringPort, 'store' | 'protocol'>, requests, {} as SyncStatusView, {
      retry: async () => undefined,
    });
    const milestone = (index: number): Block => ({
      protocolVersion: 2,
      parents: [],
      payload: { type: 7, index } as never,
      nonce: 0n,
    });
    const id = (n: number): Uint8Array => new Uint8Array(32).map((_, i) => (i < 4 ? (n >>> (8 * i)) & 0xff : 1));
    // Milestone blocks a client stored without PoW, under indexes far above the ledger, then the next real one.
    for (let i = 0; i < 3 * MAX_MILESTONE_BLOCKS; i++) sync.noteMilestone(milestone(1_000_000 + i), id(i));
    expect(sync.trackedMilestoneBlocks).to.equal(MAX_MILESTONE_BLOCKS);
    sync.noteMilestone(milestone(1), id(-1));
    sync.noteMilestone(milestone(1), id(-1)); // the same block again: counted once
    expect(sync.trackedMilestoneBlocks).to.equal(MAX_MILESTONE_BLOCKS);
    expect(sync.pendingMilestone(1)).to.deep.equal(id(-1));
    expect(sync.pendingMilestone(1_000_000)).to.deep.equal(id(0));
    expect(sync.pendingMilestone(1_000_000 + MAX_MILESTONE_BLOCKS - 1)).to.equal(undefined); // the highest went
  });

  it('is not synced while a peer knows milestones above its ledger: SubmitBlock answers NODE_NOT_SYNCED', async () => {
    h = await harness();
    expect(h.peering.synced).to.equal(true);
    const p = await h.connect();
    p.deliver(heartbeat(5));
    expect(h.peering.synced).to.equal(false);
    const err = await h.service.submitBlock({ block: { $case: 'raw', value: tagged([h.sep], 7).bytes } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(NodeError);
    expect((err as NodeError).code).to.equal('NODE_NOT_SYNCED');
    expect((err as Error).message).to.contain('node is not synced');
    // it asks the peer for the milestones it lacks, by index
    await until('milestone request', () => p.of('milestoneRequest').length > 0);
    expect((p.of('milestoneRequest')[0]!.kind as { value: { index: number } }).value.index).to.equal(1);
    expect((await h.service.getInfo()).status?.isHealthy).to.equal(false);
  });

  it('up to 2 milestones behind a peer it is not synced but almost: submissions still go through', async () => {
    h = await harness();
    const p = await h.connect();
    const beat = (latest: number): void => p.deliver(heartbeat(latest));
    beat(2);
    expect([h.peering.synced, h.peering.almostSynced]).to.deep.equal([false, true]);
    const ok = await h.service.submitBlock({ block: { $case: 'raw', value: tagged([h.sep], 8).bytes } });
    expect(ok.blockId).to.have.length(32);
    beat(3);
    expect([h.peering.synced, h.peering.almostSynced]).to.deep.equal([false, false]);
    beat(0);
    expect([h.peering.synced, h.peering.almostSynced]).to.deep.equal([true, true]);
  });
});
