/**
 * The node's NodeMux server against a flood over a real gRPC stream (proto/mux.proto, src/node/grpc/mux-server.ts,
 * docs/decisions.md §24): calls without deadlines from a client that never reads its answers (plain HTTP/2). The
 * process goes on; the calls under way, their duration, the bytes held and the work per turn stay bounded.
 */
import { expect } from 'chai';
import { status as Status } from '@grpc/grpc-js';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MAX_CALLS_IN_FLIGHT, MAX_MESSAGE_BYTES } from '../../src/grpc/mux.ts';
import { FrameKind } from '../../src/grpc/gen/mux.ts';
import { NODE_DOOR_MAX_CALL_MS } from '../../src/node/doors.ts';
import { MUX_MAX_CALL_MS } from '../../src/node/grpc/mux-server.ts';
import {
  MiB,
  batch,
  byId,
  call,
  callBatch,
  cancel,
  exchange,
  failOnUncaught,
  never,
  serve,
  settled,
  until,
} from './mux-limits-support.ts';

setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

describe('NodeMux server under malicious frames (a real gRPC stream)', () => {
  failOnUncaught();

  it(
    `at most ${MAX_CALLS_IN_FLIGHT} calls under way per stream: one more is RESOURCE_EXHAUSTED without running; ` +
      'a cancel frees a place',
    async () => {
      let started = 0;
      const rig = await serve({
        getInfo: () => {
          started++;
          return never();
        },
      });
      const raw = exchange(rig.port);
      try {
        raw.read();
        raw.write(callBatch(1, MAX_CALLS_IN_FLIGHT + 76));
        await until(() => raw.frames.length === 76);
        expect(started).to.equal(MAX_CALLS_IN_FLIGHT);
        expect(raw.frames.map((f) => f.callId)).to.deep.equal(
          Array.from({ length: 76 }, (_, i) => MAX_CALLS_IN_FLIGHT + 1 + i),
        );
        expect(raw.frames[0]).to.include({
          kind: FrameKind.FRAME_KIND_FAILURE,
          statusCode: Status.RESOURCE_EXHAUSTED,
          statusDetails: 'Too many calls under way on this stream (at most 1024): wait for answers',
        });
        raw.write(batch([cancel(1), cancel(2), call(5000, 'GetInfo'), call(5001, 'GetInfo'), call(5002, 'GetInfo')]));
        await until(() => raw.frames.length === 77);
        expect([started, raw.frames[76]!.callId, rig.mux.stats().calls]).to.deep.equal([
          MAX_CALLS_IN_FLIGHT + 2,
          5002,
          MAX_CALLS_IN_FLIGHT,
        ]);
      } finally {
        raw.close();
        rig.stop();
      }
    },
  );

  it(
    'a call without a deadline (timeout_ms 0) or with a later one ends at the node door`s limit; ' +
      'the service`s signal aborts',
    async () => {
      expect(MUX_MAX_CALL_MS).to.equal(NODE_DOOR_MAX_CALL_MS);
      let cancelled = 0;
      const rig = await serve(
        {
          getInfo: (_r: unknown, signal: AbortSignal) => {
            signal.addEventListener('abort', () => cancelled++);
            return never();
          },
        },
        { maxCallMs: 300 },
      );
      const raw = exchange(rig.port);
      try {
        raw.read();
        const t0 = Date.now();
        raw.write(batch([call(1, 'GetInfo'), call(2, 'GetInfo', [], 3_600_000), call(3, 'GetInfo', [], 100)]));
        await until(() => raw.frames.length === 3 && cancelled === 3);
        expect(Date.now() - t0).to.be.at.least(280);
        const frames = byId(raw.frames);
        for (const id of [1, 2])
          expect(frames.get(id)).to.include({
            statusCode: Status.DEADLINE_EXCEEDED,
            statusDetails: 'Deadline exceeded (this node answers a call within 0.3 s)',
          });
        expect(frames.get(3)).to.include({ statusCode: Status.DEADLINE_EXCEEDED, statusDetails: 'Deadline exceeded' });
        expect(raw.frames[0]!.callId).to.equal(3);
        expect(rig.mux.stats().calls).to.equal(0);
      } finally {
        raw.close();
        rig.stop();
      }
    },
  );

  it(
    '300k CALL frames without deadlines from a client that never reads: 1,024 run, dispatch stops mid-batch, ' +
      'memory and event loop stay bounded; read, every other call is RESOURCE_EXHAUSTED',
    async function () {
      this.timeout(60000);
      let started = 0;
      const rig = await serve({
        getInfo: () => {
          started++;
          return never();
        },
      });
      const total = 300_000;
      const batches = [callBatch(1, total / 2), callBatch(total / 2 + 1, total / 2)];
      expect(batches[0]!.length)
        .to.be.above(2 * MiB)
        .and.below(MAX_MESSAGE_BYTES);
      gc();
      const heapBefore = process.memoryUsage().heapUsed;
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      const raw = exchange(rig.port);
      try {
        for (const b of batches) raw.write(b);
        await until(() => started === MAX_CALLS_IN_FLIGHT);
        const held = await settled(() => rig.mux.stats(), 1000); // a loaded box can pause the reads for 300 ms
        lag.disable();
        gc();
        const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
        expect(started).to.equal(MAX_CALLS_IN_FLIGHT);
        expect(held.calls).to.equal(MAX_CALLS_IN_FLIGHT);
        expect(held.queuedBytes, 'frames received and not dispatched')
          .to.be.above(0)
          .and.at.most(2 * MAX_MESSAGE_BYTES);
        expect(held.backlogBytes, 'answers waiting to be written')
          .to.be.above(4 * MiB)
          .and.below(5 * MiB);
        expect(heapGrowth, 'heap growth').to.be.below(64 * MiB);
        expect(lag.max / 1e6, 'longest event loop delay, ms').to.be.below(250);

        let exhausted = 0;
        raw.read((f) => {
          if (f.statusCode === Status.RESOURCE_EXHAUSTED) exhausted++;
          return false;
        });
        await until(() => exhausted === total - MAX_CALLS_IN_FLIGHT, 45000);
        expect(rig.mux.stats()).to.include({ calls: MAX_CALLS_IN_FLIGHT, queuedBytes: 0 });
        expect(started).to.equal(MAX_CALLS_IN_FLIGHT);
        raw.close();
        await until(() => rig.mux.stats().streams === 0);
        expect(rig.mux.stats().calls).to.equal(0);
      } finally {
        raw.close();
        rig.stop();
      }
    },
  );

  it(
    'more than maxQueuedBytes received and not dispatched: the stream ends RESOURCE_EXHAUSTED, ' +
      'its calls cancelled',
    async function () {
      this.timeout(20000);
      let cancelled = 0;
      const rig = await serve(
        {
          getInfo: (_r: unknown, signal: AbortSignal) => {
            signal.addEventListener('abort', () => cancelled++);
            return never();
          },
        },
        { maxQueuedBytes: 256 * 1024 },
      );
      const raw = exchange(rig.port);
      try {
        raw.write(callBatch(1, 100_000));
        await until(() => cancelled === MAX_CALLS_IN_FLIGHT);
        expect(rig.mux.stats()).to.deep.equal({ streams: 0, calls: 0, queuedBytes: 0, backlogBytes: 0 });
        raw.read(() => false);
        await until(() => raw.status !== undefined);
        expect(raw.status!.code).to.equal(Status.RESOURCE_EXHAUSTED);
        expect(raw.status!.details).to.match(
          /^Too much received and not yet dispatched \(\d+ bytes, at most 262144\): read the answers$/,
        );
      } finally {
        raw.close();
        rig.stop();
      }
    },
  );
});
