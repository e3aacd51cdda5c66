/**
 * The JSON body guard: one linear scan over the request's JSON text, before anything parses it into objects or
 * passes it to the node. It refuses (400) nesting deeper than a limit and object keys that pollute prototypes
 * (`__proto__`, `constructor`, `prototype`, also when written with escapes such as `"\u005f_proto__"`). It only
 * tracks strings and brackets; syntax is checked by JSON.parse afterwards (without a reviver).
 */
import { HttpProblem } from './errors.ts';

/** Deepest accepted nesting of arrays and objects (a Stardust block needs fewer than 10). */
export const DEFAULT_MAX_JSON_DEPTH = 64;

export const FORBIDDEN_JSON_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/** The problem with `text`, or undefined when it passes (syntax errors are left to JSON.parse). */
export function jsonGuardProblem(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return `JSON nested deeper than ${maxDepth} levels at offset ${i}`;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    } else if (c === QUOTE) {
      const start = i;
      let escaped = false;
      for (i++; i < n; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) {
          escaped = true;
          i++;
        } else if (d === QUOTE) break;
      }
      // A string followed by ':' is an object key.
      let j = i + 1;
      while (j < n && isSpace(text.charCodeAt(j))) j++;
      if (j < n && text.charCodeAt(j) === 0x3a) {
        const raw = text.slice(start, i + 1);
        let key = raw.slice(1, -1);
        if (escaped) {
          try {
            key = JSON.parse(raw) as string;
          } catch {
            continue; // a malformed key: JSON.parse of the whole text reports it
          }
        }
        if (FORBIDDEN_JSON_KEYS.includes(key)) return `forbidden key "${key}" at offset ${start}`;
      }
    }
  }
  return undefined;
}

/** Throws the 400 (`<subject>: <problem>`) for a JSON body that fails the guard. */
export function guardJsonText(text: string, maxDepth = DEFAULT_MAX_JSON_DEPTH, subject = 'invalid block'): void {
  const problem = jsonGuardProblem(text, maxDepth);
  if (problem !== undefined) throw new HttpProblem(400, `${subject}: ${problem}`);
}
