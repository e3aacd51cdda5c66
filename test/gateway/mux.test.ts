/**
 * The multiplexed transport (proto/mux.proto: gateway/mux-client.ts against src/node/grpc/mux-server.ts) against
 * real unary gRPC: the same service served both ways on one grpc-js server (the unary handlers of handlers.ts beside
 * NodeMux), both reached through the gateway's port (src/grpc/port.ts: the NodeMux port, and the port over grpc-js's
 * unary client), and every path compared (answers, errors with code, details and the node's ErrorInfo, deadlines and
 * cancellation aborting the service's signal, message limits). What only the mux has to prove is
 * mux-streams.test.ts; the rig is mux-support.ts.
 */
import { expect } from 'chai';
import { status as Status } from '@grpc/grpc-js';
import type { BlockResponse } from '../../src/grpc/gen/node.ts';
import { NodeCallError } from '../../src/grpc/port.ts';
import { NodeError } from '../../src/node/support/errors.ts';
import type { ServiceMethods } from '../../src/node/grpc/port.ts';
import { blockRequest, both, ID, invoke, MiB, servedForSuite, submit, until, type Service } from './mux-support.ts';

describe('mux transport: unary NodeService calls as frames over long-lived gRPC streams', () => {
  describe('the node service, compared with unary gRPC', () => {
    const aborted: string[] = [];
    const service = {
      getBlock: async () => ({
        blockId: ID,
        block: undefined,
        raw: Uint8Array.of(2, 1, 0, 9),
        json: '{"protocolVersion":2}',
      }),
      getTips: async () => ({ tips: [new Uint8Array(32).fill(1)] }),
      getBlockMetadata: async () => {
        throw new NodeError('NOT_FOUND', 'block not found: 0x07');
      },
      getInfo: async () => {
        throw new NodeError('POW_QUEUE_FULL', 'proof of work queue is full', { retryAfterSeconds: 7 });
      },
      getIncludedBlockMetadata: async () => {
        throw new Error('storage read failed');
      },
      submitBlock: (_req: unknown, signal: AbortSignal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => {
            aborted.push('submitBlock');
            reject(new NodeError('UNAVAILABLE', 'aborted'));
          });
        }),
    } as unknown as ServiceMethods;
    const rig = servedForSuite(service);

    it('answers and domain errors: the same message, code, details and ErrorInfo trailer', async () => {
      expect((await both(rig, 'getBlock', blockRequest)).response).to.deep.include({ json: '{"protocolVersion":2}' });
      await both(rig, 'getTips', { allowSemiLazy: true });
      const notFound = (await both(rig, 'getBlockMetadata', { blockId: ID })).error!;
      expect(notFound).to.deep.include({
        code: Status.NOT_FOUND,
        details: 'block not found: 0x07',
        domain: 'NOT_FOUND',
        detailed: true,
      });
      const full = (await both(rig, 'getInfo', {})).error!;
      expect(full.retryAfterSeconds).to.equal(7);
      expect((await both(rig, 'getIncludedBlockMetadata', { transactionId: ID, view: 0 })).error!.code).to.equal(
        Status.INTERNAL,
      );
    });

    it('a deadline that passes: DEADLINE_EXCEEDED for the caller, the service`s signal aborts (PoW too)', async () => {
      aborted.length = 0;
      const outcomes = await Promise.all(
        [rig.unaryPort, rig.mux].map((c) => invoke(c, 'submitBlock', submit, { deadline: Date.now() + 150 })),
      );
      for (const o of outcomes) {
        expect(o.error).to.deep.include({ code: Status.DEADLINE_EXCEEDED, detailed: false });
        // grpc-js's client timer says "after N s"; when the server's own deadline answers first, it is the bare text
        expect(o.error!.details).to.match(/^Deadline exceeded( after \d+\.\d{3}s|$)/);
      }
      await until(() => aborted.length === 2);
    });

    it('a cancel: CANCELLED "Cancelled on client", the service`s signal aborts', async () => {
      aborted.length = 0;
      const outcomes = await Promise.all(
        [rig.unaryPort, rig.mux].map((c) => invoke(c, 'submitBlock', submit, {}, (abort) => setTimeout(abort, 50))),
      );
      expect(outcomes[1]).to.deep.equal(outcomes[0]);
      expect(outcomes[0]!.error).to.include({ code: Status.CANCELLED, details: 'Cancelled on client' });
      await until(() => aborted.length === 2);
    });

    it('a deadline already passed fails without reaching the node', async () => {
      for (const c of [rig.unaryPort, rig.mux]) {
        const o = await invoke(c, 'getTips', { allowSemiLazy: false }, { deadline: Date.now() - 5 });
        expect(o.error).to.deep.include({ code: Status.DEADLINE_EXCEEDED, detailed: false });
      }
    });
  });

  describe("the service's edges and the message limits, compared with unary gRPC", () => {
    let answerBytes = 0;
    const started: string[] = [];
    let release: (() => void) | undefined;
    const service: Service = {
      getBlock: (request: { blockId: Uint8Array }) => {
        if (answerBytes === 0) throw new Error('thrown synchronously');
        return Promise.resolve({
          blockId: request.blockId,
          block: undefined,
          raw: new Uint8Array(answerBytes).fill(3),
          json: '',
        });
      },
      getTips: async () => null,
      getInfoV3: async () => {
        throw new NodeCallError('GetInfoV3', Status.FAILED_PRECONDITION, 'a bare status');
      },
      getIssuanceV3: async (_request: unknown, signal: AbortSignal) => ({
        json: JSON.stringify({ signal: signal instanceof AbortSignal, aborted: signal.aborted }),
      }),
      getBlockMetadataV3: (request: { blockId: Uint8Array }) => {
        started.push('slow');
        return new Promise(
          (resolve) =>
            (release = () => resolve({ json: `slow ${Buffer.from(request.blockId).toString('hex').slice(0, 4)}` })),
        );
      },
      submitBlock: async () => ({ blockId: ID }),
      // getBlockV3, ... missing: UNIMPLEMENTED
    };
    const rig = servedForSuite(service);

    it('a method that throws, an answer that is no message, a bare status, a missing method', async () => {
      answerBytes = 0;
      expect((await both(rig, 'getBlock', blockRequest)).error).to.include({
        code: Status.INTERNAL,
        details: 'GetBlock failed: thrown synchronously',
        detailed: true,
      });
      expect((await both(rig, 'getTips', { allowSemiLazy: false })).error).to.include({
        code: Status.INTERNAL,
        details: 'Error serializing response',
      });
      expect((await both(rig, 'getInfoV3', {})).error).to.include({
        code: Status.FAILED_PRECONDITION,
        details: 'a bare status',
        detailed: false,
      });
      expect((await both(rig, 'getBlockV3', { blockId: ID, view: 0 })).error).to.include({
        code: Status.UNIMPLEMENTED,
        details: 'The server does not implement the method getBlockV3',
      });
    });

    it('a method that takes a signal gets one, not aborted while the call is under way', async () => {
      const o = await both(rig, 'getIssuanceV3', {}, { deadline: Date.now() + 5000 });
      expect(JSON.parse((o.response as { json: string }).json)).to.deep.equal({ signal: true, aborted: false });
    });

    it('up to 4 MiB pass; a larger answer or request fails alone, RESOURCE_EXHAUSTED; the stream goes on', async () => {
      started.length = 0;
      // under way on the same stream throughout
      const slow = invoke(rig.mux, 'getBlockMetadataV3', { blockId: ID, view: 0 });
      await until(() => started.length === 1);
      answerBytes = 3 * MiB;
      expect(((await both(rig, 'getBlock', blockRequest)).response as BlockResponse).raw.length).to.equal(3 * MiB);
      answerBytes = 5 * MiB;
      const tooLarge = (await both(rig, 'getBlock', blockRequest)).error!;
      expect(tooLarge).to.include({ code: Status.RESOURCE_EXHAUSTED });
      expect(tooLarge.details).to.match(/^Sent message larger than max \(5242\d{3} vs\. 4194304\)$/);
      const request = (await both(rig, 'submitBlock', { block: { $case: 'raw', value: new Uint8Array(5 * MiB) } }))
        .error!;
      expect(request).to.include({
        code: Status.RESOURCE_EXHAUSTED,
        details: 'Received message larger than max (5242885 vs 4194304)',
      });
      release!();
      expect((await slow).response).to.deep.equal({ json: 'slow 0707' });
    });
  });
});
