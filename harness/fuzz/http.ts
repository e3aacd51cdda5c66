/**
 * Fuzzing a running node over REST: the same mutated v2 (and, when the route is served, v3) blocks the core fuzz
 * tests feed the decoders, POSTed as binary and as JSON text, plus malformed HTTP (lying Content-Length, invalid
 * UTF-8, junk media types, oversized headers, garbage request lines). A node answer is good when it is 2xx, or 4xx
 * with the JSON error body `{"error":{"code":<status>,"message":"..."}}`; a 5xx, a malformed error body or a
 * dropped connection is a failure. Used by test/fuzz/node.test.ts and `scripts/fuzz.ts --node URL`.
 */
import { connect } from 'node:net';
import { generate, type Target } from './targets.ts';
import { Rng } from './mutate.ts';

export interface HttpCase {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

export type HttpVerdict = { ok: true; status: number } | { ok: false; status: number; reason: string };

const SERIALIZER = { v2: 'application/vnd.iota.serializer-v1', v3: 'application/vnd.iota.serializer-v2' };

/** The REST request for one generated input of a block target (v2 or v3, binary or JSON). */
export function blockCase(target: Target, seed: number): HttpCase {
  const v3 = target.name.startsWith('v3');
  const path = v3 ? '/api/core/v3/blocks' : '/api/core/v2/blocks';
  const input = generate(target, seed);
  if (input.bytes)
    return {
      label: `${target.name} seed ${seed} (${input.mutation})`,
      method: 'POST',
      path,
      headers: { 'content-type': v3 ? SERIALIZER.v3 : SERIALIZER.v2 },
      body: input.bytes,
    };
  const text = JSON.stringify(input.json) ?? 'null';
  return {
    label: `${target.name} seed ${seed} (${input.mutation})`,
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body: new TextEncoder().encode(text),
  };
}

/** Malformed requests at the HTTP level, as raw bytes on a socket (fetch would not send most of them). */
export function rawHttpCases(host: string): { label: string; raw: Uint8Array; halfClose?: boolean }[] {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  const post = (headers: string, body: Uint8Array | string): Uint8Array => {
    const b = typeof body === 'string' ? enc(body) : body;
    const head = enc(`POST /api/core/v2/blocks HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${headers}\r\n`);
    const out = new Uint8Array(head.length + b.length);
    out.set(head);
    out.set(b, head.length);
    return out;
  };
  const badUtf8 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]);
  return [
    {
      label: 'non-numeric Content-Length',
      raw: post('Content-Type: application/json\r\nContent-Length: abc\r\n', '{}'),
    },
    { label: 'negative Content-Length', raw: post('Content-Type: application/json\r\nContent-Length: -5\r\n', '{}') },
    {
      label: 'two different Content-Lengths',
      raw: post('Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n', '{}x'),
    },
    {
      label: 'Content-Length larger than the body (client closes)',
      raw: post('Content-Type: application/json\r\nContent-Length: 50\r\n', '{"protocolVersion":2}'),
      halfClose: true,
    },
    {
      label: 'Content-Length and chunked together',
      raw: post(
        'Content-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n',
        '2\r\n{}\r\n0\r\n\r\n',
      ),
    },
    {
      label: 'bad chunk size',
      raw: post('Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n', 'zz\r\n{}\r\n0\r\n\r\n'),
    },
    {
      label: 'invalid UTF-8 in a JSON body',
      raw: post(`Content-Type: application/json\r\nContent-Length: ${badUtf8.length}\r\n`, badUtf8),
    },
    { label: 'JSON with a BOM', raw: post('Content-Type: application/json\r\nContent-Length: 5\r\n', '\ufeff{}') },
    { label: 'junk media type', raw: post('Content-Type: ;;;/\u0001\r\nContent-Length: 2\r\n', '{}') },
    { label: 'no media type', raw: post('Content-Length: 2\r\n', '{}') },
    { label: 'text/plain body', raw: post('Content-Type: text/plain\r\nContent-Length: 2\r\n', '{}') },
    {
      label: 'empty binary body',
      raw: post('Content-Type: application/vnd.iota.serializer-v1\r\nContent-Length: 0\r\n', ''),
    },
    { label: 'JSON null', raw: post('Content-Type: application/json\r\nContent-Length: 4\r\n', 'null') },
    {
      label: 'JSON number beyond 2^64',
      raw: post(
        'Content-Type: application/json\r\nContent-Length: 30\r\n',
        '{"protocolVersion":1e400,"x":1}'.slice(0, 30),
      ),
    },
    {
      label: 'a 64 KiB header',
      raw: post(`Content-Type: application/json\r\nX-Junk: ${'a'.repeat(65536)}\r\nContent-Length: 2\r\n`, '{}'),
    },
    {
      label: '2000 headers',
      raw: post(
        `${Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 2\r\n`,
        '{}',
      ),
    },
    { label: 'garbage request line', raw: enc('\u0000\u0001GARBAGE / HTTP/9.9\r\n\r\n') },
    {
      label: 'unknown method',
      raw: enc(`BREW /api/core/v2/blocks HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    },
    {
      label: 'a 100 KiB URL',
      raw: enc(
        `GET /api/core/v2/blocks/0x${'ab'.repeat(50000)} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ),
    },
    {
      label: 'percent-encoding junk in the path',
      raw: enc(`GET /api/core/v2/blocks/%E0%A4%A HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    },
  ];
}

/**
 * Sends raw bytes and returns the status of the answer (0 when the server closed without one). The socket stays
 * open for the answer (a half-close would make the server drop an answer still in progress) unless `halfClose`.
 */
export function sendRaw(
  port: number,
  raw: Uint8Array,
  timeoutMs = 5000,
  halfClose = false,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('error', () => {}); // a reset after the answer is fine; the close handler decides
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(parts).toString('latin1');
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text });
    });
    socket.write(raw, () => {
      if (halfClose) socket.end();
    });
  });
}

/** Judges one answer: 2xx, or 4xx with the JSON error body. */
export async function judge(res: Response): Promise<HttpVerdict> {
  const status = res.status;
  const text = await res.text();
  if (status >= 200 && status < 300) return { ok: true, status };
  if (status >= 500) return { ok: false, status, reason: `server error ${status}: ${text.slice(0, 300)}` };
  if (status < 400) return { ok: false, status, reason: `unexpected status ${status}` };
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (body.error?.code === status && typeof body.error.message === 'string' && body.error.message.length > 0)
      return { ok: true, status };
  } catch {
    // fall through
  }
  return { ok: false, status, reason: `${status} without the JSON error body: ${text.slice(0, 200)}` };
}

/** POSTs one case to `baseUrl`; a dropped connection is a failure. */
export async function sendCase(baseUrl: string, c: HttpCase, timeoutMs = 30_000): Promise<HttpVerdict> {
  try {
    const res = await fetch(`${baseUrl}${c.path}`, {
      method: c.method,
      headers: c.headers,
      signal: AbortSignal.timeout(timeoutMs),
      ...(c.body ? { body: c.body } : {}),
    });
    return await judge(res);
  } catch (e) {
    return { ok: false, status: 0, reason: `request failed: ${(e as Error).message}` };
  }
}

/** Whether the node serves POST <path>: anything but 403/404/405 for an empty body means the route exists. */
export async function servesPost(baseUrl: string, path: string, contentType: string): Promise<boolean> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: new Uint8Array(0),
  });
  await res.arrayBuffer();
  return ![403, 404, 405].includes(res.status);
}

/** A seed sequence from one master seed. */
export function seeds(master: number, n: number): number[] {
  const rng = new Rng(master);
  return Array.from({ length: n }, () => rng.int(0x7fffffff));
}
