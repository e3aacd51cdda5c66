/**
 * Reads a request body with a size limit: 413 before reading when Content-Length already says too much, 413 as
 * soon as the streamed bytes pass the limit (the rest is left to Node's HTTP server, which discards it).
 */
import type { IncomingMessage } from 'node:http';
import { HttpProblem } from './errors.ts';

/** Hornet's (echo's) default: 1 MiB. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

function tooLarge(limit: number): HttpProblem {
  return new HttpProblem(413, `request body exceeds the limit of ${limit} bytes`);
}

export async function readBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  return new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err?: Error): void => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(new Uint8Array(Buffer.concat(chunks, size)));
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = (): void => finish();
    const onError = (err: Error): void => finish(new HttpProblem(400, `request body could not be read: ${err.message}`));
    const onClose = (): void => finish(new HttpProblem(400, 'request body incomplete: the client closed the connection'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.once('close', onClose);
  });
}
