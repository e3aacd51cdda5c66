/**
 * A node cut off from its network through the real node and its REST gateway, over each transport (unary gRPC, the
 * mux a standalone gateway uses, in-process): a node that dials a static peer nobody answers on, not the coordinator,
 * refuses POST /blocks (JSON and raw) with 503, Retry-After and the reason, answers /health 503, and /info says why.
 */
import { expect } from 'chai';
import { encodeBlock } from '../../src/core/codec/index.ts';
import { blockId as blockIdOf } from '../../src/core/ids/index.ts';
import { type ConfiguredNode, startConfiguredNode } from '../../harness/node.ts';
import { describeOverTransports } from './harness.ts';

const REASON = 'no live peer: none of its configured peers is connected';

describeOverTransports('a node cut off from its network refuses submissions (503 + Retry-After)', function (transport) {
  this.timeout(30_000);
  let harness: ConfiguredNode | undefined;

  after(async () => {
    await harness?.stop();
  });

  it('POST /blocks as JSON and raw: 503, Retry-After, the reason; /health 503; /info says why', async () => {
    harness = await startConfiguredNode(
      { peers: ['127.0.0.1:1'], powWorkers: 1 },
      {
        store: 'memory',
        restTransport: ({ gRPC: 'grpc', mux: 'mux', 'in-process': 'in-process' } as const)[transport],
      },
    );
    const url = `${harness.rest}/api/core/v2`;
    const sep = harness.node.testing.protocol.solidEntryPoints[0]!;
    const raw = encodeBlock({
      protocolVersion: 2,
      parents: [sep],
      payload: { type: 5, tag: new Uint8Array([1]), data: new Uint8Array([2]) },
      nonce: 0n,
    });
    const posts = [
      fetch(`${url}/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x01', data: '0x02' } }),
      }),
      fetch(`${url}/blocks`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.iota.serializer-v1' },
        body: raw,
      }),
    ];
    for (const res of await Promise.all(posts)) {
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('5');
      expect(await res.json()).to.deep.equal({
        error: {
          code: 503,
          message: `service unavailable: node is not synced: it is cut off from its network (${REASON})`,
        },
      });
    }
    expect((await fetch(`${harness.rest}/health`)).status).to.equal(503);
    const info = (await (await fetch(`${url}/info`)).json()) as { status: { isHealthy: boolean } & object };
    expect(info.status.isHealthy).to.equal(false);
    expect(info.status).to.have.property('healthReasons').that.includes(REASON);
    expect(await harness.node.testing.store.hasBlock(blockIdOf(raw))).to.equal(false); // refused, not stored
  });
});
