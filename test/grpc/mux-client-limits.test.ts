/**
 * The gateway's mux client (gateway/mux-client.ts) against a real NodeMux server at its limit: it keeps the calls
 * beyond the limit waiting instead of sending them.
 */
import { expect } from 'chai';
import { status as Status } from '@grpc/grpc-js';
import { createMuxNodePort } from '../../gateway/mux-client.ts';
import type { NodeCallError } from '../../src/grpc/port.ts';
import { MAX_CALLS_IN_FLIGHT } from '../../src/grpc/mux.ts';
import { serve, until } from './mux-limits-support.ts';

describe('the gateway`s mux client under the node`s limit', () => {
  it(
    `never has more than ${MAX_CALLS_IN_FLIGHT} calls under way on a stream: the others wait in order, ` +
      'expire or are cancelled there',
    async function () {
      this.timeout(20000);
      const pending: ((answer: { json: string }) => void)[] = [];
      const rig = await serve({ getInfoV3: () => new Promise((resolve) => pending.push(resolve)) });
      const client = createMuxNodePort(`127.0.0.1:${rig.port}`);
      const outcomes: (string | number)[] = [];
      const invoke = (i: number, options: { deadline?: number; signal?: AbortSignal } = {}) =>
        client.getInfoV3({}, options).then(
          (r) => (outcomes[i] = r.json),
          (e: NodeCallError) => (outcomes[i] = e.grpcCode),
        );
      try {
        const n = MAX_CALLS_IN_FLIGHT + 200;
        for (let i = 0; i < n; i++) invoke(i);
        invoke(n, { deadline: Date.now() + 200 }); // waits behind the others until its deadline
        const cancelled = new AbortController();
        invoke(n + 1, { signal: cancelled.signal });
        await until(() => pending.length === MAX_CALLS_IN_FLIGHT);
        cancelled.abort();
        await until(() => outcomes[n] !== undefined && outcomes[n + 1] !== undefined);
        expect([outcomes[n], outcomes[n + 1]]).to.deep.equal([Status.DEADLINE_EXCEEDED, Status.CANCELLED]);
        expect(rig.mux.stats().calls).to.equal(MAX_CALLS_IN_FLIGHT);
        let answeredSoFar = 0;
        while (answeredSoFar < n) {
          const cbs = pending.splice(0);
          cbs.forEach((resolve, k) => {
            resolve({ json: `answer ${answeredSoFar + k}` });
          });
          answeredSoFar += cbs.length;
          expect(rig.mux.stats().calls).to.be.at.most(MAX_CALLS_IN_FLIGHT);
          await until(() => pending.length > 0 || outcomes.filter((o) => typeof o === 'string').length === n);
        }
        await until(() => outcomes.filter((o) => typeof o === 'string').length === n);
        expect(outcomes.slice(0, n)).to.deep.equal(Array.from({ length: n }, (_, i) => `answer ${i}`));
        expect(rig.errors).to.deep.equal([]);
      } finally {
        client.close();
        rig.stop();
      }
    },
  );
});
