/** Mana beyond the vectors: generation, decay and the TIP-39 error bounds. */
import { expect } from 'chai';
import * as V3 from '../../../src/core/v3/index.ts';
import { params } from './helpers.ts';

describe('v3 Mana beyond the vectors', () => {
  const ctx = params;
  const epoch = 2 ** params.slotsPerEpochExponent;
  it('no generation within the same slot, none for a zero amount, errors when the creation is after the target', () => {
    expect(V3.potentialManaWithDecay(10n ** 9n, 100, 100, ctx)).to.equal(0n);
    expect(V3.potentialManaWithDecay(0n, 1, 10 * epoch, ctx)).to.equal(0n);
    expect(() => V3.potentialManaWithDecay(1n, 10, 9, ctx)).to.throw(RangeError);
    expect(() => V3.storedManaWithDecay(1n, epoch, 0, ctx)).to.throw(RangeError);
  });
  it('same epoch: amount × slots × 2^-17, truncated', () => {
    expect(V3.potentialManaWithDecay(10n ** 9n, 1, 101, ctx)).to.equal((10n ** 9n * 100n) >> 17n);
  });
  it('many epochs: the fixed-point result stays within TIP-39 error bounds of the exact geometric sum', () => {
    const amount = 10n ** 15n;
    for (const epochs of [2, 3, 10, 100, 383, 384, 385, 1000]) {
      const from = 5;
      const to = epochs * epoch + 17;
      const got = Number(V3.potentialManaWithDecay(amount, from, to, ctx));
      const d = 1 - params.manaParameters.decayFactors[0]! / 2 ** 32; // per-epoch decay (1 - factor)
      const rate = Number(amount) / 2 ** 17;
      const first = (epoch - from) * rate * (1 - d) ** epochs;
      let middle = 0;
      for (let k = 1; k < epochs; k++) middle += epoch * rate * (1 - d) ** k;
      const last = 17 * rate;
      const exact = first + middle + last;
      expect(Math.abs(got - exact) / exact, `${epochs} epochs`).to.be.lessThan(1e-4);
    }
  });
  it(
    'potential Mana grows from epoch start to epoch start (it drops at each boundary by one decay step), decay ' +
      'applies the table in chunks',
    () => {
      let prev = -1n;
      for (const to of [epoch, 2 * epoch, 3 * epoch + 5, 50 * epoch]) {
        const m = V3.potentialManaWithDecay(10n ** 12n, 1, to, ctx);
        expect(m > prev).to.equal(true);
        prev = m;
      }
      expect(V3.decayMana(1000n, 0, params.manaParameters)).to.equal(1000n);
      expect(V3.decayMana(10n ** 12n, 1, params.manaParameters) < 10n ** 12n).to.equal(true);
      expect(V3.decayMana(10n ** 12n, 384, params.manaParameters)).to.equal(
        V3.multiplyAndShift(10n ** 12n, BigInt(params.manaParameters.decayFactors[383]!), 32),
      );
      expect(V3.decayMana(10n ** 12n, 385, params.manaParameters)).to.equal(
        V3.multiplyAndShift(
          V3.multiplyAndShift(10n ** 12n, BigInt(params.manaParameters.decayFactors[383]!), 32),
          BigInt(params.manaParameters.decayFactors[0]!),
          32,
        ),
      );
    },
  );
});
