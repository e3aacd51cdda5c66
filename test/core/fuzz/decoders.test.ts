/**
 * Fuzzing the v2 and v3 decoders and JSON mappers (bounded sample; `scripts/fuzz.ts` runs longer): random bytes,
 * truncations, bit flips, byte insert/delete, splices and field mutations of the real vectors only ever give a
 * canonical value or a ProtocolError, each within the time bound. A failure names the target, the seed and the
 * input; fast-check prints its own seed and shrinks the case.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ProtocolError } from '../../../src/core/errors.ts';
import { BYTE_MUTATIONS, JSON_MUTATIONS, mutateBytes, mutateJson, Rng } from '../../../harness/fuzz/mutate.ts';
import { generate, loadTargets, runCase, Tally, type Target } from '../../../harness/fuzz/targets.ts';

const RUNS_PER_TARGET = 150;
const targets = loadTargets();

function check(target: Target, input: Parameters<typeof runCase>[1], tally: Tally): void {
  const outcome = runCase(target, input);
  tally.add(target, outcome);
  if (outcome.kind === 'failure') throw new Error(outcome.reason);
}

describe('fuzz: decoders and JSON mappers return a value or a ProtocolError', function () {
  this.timeout(60_000);
  const tally = new Tally();

  it('every target has a corpus of real vectors', () => {
    expect(targets.map((t) => t.name)).to.include.members([
      'v2 decodeBlock',
      'v2 decodePayload',
      'v2 decodeOutput',
      'v3 decodeBlockV3',
      'v2 blockFromJson',
      'v3 blockFromJsonV3',
    ]);
    for (const t of targets) expect(t.corpus.length, t.name).to.be.greaterThan(0);
    // the corpus itself is accepted: the targets are wired to the right decoders
    for (const t of targets)
      for (const [i] of t.corpus.entries()) {
        const input =
          t.input === 'bytes'
            ? { seed: -1, mutation: 'truncate' as const, bytes: t.corpus[i] }
            : { seed: -1, mutation: 'replace' as const, json: t.corpus[i] };
        expect(runCase(t, input, 1000).kind, `${t.name} corpus #${i}`).to.equal('accepted');
      }
  });

  for (const target of targets) {
    it(`${target.name}: ${RUNS_PER_TARGET} mutations of real vectors`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 0x7fffffff }), (seed) => check(target, generate(target, seed), tally)),
        { numRuns: RUNS_PER_TARGET },
      );
    });
  }

  for (const target of targets.filter((t) => t.input === 'bytes')) {
    it(`${target.name}: fast-check random byte arrays`, () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 512 }), (bytes) =>
          check(target, { seed: -1, mutation: 'random', bytes }, tally),
        ),
        { numRuns: 100 },
      );
    });
  }

  for (const target of targets.filter((t) => t.input === 'json')) {
    it(`${target.name}: fast-check random JSON values`, () => {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 4 }), (json) =>
          check(target, { seed: -1, mutation: 'wholeJunk', json }, tally),
        ),
        { numRuns: 100 },
      );
    });
  }

  it('a mutation sample hits both outcomes in every target (the generators reach past the first check)', () => {
    for (const t of targets) {
      const labels = [...(tally.counts.get(t.name)?.keys() ?? [])];
      expect(labels, t.name).to.include('accepted');
      expect(
        labels.filter((l) => l.startsWith('rejected:')).length,
        `${t.name}: ${labels.join(', ')}`,
      ).to.be.greaterThan(2);
    }
  });
});

describe('fuzz: the mutators', () => {
  it('are deterministic in the seed', () => {
    const base = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const m of BYTE_MUTATIONS)
      expect(mutateBytes(new Rng(7), base, [], m)).to.deep.equal(mutateBytes(new Rng(7), base, [], m));
    const json = { type: 3, amount: '10', list: [{ type: 0, a: '0x00' }] };
    for (const m of JSON_MUTATIONS)
      expect(JSON.stringify(mutateJson(new Rng(9), json, m))).to.equal(JSON.stringify(mutateJson(new Rng(9), json, m)));
  });

  it('never change their input', () => {
    const base = new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]);
    const json = { type: 3, list: [{ type: 0 }] };
    for (let s = 0; s < 200; s++) {
      mutateBytes(new Rng(s), base);
      mutateJson(new Rng(s), json);
    }
    expect([...base]).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(json).to.deep.equal({ type: 3, list: [{ type: 0 }] });
  });

  it(
    'a forbiddenKey mutation puts an own "__proto__"/"constructor"/"prototype" key into the JSON text, ' +
      'which the mappers refuse',
    () => {
      const v2 = targets.find((t) => t.name === 'v2 blockFromJson')!;
      let seen = 0;
      for (let s = 0; s < 60; s++) {
        const j = mutateJson(new Rng(s), v2.corpus[0], 'forbiddenKey');
        const text = JSON.stringify(j);
        if (!/"(__proto__|constructor|prototype)":/.test(text)) continue;
        seen++;
        expect(({} as { polluted?: boolean }).polluted).to.equal(undefined);
        const outcome = runCase(v2, { seed: s, mutation: 'forbiddenKey', json: JSON.parse(text) });
        expect(outcome).to.deep.equal({ kind: 'rejected', code: 'INVALID_JSON' });
      }
      expect(seen).to.be.greaterThan(50);
    },
  );

  it('runCase reports a non-protocol exception and a slow case as failures', () => {
    const throwing: Target = {
      name: 'x',
      input: 'bytes',
      corpus: [new Uint8Array(1)],
      run: () => {
        throw new RangeError('boom');
      },
    };
    const out = runCase(throwing, { seed: 42, mutation: 'random', bytes: new Uint8Array(1) });
    expect(out.kind).to.equal('failure');
    expect((out as { reason: string }).reason)
      .to.contain('seed 42')
      .and.contain('RangeError');
    const slow: Target = {
      name: 'slow',
      input: 'bytes',
      corpus: [],
      run: (b) => {
        const t = performance.now();
        while (performance.now() - t < 5);
        return b;
      },
    };
    expect(runCase(slow, { seed: 1, mutation: 'random', bytes: new Uint8Array(1) }, 1).kind).to.equal('failure');
    const rejecting: Target = {
      name: 'r',
      input: 'bytes',
      corpus: [],
      run: () => {
        throw new ProtocolError('TRUNCATED', 'short');
      },
    };
    expect(runCase(rejecting, { seed: 1, mutation: 'random', bytes: new Uint8Array(0) })).to.deep.equal({
      kind: 'rejected',
      code: 'TRUNCATED',
    });
  });
});
