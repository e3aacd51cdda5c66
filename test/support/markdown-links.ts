/**
 * Relative links of Markdown files and the headings they point to (GitHub's heading IDs), for the documentation
 * test (test/docs/links.test.ts). Links inside code blocks and code spans are not links.
 */
import { posix } from 'node:path';

/** The text outside fenced code blocks, line by line (fenced lines blanked, so line numbers hold). */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  return text.split('\n').map((line) => {
    const m = /^\s*(`{3,}|~{3,})/.exec(line);
    if (m) {
      if (fence === undefined) fence = m[1]![0]!;
      else if (m[1]![0] === fence) fence = undefined;
      return '';
    }
    return fence === undefined ? line : '';
  });
}

/** GitHub's heading ID: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2, ... */
export function slug(heading: string): string {
  const text = heading
    .replace(/`([^`]*)`/g, '$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[*_]{1,3}([^*_]+)[*_]{1,3}/g, '$1');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const m of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  return anchors;
}

export interface Link {
  line: number;
  target: string;
}

/** Inline links and images `[text](target)` outside code; absolute URLs (scheme:) excluded. */
export function relativeLinks(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((raw, i) => {
    const line = raw.replace(/(`+)(?:(?!\1).)+?\1/g, '');
    for (const m of line.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ line: i + 1, target });
    }
  });
  return links;
}

/** What a repository-relative path is. */
export type Kind = 'file' | 'dir' | undefined;

/** What is wrong with each relative link of `file` (repository-relative path), one line each. */
export function brokenLinks(
  file: string,
  read: (path: string) => string | undefined,
  kind: (path: string) => Kind,
): string[] {
  const text = read(file);
  if (text === undefined) return [`${file}: cannot read it`];
  const bad: string[] = [];
  for (const { line, target } of relativeLinks(text)) {
    const hash = target.indexOf('#');
    const pathPart = decodeURI(hash >= 0 ? target.slice(0, hash) : target);
    const anchor = hash >= 0 ? decodeURIComponent(target.slice(hash + 1)) : undefined;
    const resolved = pathPart === '' ? file : posix.normalize(posix.join(posix.dirname(file), pathPart));
    if (resolved.startsWith('..')) {
      bad.push(`${file}:${line}: ${target} leaves the repository`);
      continue;
    }
    const what = kind(resolved);
    if (what === undefined) {
      bad.push(`${file}:${line}: ${target}: no file ${resolved}`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!resolved.endsWith('.md') || what === 'dir') {
      bad.push(`${file}:${line}: ${target}: an anchor into a file that is not Markdown`);
      continue;
    }
    const targetText = read(resolved);
    if (targetText === undefined || !anchorsOf(targetText).has(anchor))
      bad.push(`${file}:${line}: ${target}: no heading #${anchor} in ${resolved}`);
  }
  return bad;
}
