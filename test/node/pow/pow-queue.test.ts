/**
 * Remote PoW admission and cancellation, through gRPC, with a miner that never finds a nonce (it only ends when
 * aborted), so the test controls exactly how many jobs are under way.
 */
import { expect } from 'chai';
import { status, type ServiceError } from '@grpc/grpc-js';
import { blockToProto } from '../../../src/grpc/mapping.ts';
import { GrpcStatus } from '../../../src/grpc/status.ts';
import type { MineResult } from '../../../src/node/pow/miner.ts';
import { createPowQueue, type MinerLike, type PowQueue } from '../../../src/node/pow/queue.ts';
import { startTestNode, type TestNode } from '../../../harness/node.ts';
import { failure, until } from '../support.ts';

class StuckMiner implements MinerLike {
  readonly workers = 3;
  signals: AbortSignal[] = [];
  closed = false;
  mine(_input: unknown, _score: number, signal?: AbortSignal): Promise<MineResult> {
    this.signals.push(signal!);
    return new Promise((_resolve, reject) => {
      if (signal!.aborted) reject(signal!.reason);
      signal!.addEventListener('abort', () => reject(signal!.reason), { once: true });
    });
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const request = (text: string) => ({
  block: {
    $case: 'structured' as const,
    value: blockToProto({
      protocolVersion: 2,
      parents: [],
      payload: { type: 5, tag: new Uint8Array(0), data: new TextEncoder().encode(text) },
      nonce: 0n,
    }),
  },
});

describe('node PoW queue', function () {
  this.timeout(10000);
  let miner: StuckMiner;
  let node: TestNode;
  let pow: PowQueue;

  beforeEach(async () => {
    miner = new StuckMiner();
    pow = createPowQueue(miner, { limit: 1 });
    node = await startTestNode({ minPowScore: 1000, pow });
  });
  afterEach(() => node.close());

  it('a full queue answers RESOURCE_EXHAUSTED with retryAfterSeconds; a cancelled call aborts its job', async () => {
    let firstError: ServiceError | null = null;
    const first = node.client.submitBlock(request('first'), (err) => {
      firstError = err;
    });
    await until('the first job', () => miner.signals.length === 1, 5000);
    const e = await failure(
      new Promise((resolve, reject) =>
        node.client.submitBlock(request('second'), (err, res) => (err ? reject(err) : resolve(res))),
      ),
    );
    expect([e.grpcCode, e.code]).to.deep.equal([GrpcStatus.RESOURCE_EXHAUSTED, 'POW_QUEUE_FULL']);
    expect(e.retryAfterSeconds).to.be.a('number').and.at.least(1);
    expect(e.httpStatus).to.equal(503);
    expect(miner.signals).to.have.length(1);

    first.cancel();
    await until('the abort of the first job', () => miner.signals[0]!.aborted, 5000);
    await until('the queue to empty', () => pow.pending === 0, 5000);
    await until('the cancelled call to end', () => firstError !== null, 5000);
    expect(firstError!.code).to.equal(status.CANCELLED);
    // the slot is free again
    const third = node.client.submitBlock(request('third'), () => undefined);
    await until('the third job', () => miner.signals.length === 2, 5000);
    third.cancel();
  });

  it('shutdown aborts running PoW; the call fails with "proof of work aborted"', async () => {
    const p = new Promise((resolve, reject) =>
      node.client.submitBlock(request('during shutdown'), (err, res) => (err ? reject(err) : resolve(res))),
    );
    await until('the job', () => miner.signals.length === 1, 5000);
    // the parts stop under the call in flight while the gRPC server still answers it, as a node's shutdown begins
    await node.parts.stop();
    const e = await failure(p);
    expect(e.grpcCode).to.equal(GrpcStatus.INTERNAL);
    expect(e.message).to.match(/^proof of work aborted: the node is shutting down/);
    expect(node.logger.lines.filter((l) => l.startsWith('ERROR'))).to.deep.equal([]);
  });

  it('the PoW queue is refused directly with the same error when full', async () => {
    const q = createPowQueue(new StuckMiner(), { limit: 2 });
    const ac = new AbortController();
    const jobs = [q.mine(new Uint8Array(10), 10, ac.signal), q.mine(new Uint8Array(10), 10, ac.signal)];
    expect(q.pending).to.equal(2);
    let refused: unknown;
    try {
      await q.mine(new Uint8Array(10), 10, ac.signal);
    } catch (err) {
      refused = err;
    }
    expect(refused).to.have.property('code', 'POW_QUEUE_FULL');
    ac.abort(new Error('done'));
    for (const j of jobs) await j.catch(() => undefined);
    expect(q.pending).to.equal(0);
    expect(() => createPowQueue(new StuckMiner(), { limit: 0 })).to.throw(RangeError);
  });
});
