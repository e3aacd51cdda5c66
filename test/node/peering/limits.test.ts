/**
 * The peer layer's limits (src/node/peering/limits.ts): a token bucket for message rates, a bounded set of seen keys
 * for duplicate suppression, and the backoff of redials.
 */
import { expect } from 'chai';
import { Backoff, SeenSet, TokenBucket } from '../../../src/node/peering/limits.ts';

describe('peering: building blocks', () => {
  it('TokenBucket allows a burst, then the rate', () => {
    let t = 0;
    const b = new TokenBucket(10, 3, () => t);
    expect([b.take(), b.take(), b.take(), b.take()]).to.deep.equal([true, true, true, false]);
    t += 100; // one token back
    expect([b.take(), b.take()]).to.deep.equal([true, false]);
  });
  it('SeenSet forgets the oldest key beyond its capacity', () => {
    const s = new SeenSet(2);
    expect(s.add('a')).to.equal(true);
    expect(s.add('a')).to.equal(false);
    s.add('b');
    s.add('c');
    expect([s.has('a'), s.has('b'), s.has('c'), s.size]).to.deep.equal([false, true, true, 2]);
  });
  it('Backoff doubles up to the cap, with 75-100 % jitter, and resets', () => {
    const fixed = new Backoff(100, 1000, () => 1);
    expect([1, 2, 3, 4, 5, 6].map(() => fixed.next())).to.deep.equal([100, 200, 400, 800, 1000, 1000]);
    fixed.reset();
    expect(fixed.next()).to.equal(100);
    const low = new Backoff(100, 1000, () => 0);
    expect(low.next()).to.equal(75);
  });
});
