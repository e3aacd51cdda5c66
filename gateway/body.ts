/**
 * Reads a request body with a size limit, by `raw-body`: 413 before reading when Content-Length already says too
 * much, 413 as soon as the streamed bytes pass the limit; what the client still sends after a 413 is read and
 * discarded (the stream is resumed), so the connection stays usable.
 */
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { HttpProblem } from './errors.ts';

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
