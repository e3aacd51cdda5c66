/**
 * Line length: no line of a TypeScript source file in src/ or gateway/ is over 120 characters (Unicode code points),
 * the width biome.json formats to. Biome cannot break string literals, template literals or comments, so this test
 * holds them to it. Generated code (src/grpc/gen/, *.generated.ts) is exempt.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const MAX = 120;
const GENERATED = ['src/grpc/gen/'];

function files(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir))) {
    const rel = `${dir}/${e}`;
    if (GENERATED.some((g) => `${rel}/`.startsWith(g))) continue;
    if (statSync(join(root, rel)).isDirectory()) out.push(...files(rel));
    else if (e.endsWith('.ts') && !e.endsWith('.generated.ts') && !e.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

describe('line length', () => {
  it(`no line in src/ or gateway/ (generated code aside) is over ${MAX} characters`, () => {
    const sources = [...files('src'), ...files('gateway')];
    expect(sources.length).to.be.greaterThan(100);
    const long: string[] = [];
    for (const file of sources) {
      const lines = readFileSync(join(root, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        const length = [...line].length;
        if (length > MAX) long.push(`${file}:${i + 1}: ${length} characters`);
      });
    }
    expect(long, long.join('\n')).to.deep.equal([]);
  });
});
