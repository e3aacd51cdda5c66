/**
 * Requests the gateway must refuse as the client's fault, over raw sockets (node:net): a request target that does not
 * parse as a URL (`http://[::1`, `//[`), on REST and on the MQTT WebSocket upgrade, and the WebSocket handshakes ws
 * would refuse with its own text/html answer. Each gets the JSON error body (400, or 405 for a method other than GET)
 * and nothing is quiet.logged as an unexpected error.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { quietGateway } from './harness.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends `head` (a request line and headers) as is and reads the answer until the server closes (or, `endOnData`, we
 * do).
 */
function raw(port: number, head: string, endOnData = false): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    socket.on('data', (d: Buffer) => {
      parts.push(d);
      if (endOnData) socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const [top, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = top!.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(`${head}\r\n\r\n`);
    setTimeout(() => socket.end(), 2000).unref();
  });
}

const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const upgrade = (target: string, headers: Record<string, string> = {}, method = 'GET'): string => {
  const all: Record<string, string> = {
    Host: 'gw',
    Connection: 'Upgrade',
    Upgrade: 'websocket',
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Key': KEY,
    ...headers,
  };
  return [
    `${method} ${target} HTTP/1.1`,
    ...Object.entries(all)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${v}`),
  ].join('\r\n');
};

function expectJsonError(a: RawAnswer, status: number, message: RegExp): void {
  expect(a.status).to.equal(status);
  expect(a.headers['content-type']).to.equal('application/json; charset=utf-8');
  const body = JSON.parse(a.body) as { error: { code: number; message: string } };
  expect(body.error.code).to.equal(status);
  expect(body.error.message).to.match(message);
}

describe('gateway: malformed request targets and WebSocket handshakes', function () {
  this.timeout(20_000);
  const quiet = quietGateway();

  it('REST: a target that does not parse is a 400 with the JSON body', async () => {
    for (const target of ['http://[::1', 'http://[::1]:99999/api/core/v2/info', `http://${'%'.repeat(300)}/`]) {
      const a = await raw(quiet.gw.port, `GET ${target} HTTP/1.1\r\nHost: gw\r\nConnection: close`);
      expectJsonError(a, 400, /^invalid data provided: malformed request target "/);
    }
    const long = await raw(quiet.gw.port, `GET http://[${'1'.repeat(300)} HTTP/1.1\r\nHost: gw\r\nConnection: close`);
    expect(JSON.parse(long.body).error.message.length).to.be.below(160);
  });

  it('REST: a well-formed absolute-form target is served as before', async () => {
    const a = await raw(
      quiet.gw.port,
      `GET http://[::1]:1/api/core/v2/blocks/0x12 HTTP/1.1\r\nHost: gw\r\nConnection: close`,
    );
    expectJsonError(a, 400, /^invalid data provided: invalid block ID: 0x12/);
  });

  it('MQTT upgrade: a target that does not parse is a 400 with the JSON body', async () => {
    for (const target of ['//[', 'http://[::1']) {
      expectJsonError(
        await raw(quiet.gw.port, upgrade(target)),
        400,
        /^invalid data provided: malformed request target "/,
      );
    }
  });

  it('MQTT upgrade: handshakes ws would refuse get the JSON body', async () => {
    const path = '/api/mqtt/v1';
    expectJsonError(await raw(quiet.gw.port, upgrade(path, { 'Sec-WebSocket-Key': '' })), 400, /Sec-WebSocket-Key/);
    expectJsonError(
      await raw(quiet.gw.port, upgrade(path, { 'Sec-WebSocket-Key': 'short' })),
      400,
      /Sec-WebSocket-Key/,
    );
    expectJsonError(await raw(quiet.gw.port, upgrade(path, { Upgrade: 'h2c' })), 400, /Upgrade: websocket/);
    const version = await raw(quiet.gw.port, upgrade(path, { 'Sec-WebSocket-Version': '7' }));
    expectJsonError(version, 400, /Sec-WebSocket-Version/);
    expect(version.headers['sec-websocket-version']).to.equal('13, 8');
    const post = await raw(quiet.gw.port, upgrade(path, { 'Content-Length': '0' }, 'POST'));
    expectJsonError(post, 405, /method POST is not allowed/);
    expect(post.headers.allow).to.equal('GET');
    // what only ws checks (a malformed subprotocol list): the JSON body too
    expectJsonError(
      await raw(quiet.gw.port, upgrade(path, { 'Sec-WebSocket-Protocol': 'mqtt,,' })),
      400,
      /Sec-WebSocket-Protocol/,
    );
  });

  it('MQTT upgrade: a good handshake is still accepted', async () => {
    const a = await raw(quiet.gw.port, upgrade('/api/mqtt/v1', { 'Sec-WebSocket-Protocol': 'mqtt' }), true);
    expect(a.status).to.equal(101);
  });
});
