/** One keep-alive HTTP client for the load benchmarks: a request as a promise of status and text. */
import { Agent, request as httpRequest } from 'node:http';

export interface HttpClient {
  call(
    method: string,
    path: string,
    body?: Uint8Array | string,
    type?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; text: string }>;
  close(): void;
}

export function httpClient(base: string, sockets: number): HttpClient {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  return {
    call: (method, path, body, type, extra = {}) =>
      new Promise((resolve, reject) => {
        const headers =
          body === undefined ? extra : { ...extra, 'content-type': type!, 'content-length': Buffer.byteLength(body) };
        const req = httpRequest(`${base}${path}`, { method, agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        });
        req.on('error', reject);
        if (body !== undefined) req.write(body);
        req.end();
      }),
    close: () => agent.destroy(),
  };
}

/** The p-th percentile (nearest rank) of `xs`. */
export const percentile = (xs: readonly number[], p: number): number =>
  xs.length === 0 ? NaN : xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
