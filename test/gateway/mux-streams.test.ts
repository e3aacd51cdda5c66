/**
 * What only the multiplexed transport (gateway/mux-client.ts, src/node/grpc/mux-server.ts) has to prove: many calls
 * on one stream answered out of order, backpressure, the node restarting under it (UNAVAILABLE, then recovery), an
 * orderly shutdown, unknown methods and undecodable requests on the wire, the fallback to unary calls against a node
 * without NodeMux, and a closed port. The rig is mux-support.ts.
 */
import { expect } from 'chai';
import { credentials, status as Status, type ServiceError } from '@grpc/grpc-js';
import { createMuxNodePort } from '../../gateway/mux-client.ts';
import { FrameKind, NodeMuxClient, type MuxBatch } from '../../src/grpc/gen/mux.ts';
import { NodeServiceClient, type BlockResponse } from '../../src/grpc/gen/node.ts';
import { portOverClient } from '../../src/grpc/port.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import { freePort } from './harness.ts';
import { both, ID, invoke, MiB, never, serve, startRelay, until, type Outcome, type Service } from './mux-support.ts';

describe('mux transport: unary NodeService calls as frames over long-lived gRPC streams', () => {
  describe('what only the mux has to prove', () => {
    it('concurrent calls on one stream, answered out of order: each caller gets its own answer', async () => {
      const order: number[] = [];
      const rig = await serve({
        getBlockMetadataV3: (request: { blockId: Uint8Array }) => {
          const n = request.blockId[0]!;
          return new Promise((resolve) => setTimeout(() => resolve({ json: `answer ${n}` }), (n * 7919) % 40));
        },
      });
      try {
        const calls = Array.from({ length: 200 }, (_, i) =>
          invoke(rig.mux, 'getBlockMetadataV3', { blockId: Uint8Array.of(i), view: 0 }).then((o) => {
            order.push(i);
            return o;
          }),
        );
        const outcomes = await Promise.all(calls);
        outcomes.forEach((o, i) => {
          expect(o.response).to.deep.equal({ json: `answer ${i}` });
        });
        expect(order).to.not.deep.equal([...order].sort((a, b) => a - b));
      } finally {
        await rig.close();
      }
    });

    it('backpressure: 64 MiB for 128 calls at once arrives whole (batches in limits, writes held back)', async () => {
      const rig = await serve({
        getBlock: async (request: { blockId: Uint8Array }) => {
          const id = request.blockId;
          return { blockId: id, block: undefined, raw: new Uint8Array(MiB / 2).fill(id[0]!), json: '' };
        },
      });
      try {
        const outcomes = await Promise.all(
          Array.from({ length: 128 }, (_, i) => invoke(rig.mux, 'getBlock', { blockId: Uint8Array.of(i), view: 0 })),
        );
        outcomes.forEach((o, i) => {
          const raw = (o.response as BlockResponse).raw;
          expect([raw.length, raw[0], raw[raw.length - 1]]).to.deep.equal([MiB / 2, i, i]);
        });
      } finally {
        await rig.close();
      }
    });

    it('the node dies under calls: UNAVAILABLE as unary; back on its port, later calls pass', async function () {
      this.timeout(20000);
      let hanging = 0;
      const service: Service = {
        getInfo: () => {
          hanging++;
          return never();
        },
        getTips: async () => ({ tips: [ID] }),
      };
      // The clients reach the node through a TCP relay on a fixed port, so its death is a dropped connection, as
      // when the process is killed, and its restart is the same address answering again.
      let rig = await serve(service);
      const relay = await startRelay(rig.port);
      const address = `127.0.0.1:${relay.port}`;
      const unary = new NodeServiceClient(address, credentials.createInsecure());
      const mux = createMuxNodePort(address);
      const unaryPort = portOverClient(unary);
      try {
        expect((await invoke(mux, 'getTips', { allowSemiLazy: false })).response).to.deep.equal({ tips: [ID] });
        const inFlight = [unaryPort, mux].map((c) => invoke(c, 'getInfo', {}));
        await until(() => hanging === 2);
        await relay.stop();
        rig.kill();
        const [u, m] = await Promise.all(inFlight);
        expect(u.error).to.deep.include({ code: Status.UNAVAILABLE, details: 'Connection dropped' });
        expect(m.error).to.deep.equal(u.error);
        // while nothing listens: UNAVAILABLE at once, without the details trailer (the gateway: 503 node unreachable)
        const down = await invoke(mux, 'getTips', { allowSemiLazy: false }, { deadline: Date.now() + 5000 });
        expect(down.error).to.deep.include({ code: Status.UNAVAILABLE, detailed: false });
        rig = await serve(service);
        await relay.start(rig.port);
        let answer: Outcome = {};
        const end = Date.now() + 15000;
        while (answer.response === undefined && Date.now() < end) {
          answer = await invoke(mux, 'getTips', { allowSemiLazy: false }, { deadline: Date.now() + 2000 });
          if (answer.error) {
            expect(answer.error.code).to.equal(Status.UNAVAILABLE);
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        expect(answer.response).to.deep.equal({ tips: [ID] });
      } finally {
        for (const c of [unary, mux, rig.unary, rig.mux]) c.close();
        await relay.stop();
        await rig.stop();
      }
    });

    it('an orderly shutdown: calls under way are answered, the stream ends, the server stops unforced', async () => {
      let release: (() => void) | undefined;
      const rig = await serve({
        getInfoV3: () => new Promise((resolve) => (release = () => resolve({ json: 'late' }))),
      });
      const pending = invoke(rig.mux, 'getInfoV3', {});
      await until(() => release !== undefined);
      const t0 = Date.now();
      const stopped = rig.stop();
      setTimeout(() => release!(), 100);
      expect((await pending).response).to.deep.equal({ json: 'late' });
      await stopped;
      expect(Date.now() - t0).to.be.below(1500);
      const after = await invoke(rig.mux, 'getInfoV3', {}, { deadline: Date.now() + 5000 });
      expect(after.error!.code).to.equal(Status.UNAVAILABLE);
      rig.mux.close();
      rig.unary.close();
    });

    it('on the wire: an unknown method, an undecodable request, a domain error fail as unary ones do', async () => {
      const rig = await serve({
        getBlock: async () => ({ blockId: ID, block: undefined, raw: new Uint8Array(0), json: '' }),
        getTips: async () => {
          throw new NodeError('NO_TIPS', 'no tips \u0000 yet', { retryAfterSeconds: 2 });
        },
      });
      const raw = new NodeMuxClient(`127.0.0.1:${rig.port}`, credentials.createInsecure());
      try {
        const stream = raw.exchange();
        const frames: MuxBatch['frames'] = [];
        stream.on('data', (b: MuxBatch) => frames.push(...b.frames));
        const base = { timeoutMs: 0, statusCode: 0, statusDetails: '', metadata: [] };
        stream.write({
          frames: [
            { ...base, kind: FrameKind.FRAME_KIND_CALL, callId: 1, method: 'NoSuchMethod', message: new Uint8Array(0) },
            { ...base, kind: FrameKind.FRAME_KIND_CALL, callId: 2, method: 'GetBlock', message: Uint8Array.of(0xff) },
            { ...base, kind: FrameKind.FRAME_KIND_CALL, callId: 3, method: 'GetTips', message: new Uint8Array(0) },
          ],
        });
        await until(() => frames.length === 3);
        const unaryOf = (path: string, body: Buffer) =>
          new Promise<ServiceError>((resolve) =>
            rig.unary.makeUnaryRequest(
              path,
              (b: Buffer) => b,
              (b: Buffer) => b,
              body,
              (e) => resolve(e!),
            ),
          );
        const unknown = await unaryOf('/ledger.v1.NodeService/NoSuchMethod', Buffer.alloc(0));
        const garbled = await unaryOf('/ledger.v1.NodeService/GetBlock', Buffer.from([0xff]));
        const byId = new Map(frames.map((f) => [f.callId, f]));
        expect([byId.get(1)!.kind, byId.get(1)!.statusCode, byId.get(1)!.statusDetails]).to.deep.equal([
          FrameKind.FRAME_KIND_FAILURE,
          unknown.code,
          unknown.details,
        ]);
        expect(unknown.details).to.equal(
          'The server does not implement the method /ledger.v1.NodeService/NoSuchMethod',
        );
        expect([byId.get(2)!.statusCode, byId.get(2)!.statusDetails]).to.deep.equal([garbled.code, garbled.details]);
        expect(garbled).to.include({ code: Status.INTERNAL, details: 'Error deserializing request' });
        const domain = await unaryOf('/ledger.v1.NodeService/GetTips', Buffer.alloc(0));
        const failure = byId.get(3)!;
        expect([failure.statusCode, failure.statusDetails]).to.deep.equal([domain.code, domain.details]);
        expect(domain).to.include({ code: Status.UNAVAILABLE, details: 'no tips \\u{0} yet' });
        // the one trailer the node adds: grpc-status-details-bin, byte for byte (content-type and date are HTTP/2's)
        expect(failure.metadata.map((e) => [e.key, Buffer.from(e.value)])).to.deep.equal([
          ['grpc-status-details-bin', domain.metadata.get('grpc-status-details-bin')[0]],
        ]);
        stream.end();
      } finally {
        raw.close();
        await rig.close();
      }
    });

    it('a node without NodeMux: the calls go through as unary calls, and the fallback is told once', async () => {
      const rig = await serve({ getTips: async () => ({ tips: [ID] }) }, 0, false);
      const told: string[] = [];
      const client = createMuxNodePort(`127.0.0.1:${rig.port}`, { onFallback: (reason) => told.push(reason) });
      try {
        const first = await Promise.all([1, 2, 3].map(() => invoke(client, 'getTips', { allowSemiLazy: false })));
        const later = await invoke(client, 'getTips', { allowSemiLazy: false });
        for (const o of [...first, later]) expect(o.response).to.deep.equal({ tips: [ID] });
        expect(told).to.have.length(1);
        expect(told[0]).to.match(/does not serve ledger\.mux\.v1\.NodeMux .*using unary gRPC calls/);
        const missing = await both({ ...rig, mux: client }, 'getInfo', {});
        expect(missing.error!.code).to.equal(Status.UNIMPLEMENTED);
      } finally {
        client.close();
        await rig.close();
      }
    });
  });
});

describe('mux port: a closed port fails its calls as an unreachable node', () => {
  it('UNAVAILABLE without details after close()', async () => {
    const port = createMuxNodePort(`127.0.0.1:${await freePort()}`);
    port.close();
    expect((await invoke(port, 'getTips', { allowSemiLazy: false })).error).to.include({
      code: Status.UNAVAILABLE,
      detailed: false,
    });
  });
});
