/**
 * The documentation can be walked: every relative link of every Markdown file of the repository (README.md, docs/,
 * gateway/, benchmarks/, ...) names a file or folder that exists, and every `#anchor` names a heading of its target
 * (GitHub's heading IDs). Links inside code blocks and code spans are not links. The README stays a front door of at
 * most 220 lines.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { anchorsOf, brokenLinks, type Kind, slug } from '../support/markdown-links.ts';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');
const SKIP_DIRS = new Set(['.git', 'node_modules', 'data', 'build', '.tmp']);
const README_MAX_LINES = 220;

function markdownFiles(dir = '', out: string[] = []): string[] {
  for (const e of readdirSync(join(root, dir))) {
    const rel = dir ? `${dir}/${e}` : e;
    const st = statSync(join(root, rel));
    if (st.isDirectory()) {
      if (!SKIP_DIRS.has(e) && !e.startsWith('.')) markdownFiles(rel, out);
    } else if (e.endsWith('.md')) out.push(rel);
  }
  return out;
}

function kindInRepo(path: string): Kind {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? 'dir' : 'file';
}

function readRepo(path: string): string | undefined {
  try {
    return readFileSync(join(root, path), 'utf8');
  } catch {
    return undefined;
  }
}

describe('docs: links and size', () => {
  const files = markdownFiles();

  it('sees the documentation (README.md, docs/*.md, benchmarks/README.md)', () => {
    for (const f of [
      'README.md',
      'docs/operators.md',
      'docs/api.md',
      'docs/architecture.md',
      'docs/decisions.md',
      'benchmarks/README.md',
    ]) {
      expect(files, f).to.include(f);
    }
  });

  it('every relative link and anchor of every Markdown file resolves', () => {
    const bad = files.flatMap((f) => brokenLinks(f, readRepo, kindInRepo));
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });

  it(`README.md stays a front door of at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines, `README.md has ${lines} lines; move detail into docs/`).to.be.at.most(README_MAX_LINES);
  });

  describe('the checker itself', () => {
    const docs: Record<string, string> = {
      'a.md':
        '# Title\n\n## Event API (TIP-28, MQTT)\n\n## Part A — Stardust\n\n## Same\n\n## Same\n\n' +
        '```\n[in code](nowhere.md)\n```\n',
      'b.md': [
        '[ok](a.md#event-api-tip-28-mqtt) [ok](a.md#part-a--stardust) [ok](#x) [second](a.md#same-1)',
        '[bad anchor](a.md#nope) [bad file](missing.md) `[code span](missing.md)` [web](https://example.org/x.md)',
        '## x',
      ].join('\n'),
    };
    const read = (p: string): string | undefined => docs[p];

    it('computes GitHub heading IDs', () => {
      expect(slug('Event API (TIP-28, MQTT)')).to.equal('event-api-tip-28-mqtt');
      expect(slug("Bootstrap a new node from a peer's snapshot")).to.equal(
        'bootstrap-a-new-node-from-a-peers-snapshot',
      );
      expect(slug('IOTA 2.0 (v3)')).to.equal('iota-20-v3');
      expect(slug('`npm start` and **more**')).to.equal('npm-start-and-more');
      expect([...anchorsOf(docs['a.md']!)]).to.deep.equal([
        'title',
        'event-api-tip-28-mqtt',
        'part-a--stardust',
        'same',
        'same-1',
      ]);
    });

    it('reports a missing anchor and a missing file, not code or absolute URLs', () => {
      const bad = brokenLinks('b.md', read, (p) => (p in docs ? 'file' : undefined));
      expect(bad, bad.join('\n')).to.deep.equal([
        'b.md:2: a.md#nope: no heading #nope in a.md',
        'b.md:2: missing.md: no file missing.md',
      ]);
    });
  });
});
