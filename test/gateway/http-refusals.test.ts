/**
 * Requests Node's HTTP layer refuses before the app sees them (gateway/http-refusals.ts), over raw sockets
 * (node:net): headers over maxHeaderSize (431), CONNECT (405), an invalid method token, a NUL in the request line, a
 * bad header line, an invalid chunked body (400), no Host (400), an unsupported Expect (417) and a request that does
 * not arrive in time (408). Each answers the REST error body `{"error":{"code":<status>,...}}` as JSON with
 * Content-Length and `Connection: close`; the server still serves afterwards, the MQTT upgrade included, and the
 * /metrics listeners (the gateway's and the node's) answer the same way.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import { createHttpServer, serveMetrics } from '../../gateway/index.ts';
import { quietGateway } from './harness.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `request` as is and reads the answer until the server closes; we close when the server ends its side (or,
 * `endOnData`, on the first bytes).
 */
function raw(port: number, request: string, endOnData = false): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    socket.on('data', (d: Buffer) => {
      parts.push(d);
      if (endOnData) socket.destroy();
    });
    socket.on('end', () => socket.end());
    // a reset after the answer (the server stops reading a refused request) leaves what was read
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const cut = text.indexOf('\r\n\r\n');
      const [statusLine, ...lines] = text.slice(0, cut < 0 ? text.length : cut).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: cut < 0 ? '' : text.slice(cut + 4) });
    });
    socket.write(request);
  });
}

function expectJsonError(a: RawAnswer, status: number, message: RegExp): void {
  expect(a.status, a.body).to.equal(status);
  expect(a.headers['content-type']).to.match(/^application\/json\b/);
  expect(a.headers.connection).to.equal('close');
  expect(Number(a.headers['content-length'])).to.equal(Buffer.byteLength(a.body));
  const body = JSON.parse(a.body) as { error: { code: number; message: string } };
  expect(body.error.code).to.equal(status);
  expect(body.error.message).to.match(message);
}

const BIG_HEADER = `GET /api/routes HTTP/1.1\r\nHost: gw\r\nAuthorization: Bearer ${'a'.repeat(64 * 1024)}\r\n\r\n`;
const CONNECT = 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n';

