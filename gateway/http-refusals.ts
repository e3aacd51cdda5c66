/**
 * The HTTP server's own refusals, with the REST error body. Node's HTTP layer answers some requests before the app
 * sees them, with a bare status line and no body: a parse error (a malformed request line, an invalid method token,
 * bad header characters, invalid chunked encoding: 400; headers over the server's maxHeaderSize: 431; chunk
 * extensions over Node's limit: 413; a request not received within headersTimeout / requestTimeout: 408), an HTTP/1.1
 * request without Host (400), an Expect other than 100-continue (417); and it closes a CONNECT with no answer at all.
 * Here each of them answers `{"error":{"code":<status>,"message":"..."}}` (errors.ts) with Content-Type,
 * Content-Length and `Connection: close`, and the connection closes after it:
 *   * 'clientError' (parse errors, timeouts): the answer is written by hand on the socket, once, and only while the
 *     socket is writable and no response on it has sent its head (else it would splice into that response); a reset
 *     or closed socket is destroyed;
 *   * 'connect': 405 with the methods the server serves in Allow (this is no proxy);
 *   * 'checkExpectation': 417;
 *   * the Host check: Node's own writes its bare 400 itself, so createHttpServer turns it off and checks in the
 *     request handler.
 * The messages name what was wrong from the parser's error code and its fixed reason text, never the client's bytes.
 */
import {
  createServer,
  maxHeaderSize as defaultMaxHeaderSize,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpProblem, toRestAnswer } from './errors.ts';
import { JSON_CONTENT_TYPE } from './media.ts';

/** How long a refused connection stays open for the client to read the answer and close; then it is destroyed. */
const LINGER_MS = 5_000;

/** The status line, headers and body of the REST error answer for `problem`, as one HTTP/1.1 response. */
export function rawRefusal(problem: HttpProblem): string {
  const answer = toRestAnswer(problem);
  const body = JSON.stringify(answer.body);
  const extra = Object.entries(answer.headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return (
    `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? ''}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`
  );
}

/**
 * Answers `problem` on a socket no ServerResponse writes to and ends it. What the client still sends is read and
 * dropped (unread bytes would make the close a reset, which can discard the answer before the client reads it);
 * a client that does not close within LINGER_MS is cut off.
 */
function refuseOnSocket(socket: Duplex, problem: HttpProblem): void {
  socket.on('error', () => socket.destroy());
  const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.resume();
  socket.end(rawRefusal(problem));
}

/** The REST error answer for `problem` through a ServerResponse whose head is not sent yet. */
function refuseOnResponse(res: ServerResponse, problem: HttpProblem): void {
  const answer = toRestAnswer(problem);
  const body = JSON.stringify(answer.body);
  const headers = { 'Content-Type': JSON_CONTENT_TYPE, 'Content-Length': Buffer.byteLength(body), Connection: 'close' };
  res.writeHead(answer.status, { ...answer.headers, ...headers }).end(body);
}

/** 16384 -> "16 KiB"; sizes that are not whole KiB in bytes. */
function sizeText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}

/** The parser's error: `code` (HPE_* from llhttp, ERR_HTTP_REQUEST_TIMEOUT, or a socket's errno code), `reason`. */
type ClientError = Error & { code?: string; reason?: unknown; syscall?: string };

/** Clearer words than llhttp's reason text where that says little. */
const PARSE_REASONS: Readonly<Record<string, string>> = {
  HPE_INVALID_METHOD: 'invalid method token in the request line',
  HPE_INVALID_URL: 'invalid character in the request target',
  HPE_INVALID_EOF_STATE: 'the client ended the connection in the middle of a request',
  HPE_PAUSED_H2_UPGRADE: 'an HTTP/2 connection preface; this port speaks HTTP/1.1',
};

/**
 * llhttp's reason (a fixed text of the parser, e.g. "Invalid character in chunk size"), kept to printable ASCII and
 * 100 characters all the same, since it is echoed to the client.
 */
function parserReason(reason: unknown): string | undefined {
  if (typeof reason !== 'string') return undefined;
  const text = reason
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 100);
  return text === '' ? undefined : text[0]!.toLowerCase() + text.slice(1);
}

/** What the server says about `err`: 431, 413 and 408 for their parser errors, 400 for any other. */
function parserProblem(server: Server, err: ClientError): HttpProblem {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW': {
      // the server's maxHeaderSize option (untyped on Server; absent or 0: Node's default, as its parser takes it)
      const limit = sizeText((server as Server & { maxHeaderSize?: number }).maxHeaderSize || defaultMaxHeaderSize);
      return new HttpProblem(431, `request header fields too large: the request line and headers exceed ${limit}`);
    }
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new HttpProblem(413, 'chunk extensions too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT': {
      const headers = `the headers must arrive within ${server.headersTimeout / 1000} s`;
      const whole = server.requestTimeout > 0 ? `, the whole request within ${server.requestTimeout / 1000} s` : '';
      return new HttpProblem(408, `request timeout: ${headers}${whole}`);
    }
  }
  const code = err.code !== undefined && /^HPE_[A-Z0-9_]{1,40}$/.test(err.code) ? err.code : undefined;
  const reason = (code !== undefined ? PARSE_REASONS[code] : undefined) ?? parserReason(err.reason) ?? 'unparsable';
  return new HttpProblem(400, `malformed HTTP request: ${reason}${code !== undefined ? ` (${code})` : ''}`);
}

/**
 * Answers the HTTP layer's refusals on `server` with the JSON error body: parse errors and timeouts ('clientError'),
 * CONNECT (405, `allowedMethods` in Allow, e.g. "GET, HEAD, POST, OPTIONS") and unsupported Expect values (417).
 * A request without Host still gets Node's bare 400 unless the server is made by createHttpServer.
 */
export function installHttpRefusals(server: Server, allowedMethods: string): void {
  // Sockets answered already: the parser reports its error again for every later chunk of the refused request.
  const answered = new WeakSet<Duplex>();
  server.on('clientError', (err: ClientError, socket: Duplex) => {
    if (answered.has(socket)) return;
    // The response in flight on the socket (Node's own test before its bare answer; only internals tell it).
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code === 'ECONNRESET' || err.syscall !== undefined || !socket.writable || inFlight?.headersSent === true) {
      socket.destroy();
      return;
    }
    answered.add(socket);
    refuseOnSocket(socket, parserProblem(server, err));
  });
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    const reason = 'method CONNECT is not allowed: this server is no proxy';
    refuseOnSocket(socket, new HttpProblem(405, reason, { Allow: allowedMethods }));
  });
  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    refuseOnResponse(res, new HttpProblem(417, 'expectation failed: the only Expect value served is 100-continue'));
  });
}

/**
 * An HTTP server for `handler` with installHttpRefusals, which also answers an HTTP/1.1 request without Host
 * (RFC 9112 §3.2: 400) with the JSON error body instead of Node's bare one.
 */
export function createHttpServer(
  handler: RequestListener,
  allowedMethods: string,
  options: ServerOptions = {},
): Server {
  const server = createServer({ ...options, requireHostHeader: false }, (req, res) => {
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
      refuseOnResponse(res, new HttpProblem(400, 'an HTTP/1.1 request needs a Host header'));
    } else handler(req, res);
  });
  installHttpRefusals(server, allowedMethods);
  return server;
}
