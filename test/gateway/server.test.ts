import { expect } from 'chai';
import { startGateway, type NodePort, type StartGatewayOptions } from '../../gateway/index.ts';
import { describeOverTransports, startFakeNode, type FakeNode } from './harness.ts';
import { minimalInfo } from './support.ts';

describeOverTransports('startGateway', (transport) => {
  let node: FakeNode;
  /** The node as startGateway takes it: the gRPC address (unary calls or the mux), or the in-process port. */
  const target = (): { nodeAddress: string; nodeTransport: 'unary' | 'mux' } | { node: NodePort } =>
    transport === 'in-process'
      ? { node: node.connect().port }
      : { nodeAddress: node.address, nodeTransport: transport === 'mux' ? 'mux' : 'unary' };
  before(async () => {
    node = await startFakeNode(transport);
    node.handlers.getInfo = minimalInfo;
  });
  after(async () => {
    await node.stop();
  });

  it('serves on the bound port; two gateways can serve one node; close() stops listening', async () => {
    const a = await startGateway({ ...target(), host: '127.0.0.1', port: 0 });
    const b = await startGateway({ ...target(), host: '127.0.0.1', port: 0 });
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
    const a = await startGateway({ ...target(), port: 0 });
    try {
      let error: unknown;
      await startGateway({ ...target(), port: a.port }).catch((e: unknown) => {
        error = e;
      });
      expect((error as { code?: string }).code).to.equal('EADDRINUSE');
    } finally {
      await a.close();
    }
  });

  it("leaves a given port open when it closes (the caller's), and wants exactly one of address and node", async () => {
    const connection = node.connect();
    const gw = await startGateway({ node: connection.port, port: 0 });
    expect((await fetch(`http://127.0.0.1:${gw.port}/health`)).status).to.equal(200);
    await gw.close();
    const info = await connection.port.getInfo({}, { deadline: Date.now() + 5000 });
    expect(info.name).to.equal('n');
    connection.close();
    for (const bad of [{ port: 0 }, { nodeAddress: '127.0.0.1:1', node: connection.port, port: 0 }]) {
      let error: unknown;
      await startGateway(bad as unknown as StartGatewayOptions).catch((e: unknown) => {
        error = e;
      });
      expect(error).to.be.instanceOf(TypeError);
    }
  });
});
