/**
 * Submissions must not leave anything registered on the node's lifetime signal (the soak found AbortSignal.any doing
 * so on Node 20: about 0.8 KB per submission for good). That cancellation still reaches the PoW job is tested in
 * pow/pow-queue.test.ts.
 */
import { getEventListeners } from 'node:events';
import { expect } from 'chai';
import { startTestNode } from '../../../harness/node.ts';

/** What stays attached to a signal: its 'abort' listeners, and Node's internal set of dependant signals that
 * AbortSignal.any fills (where this Node version has it: the leak lived there). */
function attached(signal: AbortSignal): number {
  const dependants = Object.getOwnPropertySymbols(signal).find((sym) => sym.description === 'kDependantSignals');
  const set = dependants ? (signal as unknown as Record<symbol, { size?: number } | undefined>)[dependants] : undefined;
  return getEventListeners(signal, 'abort').length + (set?.size ?? 0);
}

const json = (i: number) =>
  JSON.stringify({
    protocolVersion: 2,
    parents: [`0x${'00'.repeat(32)}`],
    payload: { type: 5, tag: '0x74', data: `0x${i.toString(16).padStart(8, '0')}` },
    nonce: '1',
  });

describe('node: submissions and the lifetime signal', () => {
  it('leaves no listener on the lifetime signal, with and without a call signal', async () => {
    const n = await startTestNode();
    try {
      // the client submissions' own lifetime signal, inside the part: what the test counts listeners on
      const lifetime = (n.parts.submissions as unknown as { lifetime: AbortController }).lifetime.signal;
      const before = attached(lifetime);
      for (let i = 0; i < 200; i++) {
        await n.service.submitBlock(
          { block: { $case: 'json', value: json(i) } },
          i % 2 ? new AbortController().signal : undefined,
        );
      }
      await n.service
        .submitBlock({ block: { $case: 'json', value: 'not json' } }, new AbortController().signal)
        .catch(() => undefined);
      expect(attached(lifetime)).to.equal(before);
    } finally {
      await n.close();
    }
  });
});