describe("gateway: the HTTP layer's own refusals answer the JSON error body", function () {
  this.timeout(10_000);
  const quiet = quietGateway({ metricsPort: 0 });

  it('headers over maxHeaderSize (a 64 KiB Authorization header): 431 naming the limit', async () => {
    expectJsonError(
      await raw(quiet.gw.port, BIG_HEADER),
      431,
      /^invalid data provided: request header fields too large: .* 16 KiB$/,
    );
  });

  it('CONNECT: 405 with the methods of the API in Allow', async () => {
    const a = await raw(quiet.gw.port, CONNECT);
    expectJsonError(a, 405, /method CONNECT is not allowed/);
    expect(a.headers.allow).to.equal('GET, HEAD, POST, OPTIONS');
  });

  it('parse errors: 400 naming what was wrong, quoting nothing of the request', async () => {
    const cases: [string, RegExp][] = [
      ['FOO / HTTP/1.1\r\nHost: gw\r\n\r\n', /invalid method token .*\(HPE_INVALID_METHOD\)$/],
      ['FOO BAR\r\n\r\n', /\(HPE_INVALID_METHOD\)$/],
      ['GET /a\0b HTTP/1.1\r\nHost: gw\r\n\r\n', /invalid character in the request target \(HPE_INVALID_URL\)$/],
      ['GET / HTTP/1.1\r\nHost: gw\r\nBad Header: x\r\n\r\n', /invalid header token \(HPE_INVALID_HEADER_TOKEN\)$/],
      ['GET / HTTP/1.1\r\nHost: gw\r\nX-A: a\x01b\r\n\r\n', /\(HPE_INVALID_HEADER_TOKEN\)$/],
      [
        'GET / HTTP/1.1\r\nHost: gw\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
        /\(HPE_UNEXPECTED_CONTENT_LENGTH\)$/,
      ],
    ];
    for (const [request, message] of cases) {
      const a = await raw(quiet.gw.port, request);
      expectJsonError(a, 400, /^invalid data provided: malformed HTTP request: /);
      expect(JSON.parse(a.body).error.message).to.match(message);
      expect(a.body).to.not.match(/FOO|BAR|Bad Header|a\\u0001b/);
    }
  });

  it('an invalid chunked body: 400, though the app already has the request', async () => {
    const head =
      'POST /api/core/v2/blocks HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked';
    const a = await raw(quiet.gw.port, `${head}\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`);
    expectJsonError(a, 400, /invalid character in chunk size \(HPE_INVALID_CHUNK_SIZE\)$/);
  });

  it('an HTTP/1.1 request without Host: 400; an Expect other than 100-continue: 417', async () => {
    expectJsonError(await raw(quiet.gw.port, 'GET /api/routes HTTP/1.1\r\n\r\n'), 400, /needs a Host header/);
    expectJsonError(
      await raw(quiet.gw.port, 'GET /api/routes HTTP/1.1\r\nHost: gw\r\nExpect: magic\r\n\r\n'),
      417,
      /Expect/,
    );
    // HTTP/1.0 has no Host rule
    expect((await raw(quiet.gw.port, 'GET /api/routes HTTP/1.0\r\n\r\n')).status).to.equal(200);
  });

  it('still serves requests and the MQTT upgrade afterwards', async () => {
    const a = await raw(quiet.gw.port, 'GET /api/routes HTTP/1.1\r\nHost: gw\r\nConnection: close\r\n\r\n');
    expect(a.status).to.equal(200);
    expect(JSON.parse(a.body).routes).to.be.an('array');
    const ws = [
      'Connection: Upgrade',
      'Upgrade: websocket',
      'Sec-WebSocket-Version: 13',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    ];
    const upgrade =
      `GET /api/mqtt/v1 HTTP/1.1\r\nHost: gw\r\n${ws.join('\r\n')}\r\n` + 'Sec-WebSocket-Protocol: mqtt\r\n\r\n';
    expect((await raw(quiet.gw.port, upgrade, true)).status).to.equal(101);
  });

  it("the gateway's /metrics listener answers the same way (Allow: GET)", async () => {
    const port = quiet.gw.metricsPort!;
    expectJsonError(await raw(port, BIG_HEADER), 431, /16 KiB/);
    const a = await raw(port, CONNECT);
    expectJsonError(a, 405, /CONNECT/);
    expect(a.headers.allow).to.equal('GET');
    expectJsonError(await raw(port, 'FOO / HTTP/1.1\r\nHost: m\r\n\r\n'), 400, /HPE_INVALID_METHOD/);
    expect((await raw(port, 'GET /metrics HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n')).status).to.equal(200);
  });
});

describe('http-refusals beyond the gateway', () => {
  it("the /metrics listener (the node's and the gateway's) answers the same way", async () => {
    const metrics = await serveMetrics(new Registry(), '127.0.0.1', 0);
    try {
      const a = await raw(metrics.port, CONNECT);
      expectJsonError(a, 405, /CONNECT/);
      expect(a.headers.allow).to.equal('GET');
      expectJsonError(
        await raw(metrics.port, 'GET /metrics HTTP/1.1\r\nX: a\x01\r\n\r\n'),
        400,
        /HPE_INVALID_HEADER_TOKEN/,
      );
      expect(
        (await raw(metrics.port, 'GET /metrics HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n')).status,
      ).to.equal(200);
    } finally {
      await metrics.close();
    }
  });

  it('headers that do not arrive in time: 408 naming the limits; a larger maxHeaderSize is named', async () => {
    const server = createHttpServer((_req, res) => res.end('ok'), 'GET', {
      headersTimeout: 200,
      requestTimeout: 400,
      connectionsCheckingInterval: 50,
      maxHeaderSize: 20_000,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const slow = await raw(port, 'GET / HTTP/1.1\r\nHost: s\r\n');
      expectJsonError(
        slow,
        408,
        new RegExp(
          '^invalid data provided: request timeout: ' +
            'the headers must arrive within 0.2 s, the whole request within 0.4 s$',
        ),
      );
      expectJsonError(await raw(port, BIG_HEADER), 431, /exceed 20000 bytes$/);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
