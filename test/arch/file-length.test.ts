/**
 * File length: no hand-written TypeScript file (src, gateway, harness, test, scripts, benchmarks, bin) is over 400
 * lines; a longer one is split by job into modules beside it. Generated code (src/grpc/gen/, *.generated.ts, *.d.ts)
 * is exempt.
 */
import { expect } from 'chai';
import { linesOf, typescriptSources } from './sources.ts';

const MAX = 400;

describe('file length', () => {
  it(`no hand-written TypeScript file (generated code aside) is over ${MAX} lines`, () => {
    const sources = typescriptSources();
    expect(sources.length).to.be.greaterThan(500);
    const long = sources
      .map((f) => ({ file: f, lines: linesOf(f).length }))
      .filter((f) => f.lines > MAX)
      .map((f) => `${f.file}: ${f.lines} lines`);
    expect(long, long.join('\n')).to.deep.equal([]);
  });
});
