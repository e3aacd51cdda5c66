import { expect } from 'chai';
import { startGateway } from '../../gateway/index.ts';
import { startFakeNode, type FakeNode } from './harness.ts';

describe('startGateway', () => {
  let node: FakeNode;
  before(async () => {
    node = await startFakeNode();
    node.handlers.getInfo = () => ({ name: 'n', version: 'v', status: { isHealthy: true, pruningIndex: 0 }, supportedProtocolVersions: [2], pendingProtocolParameters: [], features: [] });
  });
  after(async () => {
    await node.stop();
  });

  it('serves on the bound port; two gateways can serve one node; close() stops listening', async () => {
    const a = await startGateway({ nodeAddress: node.address, host: '127.0.0.1', port: 0 });
    const b = await startGateway({ nodeAddress: node.address, host: '127.0.0.1', port: 0 });
    try {
      expect(a.port).to.not.equal(b.port);
      for (const g of [a, b]) expect((await fetch(`http://127.0.0.1:${g.port}/health`)).status).to.equal(200);
    } finally {
      await a.close();
      await b.close();
    }
    let failed = false;
    await fetch(`http://127.0.0.1:${a.port}/health`).catch(() => {
      failed = true;
    });
    expect(failed).to.equal(true);
  });

  it('rejects when the port is taken', async () => {
    const a = await startGateway({ nodeAddress: node.address, port: 0 });
    try {
      let error: unknown;
      await startGateway({ nodeAddress: node.address, port: a.port }).catch((e: unknown) => {
        error = e;
      });
      expect((error as { code?: string }).code).to.equal('EADDRINUSE');
    } finally {
      await a.close();
    }
  });
});
