/**
 * gzip for JSON answers (node:zlib): applied after the handler when the answer is JSON, at least `minBytes` long,
 * and the client's Accept-Encoding accepts gzip. Binary block bodies are left alone (they are small and dense).
 */
import type { Middleware } from 'koa';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';
import { addVary, isJsonType } from './media.ts';

const gzipAsync = promisify(gzipCallback);

/** Below this, compression costs more than it saves. */
export const DEFAULT_GZIP_MIN_BYTES = 1024;

/** True when Accept-Encoding lists gzip (or `*`) with a non-zero quality. */
export function acceptsGzip(header: string | undefined): boolean {
  let gzipQ: number | undefined;
  let anyQ: number | undefined;
  for (const entry of (header ?? '').split(',')) {
    const [coding, ...params] = entry.split(';').map((s) => s.trim().toLowerCase());
    let q = 1;
    for (const p of params) {
      const [k, v] = p.split('=').map((s) => s.trim());
      if (k === 'q') q = Number(v) || 0;
    }
    if (coding === 'gzip' || coding === 'x-gzip') gzipQ = q;
    else if (coding === '*') anyQ = q;
  }
  return (gzipQ ?? anyQ ?? 0) > 0;
}

/** The bytes Koa would send for a JSON body: strings and buffers as they are, plain objects stringified. */
function jsonBytes(body: unknown): Uint8Array | undefined {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body !== null && typeof body === 'object' && typeof (body as { pipe?: unknown }).pipe !== 'function')
    return Buffer.from(JSON.stringify(body), 'utf8');
  return undefined;
}

export function gzipJson(minBytes: number = DEFAULT_GZIP_MIN_BYTES): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.method === 'HEAD' || !isJsonType(ctx.response.get('Content-Type'))) return;
    const body: unknown = ctx.body;
    const bytes = jsonBytes(body);
    if (bytes === undefined) return;
    addVary(ctx, 'Accept-Encoding');
    if (bytes.length < minBytes || !acceptsGzip(ctx.get('accept-encoding'))) return;
    const type = ctx.response.get('Content-Type');
    ctx.body = await gzipAsync(bytes);
    ctx.set('Content-Type', type);
    ctx.set('Content-Encoding', 'gzip');
  };
}
