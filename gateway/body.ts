/**
 * Reads a request body with a size limit, by `raw-body`: 413 before reading when Content-Length already says too
 * much, 413 as soon as the streamed bytes pass the limit; what the client still sends after a 413 is read and
 * discarded (the stream is resumed), so the connection stays usable. The JSON bodies of the control, peers and faucet
 * routes are read here too (`readJsonObject`), and every route checks the Content-Type with `requireMediaType`.
 */
import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { HttpProblem } from './errors.ts';
import { guardJsonText } from './json-guard.ts';
import { JSON_TYPE, mediaTypeOf } from './media.ts';

/** Hornet's (echo's) default: 1 MiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/** raw-body's error (http-errors): `type` names what went wrong. */
function isRawBodyError(err: unknown): err is Error & { type: string; status: number } {
  return (
    err instanceof Error &&
    typeof (err as { type?: unknown }).type === 'string' &&
    typeof (err as { status?: unknown }).status === 'number'
  );
}

export async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  try {
    const body = await getRawBody(req, { length: req.headers['content-length'] ?? null, limit });
    return new Uint8Array(body);
  } catch (err) {
    if (!isRawBodyError(err)) throw new HttpProblem(400, `request body could not be read: ${(err as Error).message}`);
    switch (err.type) {
      case 'entity.too.large':
        req.resume();
        throw new HttpProblem(413, `request body exceeds the limit of ${limit} bytes`);
      case 'request.aborted':
      case 'request.size.invalid':
        throw new HttpProblem(400, 'request body incomplete: the client closed the connection');
      default:
        throw err; // stream.encoding.set, stream.not.readable: a programming error (500)
    }
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The request's media type, when it is one of `accepted`; 415 naming them otherwise. */
export function requireMediaType(ctx: Context, accepted: readonly string[]): string {
  const mediaType = mediaTypeOf(ctx.get('content-type'));
  if (!accepted.includes(mediaType)) {
    const given = mediaType === '' ? 'no Content-Type' : `Content-Type "${mediaType.slice(0, 80)}"`;
    throw new HttpProblem(415, `unsupported media type: ${given}, expected ${accepted.join(' or ')}`);
  }
  return mediaType;
}

/** How a route words the 400s of a JSON body: `${subject}: ${notUtf8}`, `${subject}: ${malformed}: <parser's>`... */
export interface JsonBodyTexts {
  /** Also the depth guard's (json-guard.ts). */
  subject: string;
  notUtf8: string;
  malformed: string;
  notObject: string;
}

/** The JSON object of a request body: 415 for another media type, 400 (`texts`) for anything but an object. */
export async function readJsonObject(
  ctx: Context,
  limits: { bodyLimitBytes: number; maxJsonDepth?: number },
  texts: JsonBodyTexts,
): Promise<Record<string, unknown>> {
  requireMediaType(ctx, [JSON_TYPE]);
  const body = await readBody(ctx.req, limits.bodyLimitBytes);
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new HttpProblem(400, `${texts.subject}: ${texts.notUtf8}`);
  }
  guardJsonText(text, limits.maxJsonDepth, texts.subject);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HttpProblem(400, `${texts.subject}: ${texts.malformed}: ${(err as Error).message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new HttpProblem(400, `${texts.subject}: ${texts.notObject}`);
  return json as Record<string, unknown>;
}
