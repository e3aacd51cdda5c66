/**
 * Media types: the Accept negotiation of block answers and the Content-Type of submissions.
 *
 * Accept (docs/decisions.md §11): the answer is the vendor type when it is the first acceptable type of the header,
 * JSON otherwise, never 406. Each offered type takes the quality of the most specific media range that matches it
 * (`type/subtype` over `type/*` over `*\/*`, RFC 9110 12.5.1); q=0 makes a type unacceptable. The type with the higher
 * quality wins; on equal quality, the one whose range comes first in the header wins; when one range matches both
 * (`*\/*`, `application/*`) or nothing is acceptable, JSON wins. A missing or unparsable header means JSON. Examples:
 * `application/vnd.iota.serializer-v1` -> binary; `application/json, application/vnd...-v1` -> JSON;
 * `application/vnd...-v1;q=0.9, application/json` -> JSON; `*\/*` -> JSON; `application/json;q=0, *\/*` -> binary.
 */

import type { Context } from 'koa';

export const JSON_TYPE = 'application/json';
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** Binary block bodies of the v2 API (Stardust). */
export const SERIALIZER_V1 = 'application/vnd.iota.serializer-v1';
/** Binary block bodies of the v3 API (IOTA 2.0). */
export const SERIALIZER_V2 = 'application/vnd.iota.serializer-v2';

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
  position: number;
}

/** `type/subtype;param=value;q=0.5` entries of an Accept header; malformed entries are skipped. */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [];
  const out: MediaRange[] = [];
  header.split(',').forEach((entry, position) => {
    const [range, ...params] = entry.split(';');
    const m = /^\s*([a-z0-9!#$%&'*+.^_`|~-]+)\/([a-z0-9!#$%&'*+.^_`|~-]+)\s*$/i.exec(range ?? '');
    if (!m) return;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k?.toLowerCase() !== 'q') continue;
      q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(v ?? '') ? Number(v) : 0;
    }
    const type = m[1]!.toLowerCase();
    const subtype = m[2]!.toLowerCase();
    if (type === '*' && subtype !== '*') return;
    out.push({ type, subtype, q, position });
  });
  return out;
}

function specificity(r: MediaRange): number {
  return r.type === '*' ? 0 : r.subtype === '*' ? 1 : 2;
}

/** The range that decides a media type: the most specific match, the first of equally specific ones. */
function decidingRange(ranges: MediaRange[], mediaType: string): MediaRange | undefined {
  const [type, subtype] = mediaType.split('/');
  let best: MediaRange | undefined;
  for (const r of ranges) {
    const matches = (r.type === '*' || r.type === type) && (r.subtype === '*' || r.subtype === subtype);
    if (matches && (best === undefined || specificity(r) > specificity(best))) best = r;
  }
  return best;
}

/**
 * prefersBinary's answers by type and header: clients send few distinct Accept headers, so each is parsed once (a hot
 * path: every block read negotiates). Bounded: headers over 200 characters are not kept, and a full cache starts over.
 */
const preferences = new Map<string, boolean>();
const PREFERENCES_KEPT = 256;

/** True when the Accept header asks for `binaryType` rather than JSON (never throws, never "none"). */
export function prefersBinary(acceptHeader: string | undefined, binaryType: string): boolean {
  if (!acceptHeader) return false;
  if (acceptHeader.length > 200) return decidePreference(acceptHeader, binaryType);
  const key = `${binaryType}\n${acceptHeader}`;
  let binary = preferences.get(key);
  if (binary === undefined) {
    binary = decidePreference(acceptHeader, binaryType);
    if (preferences.size >= PREFERENCES_KEPT) preferences.clear();
    preferences.set(key, binary);
  }
  return binary;
}

function decidePreference(acceptHeader: string, binaryType: string): boolean {
  const ranges = parseAccept(acceptHeader);
  const bin = decidingRange(ranges, binaryType);
  if (bin === undefined || bin.q === 0) return false;
  const json = decidingRange(ranges, JSON_TYPE);
  if (json === undefined || json.q === 0) return true;
  if (bin.q !== json.q) return bin.q > json.q;
  return bin.position < json.position;
}

/** Whether a Content-Type names JSON (`application/json` or `application/<anything>+json`), as Koa's `is('json')`. */
export function isJsonType(contentType: unknown): boolean {
  if (typeof contentType !== 'string') return false;
  const type = mediaTypeOf(contentType);
  return type === JSON_TYPE || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Adds `field` to the answer's Vary header unless it is there (case-insensitive), as Koa's `ctx.vary` does without
 * parsing the header each time (a hot path: every block read varies by Accept and Accept-Encoding).
 */
export function addVary(ctx: Context, field: string): void {
  if (ctx.headerSent) return;
  const header: unknown = ctx.response.get('Vary');
  const current = header === undefined ? '' : String(header);
  if (current === '') ctx.set('Vary', field);
  else if (
    current !== '*' &&
    !current
      .toLowerCase()
      .split(/\s*,\s*/)
      .includes(field.toLowerCase())
  )
    ctx.set('Vary', `${current}, ${field}`);
}

/** The bare media type of a Content-Type header: parameters dropped, lower-cased; '' when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}
