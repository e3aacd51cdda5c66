/**
 * Issuing times the v3 intake refuses before it reads a slot from them: a block issued past the last slot (2^63 - 1
 * ns) is a clear INVALID_FIELD, not a RangeError that would answer 500.
 */
import { expect } from 'chai';
import { ProtocolError } from '../../../src/core/errors.ts';
import { basicBlock, USER } from '../../../harness/fixtures/v3.ts';
import { EngineHarness, rejection } from './support.ts';

describe('v3 intake: issuing times far ahead', () => {
  it('refuses a block issued at 2^63 - 1 ns (past the last slot) as more than 10 minutes ahead', async () => {
    const h = await new EngineHarness().open();
    h.at(1010);
    const e = h.engine;
    for (const issuingTime of [2n ** 63n - 1n, 2n ** 64n - 1n]) {
      const raw = basicBlock(e.params, {
        issuer: USER,
        parents: e.selectTips(),
        issuingTime,
        commitmentId: e.commitmentIdForSlot(1010),
      });
      const err = await rejection(e.submit({ raw }));
      expect(err, String(issuingTime)).to.be.instanceOf(ProtocolError);
      expect((err as ProtocolError).code).to.equal('INVALID_FIELD');
      expect(err.message).to.match(/more than 10 minutes ahead/);
    }
    await e.idle();
  });
});
