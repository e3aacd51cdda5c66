/**
 * Line length: no line of a hand-written TypeScript file (src, gateway, harness, test, scripts, benchmarks, bin) is
 * over 120 characters (Unicode code points), the width biome.json formats to. Biome cannot break string literals,
 * template literals or comments, so this test holds them to it. Generated code (src/grpc/gen/, *.generated.ts,
 * *.d.ts) is exempt.
 */
import { expect } from 'chai';
import { linesOf, typescriptSources } from './sources.ts';

const MAX = 120;

describe('line length', () => {
  it(`no line of a hand-written TypeScript file (generated code aside) is over ${MAX} characters`, () => {
    const sources = typescriptSources();
    expect(sources.length).to.be.greaterThan(500);
    for (const folder of ['src/', 'gateway/', 'harness/', 'test/', 'scripts/', 'benchmarks/'])
      expect(
        sources.some((f) => f.startsWith(folder)),
        folder,
      ).to.equal(true);
    const long: string[] = [];
    for (const file of sources) {
      linesOf(file).forEach((line, i) => {
        const length = [...line].length;
        if (length > MAX) long.push(`${file}:${i + 1}: ${length} characters`);
      });
    }
    expect(long, long.join('\n')).to.deep.equal([]);
  });
});
