/**
 * The bounded PoW queue through the real node and its in-process REST gateway: with a queue of one job and a
 * score no miner reaches, a second submission that needs proof of work is refused at once with 503, Retry-After
 * and the JSON error body, while the first one waits; stopping the node ends the waiting one too. Once with the
 * gateway over unary gRPC (loopback to the node's port), once over the multiplexed transport to the same port (a
 * standalone gateway's), once over the in-process transport (`ledger-node run`'s).
 */
import { expect } from 'chai';
import { type ConfiguredNode, startConfiguredNode } from '../../harness/node.ts';
import { describeOverTransports } from './harness.ts';

const UNREACHABLE_SCORE = 4_000_000_000; // ~24 zero trits: far beyond any test's time

describeOverTransports('bounded PoW queue through the real node (503 + Retry-After)', function (transport) {
  this.timeout(30_000);
  let harness: ConfiguredNode | undefined;

  after(async () => {
    await harness?.stop();
  });

  it('refuses the job over the queue size at once, keeps serving reads, and ends the waiting job on stop', async () => {
    harness = await startConfiguredNode(
      { minPowScore: UNREACHABLE_SCORE, powWorkers: 1, powQueueSize: 1 },
      {
        store: 'memory',
        restTransport: ({ gRPC: 'grpc', mux: 'mux', 'in-process': 'in-process' } as const)[transport],
      },
    );
    const url = `${harness.rest}/api/core/v2`;
    const submit = (n: number): Promise<Response> =>
      fetch(`${url}/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x706f77', data: `0x0${n}` } }),
      });

    // Two submissions that both need proof of work: one takes the only queue slot and waits, the other is refused.
    const both = [submit(1), submit(2)];
    const [refusedIndex, second] = await Promise.race(both.map((p, i) => p.then((r) => [i, r] as const)));
    const first = both[1 - refusedIndex]!;
    const info = async (): Promise<number> => (await fetch(`${url}/info`)).status;
    expect(second.status).to.equal(503);
    const retryAfter = second.headers.get('retry-after');
    expect(retryAfter).to.match(/^[1-9]\d*$/);
    const body = (await second.json()) as { error: { code: number; message: string } };
    expect(body.error.code).to.equal(503);
    expect(body.error.message).to.match(
      /^service unavailable: .*proof of work queue is full \(1 of 1 jobs\); retry in \d+ s/,
    );
    expect(await info()).to.equal(200); // reads are not queued behind proof of work

    const t0 = Date.now();
    await harness.stop();
    const firstStatus = await first.then(
      (r) => r.status,
      () => 0,
    );
    expect(Date.now() - t0).to.be.below(10_000);
    expect(
      firstStatus === 0 || (firstStatus >= 400 && firstStatus !== 500),
      `first submission ended with ${firstStatus}`,
    ).to.equal(true);
    harness = undefined;
  });
});
