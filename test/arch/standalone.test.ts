/**
 * The repository stands alone: a clone with nothing beside it must build, test and document itself.
 *   1. No file points at a folder outside the repository (the reference set the project started from, which a user who
 *      clones the project does not have): its vectors live in test/vectors, its notes in docs/.
 *   2. Every `docs/<name>.md` a file mentions exists, and every section it cites there (`docs/protocol.md §V7.1`,
 *      `docs/decisions.md §16`) is a heading or numbered item of that document.
 * The files are those git knows (tracked, plus new ones not ignored), or a directory walk when git is unavailable;
 * package-lock.json and binary files are skipped.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

const SKIP_DIRS = new Set(['.git', 'node_modules', 'data', 'build', '.tmp']);
const BINARY_EXT = /\.(png|jpe?g|gif|ico|wasm|gz|zip|tgz|pdf|woff2?|ldb|sst)$/i;

function walk(dir: string, out: string[]): void {
  for (const e of readdirSync(join(root, dir))) {
    const rel = dir ? `${dir}/${e}` : e;
    if (statSync(join(root, rel)).isDirectory()) {
      if (!SKIP_DIRS.has(e)) walk(rel, out);
    } else out.push(rel);
  }
}

function repoFiles(): string[] {
  let files: string[];
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
    files = out.split('\0').filter((f) => f !== '');
  } catch {
    files = [];
    walk('', files);
  }
  return [...new Set(files)].filter(
    (f) =>
      !f.endsWith('package-lock.json') &&
      !BINARY_EXT.test(f) &&
      existsSync(join(root, f)) &&
      statSync(join(root, f)).isFile(),
  );
}

/** Text files only: a NUL byte in the first 8 KB marks a binary file. */
function texts(): [string, string][] {
  const out: [string, string][] = [];
  for (const f of repoFiles()) {
    const buf = readFileSync(join(root, f));
    if (buf.subarray(0, 8192).includes(0)) continue;
    out.push([f, buf.toString('utf8')]);
  }
  return out;
}

function lineOf(text: string, index: number): number {
  return text.slice(0, index).split('\n').length;
}

// Built from pieces, so that this file does not contain what it looks for.
const SIB = 'sha' + 'red';
const FORBIDDEN: [string, RegExp][] = [
  ['a path into the sibling folder', new RegExp(`\\.\\.[\\\\/]+${SIB}\\b`)],
  [
    "the sibling folder's spec, vectors or decisions",
    new RegExp(`\\b${SIB}[\\\\/]+(spec|vectors|DECISIONS|DESIGN)\\b`),
  ],
  ["the sibling folder's decisions file", new RegExp('\\b' + 'DECI' + 'SIONS\\.md\\b')],
  ["a citation of the sibling folder's node notes", new RegExp('\\b' + 'node-' + 'behavior\\b')],
  ['an environment variable naming the sibling folder', new RegExp('LEDGER_' + SIB.toUpperCase() + '_DIR')],
];

const DOCS = 'docs' + '/';
const DOC_PATH = new RegExp(`(?<![\\w./-])${DOCS}[A-Za-z0-9_][A-Za-z0-9_./-]*\\.md`, 'g');
/** What stands between two cited sections: a comma, "and", a dash or a space. */
const SECTION_SEPARATOR = '(?:\\s*,\\s*|\\s+and\\s+|\\s*[-–]\\s*|\\s+)';
/** A doc path followed by its sections: `… §12.8`, `…` §3, §8, `… §V3–§V7`, `… §V12.2 D6`. */
const CITATION = new RegExp(
  `${DOCS}([A-Za-z0-9_][A-Za-z0-9_./-]*\\.md)\`?((?:${SECTION_SEPARATOR}§[A-Z]?\\d+(?:\\.\\d+)*)+)`,
  'g',
);

/** The section ids a document defines: `## 12. …`, `### V3.6 …`, `## N5. …`, and numbered items `- **12.8** …`. */
function sectionsOf(doc: string): Set<string> {
  const ids = new Set<string>();
  for (const m of doc.matchAll(/^#{1,6}\s+§?([A-Z]?\d+(?:\.\d+)*)[.\s]/gm)) ids.add(m[1]!);
  for (const m of doc.matchAll(/^\s*[-*]\s+\*\*([A-Z]?\d+(?:\.\d+)*)\*\*/gm)) ids.add(m[1]!);
  return ids;
}

describe('standalone repository', () => {
  const files = texts();

  it('sees the repository files (git ls-files or a directory walk)', () => {
    const names = new Set(files.map(([f]) => f));
    for (const f of ['package.json', 'README.md', 'docs/protocol.md', 'docs/decisions.md', 'test/vectors/README.md']) {
      expect(names.has(f), f).to.equal(true);
    }
  });

  it('no file refers to a folder beside the repository', () => {
    const bad: string[] = [];
    for (const [f, text] of files) {
      for (const [what, re] of FORBIDDEN) {
        const m = re.exec(text);
        if (m) bad.push(`${f}:${lineOf(text, m.index)}: ${what} (${m[0]})`);
      }
    }
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });

  it('the test vectors are inside the repository', () => {
    for (const f of [
      'stardust/blocks.json',
      'stardust/shimmer_mainnet_milestones_17339_17341.json',
      'nova-v3/blocks.json',
    ]) {
      expect(existsSync(join(root, 'test/vectors', f)), f).to.equal(true);
    }
  });

  it('every docs/*.md path a file mentions exists', () => {
    const bad: string[] = [];
    for (const [f, text] of files) {
      for (const m of text.matchAll(DOC_PATH)) {
        if (!existsSync(join(root, m[0]))) bad.push(`${f}:${lineOf(text, m.index!)}: ${m[0]}`);
      }
    }
    expect(bad, bad.join('\n')).to.deep.equal([]);
  });

  it('every cited docs section exists in its document', () => {
    const sections = new Map<string, Set<string>>();
    const bad: string[] = [];
    let cited = 0;
    for (const [f, text] of files) {
      for (const m of text.matchAll(CITATION)) {
        const doc = `${DOCS}${m[1]}`;
        if (!existsSync(join(root, doc))) continue; // reported by the path test
        if (!sections.has(doc)) sections.set(doc, sectionsOf(readFileSync(join(root, doc), 'utf8')));
        for (const s of m[2]!.matchAll(/§([A-Z]?\d+(?:\.\d+)*)/g)) {
          cited++;
          if (!sections.get(doc)!.has(s[1]!)) bad.push(`${f}:${lineOf(text, m.index!)}: ${doc} §${s[1]}`);
        }
      }
    }
    expect(bad, bad.join('\n')).to.deep.equal([]);
    expect(cited).to.be.greaterThan(100);
  });

  it('the sections of docs/protocol.md and docs/decisions.md are unique', () => {
    for (const doc of ['protocol.md', 'decisions.md']) {
      const text = readFileSync(join(root, 'docs', doc), 'utf8');
      const ids = [...text.matchAll(/^#{1,6}\s+§?([A-Z]?\d+(?:\.\d+)*)[.\s]/gm)].map((m) => m[1]!);
      const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
      expect(dup, `${doc}: ${dup.join(', ')}`).to.deep.equal([]);
    }
  });
});
