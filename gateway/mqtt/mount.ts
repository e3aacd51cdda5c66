/**
 * The TIP-28 event API on a gateway's HTTP server: MQTT over WebSocket at `/api/mqtt/v1` (docs/decisions.md §22),
 * mounted on the server's 'upgrade' (ws in noServer mode; aedes reads the WebSocket as a stream). The gateway follows
 * the node's events (node-events.ts) and the fan-out publishes them (publisher.ts, fanout.ts); the node holds every
 * state, the gateway none.
 *
 * The upgrade is checked before the WebSocket handshake, with the REST rules and the JSON error body of REST:
 *   * a request target that does not parse as a URL: 400; another path: 404;
 *   * a handshake ws would refuse (not GET: 405; no `Upgrade: websocket`, a bad Sec-WebSocket-Key or
 *     Sec-WebSocket-Version: 400), checked here so that the refusal has the JSON body too (and ws' own refusals too);
 *   * a path the access lists hide: 403; a protected path (JWT configured, access.ts): a bearer
 *     token in the upgrade's Authorization header, or else in the CONNECT password (broker.ts);
 *   * more than `maxConnections` connections, or more than `maxConnectionsPerIp` from one address (loopback exempt,
 *     as with the rate limit, for a local reverse proxy): 503.
 * Once accepted, a connection is bounded by:
 *   * `maxPacketBytes`: an MQTT packet announcing a longer remaining length (PUBLISH included: clients never need to
 *     publish) terminates the connection at its fixed header, before aedes buffers any of it (packet-guard.ts);
 *   * `pingIntervalMs`: a WebSocket ping every interval; a connection that did not answer the previous one (a half-open
 *     TCP connection, a vanished client) is terminated, i.e. within one to two intervals. This holds whatever the
 *     client's MQTT keepalive: aedes enforces that one only when it is not 0 (1.5 times it), and a client may send 0;
 *   * aedes' connect timeout (broker.ts): no CONNECT within 10 s, closed.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { createWebSocketStream, WebSocketServer, type WebSocket } from 'ws';
import type { EventsPort, NodePort } from '../../src/grpc/port.ts';
import { classifier, type AccessOptions } from '../access.ts';
import { HttpProblem, malformedTarget } from '../errors.ts';
import { rawRefusal } from '../http-refusals.ts';
import { jwtKey, verifyJwt, type JwtKey } from '../jwt.ts';
import { isLoopback } from '../rate-limit.ts';
import { EventBroker, type MqttConnection } from './broker.ts';
import { Fanout } from './fanout.ts';
import { followEvents, type Following } from './node-events.ts';
import { PacketGuard, PacketScanner } from './packet-guard.ts';
import { publishEvent } from './publisher.ts';

export const MQTT_PATH = '/api/mqtt/v1';

export interface MqttLimits {
  /** WebSocket connections at once. */
  maxConnections: number;
  /** Connections from one IP address (loopback addresses exempt). */
  maxConnectionsPerIp: number;
  /** Topic filters one connection may follow (more are refused with 0x80). */
  maxSubscriptions: number;
  /** Bytes a connection may leave unsent before it is cut off (a slow subscriber). */
  maxBufferedBytes: number;
  /**
   * Longest MQTT packet a client may send, as its remaining length (the bytes after the fixed header); a longer one
   * terminates the connection. A CONNECT (with a JWT), SUBSCRIBE or UNSUBSCRIBE of real clients is far smaller.
   */
  maxPacketBytes: number;
  /** Milliseconds between WebSocket pings; a connection that leaves one unanswered until the next is terminated. */
  pingIntervalMs: number;
}

export const DEFAULT_MQTT_LIMITS: Readonly<MqttLimits> = Object.freeze({
  maxConnections: 10_000,
  maxConnectionsPerIp: 100,
  maxSubscriptions: 1000,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxPacketBytes: 64 * 1024,
  pingIntervalMs: 30_000,
});

/** Largest WebSocket message, at least one whole packet of `maxPacketBytes` with its fixed header. */
const MIN_MAX_PAYLOAD = 64 * 1024;
const FIXED_HEADER_BYTES = 5;

export interface MountOptions extends AccessOptions {
  node: NodePort;
  /** The node's events (node-events.ts follows them). */
  events: EventsPort;
  limits?: Partial<MqttLimits>;
  /** Deadline of the node calls made on subscribe. */
  timeoutMs: number;
  log: (message: string, err?: unknown) => void;
}

export interface MqttStats {
  connections: number;
  topics: number;
  delivered: number;
  cutOff: number;
  refusedSubscriptions: number;
  refusedPublishes: number;
  /** Connections terminated for a packet over `maxPacketBytes`, and for an unanswered ping. */
  oversizedPackets: number;
  unansweredPings: number;
  eventsOpen: boolean;
}

export interface MountedMqtt {
  stats(): MqttStats;
  /** Closes every connection and stops following the node's events. */
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, reason: string, headers: Record<string, string> = {}): void {
  socket.end(rawRefusal(new HttpProblem(status, reason, headers)));
}

interface Refusal {
  status: number;
  reason: string;
  headers?: Record<string, string>;
}

/** What ws' handleUpgrade would refuse (RFC 6455 §4.2.1, the same tests), as a refusal with the JSON body. */
function handshakeRefusal(req: IncomingMessage): Refusal | undefined {
  if (req.method !== 'GET')
    return {
      status: 405,
      reason: `method ${req.method} is not allowed for a WebSocket upgrade`,
      headers: { Allow: 'GET' },
    };
  if (req.headers.upgrade?.toLowerCase() !== 'websocket')
    return { status: 400, reason: 'a WebSocket upgrade needs the header "Upgrade: websocket"' };
  if (!/^[+/0-9A-Za-z]{22}==$/.test(req.headers['sec-websocket-key'] ?? ''))
    return { status: 400, reason: 'missing or invalid Sec-WebSocket-Key header' };
  const version = Number(req.headers['sec-websocket-version']);
  if (version !== 13 && version !== 8)
    return {
      status: 400,
      reason: 'missing or invalid Sec-WebSocket-Version header',
      headers: { 'Sec-WebSocket-Version': '13, 8' },
    };
  return undefined;
}

function bearer(header: string | undefined): string | undefined {
  return /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

export async function mountMqtt(server: Server, options: MountOptions): Promise<MountedMqtt> {
  const limits: MqttLimits = { ...DEFAULT_MQTT_LIMITS, ...options.limits };
  const classify = classifier(options);
  const secret = options.jwtSecret === undefined || options.jwtSecret.length === 0 ? undefined : options.jwtSecret;
  let key: Promise<JwtKey> | undefined;
  const keyOf = (): Promise<JwtKey> | undefined => {
    if (secret === undefined) return undefined;
    key ??= jwtKey(secret);
    return key;
  };
  let hrp: string | undefined;
  const fanout = new Fanout({
    maxBufferedBytes: limits.maxBufferedBytes,
    onCutOff: (c, bytes) => options.log(`MQTT subscriber ${(c as MqttConnection).ip} cut off: ${bytes} bytes unsent`),
  });
  const broker = await EventBroker.create({
    fanout,
    node: options.node,
    hrp: () => hrp,
    jwtKey: keyOf,
    maxSubscriptions: limits.maxSubscriptions,
    timeoutMs: options.timeoutMs,
  });
  const wss = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: Math.max(MIN_MAX_PAYLOAD, limits.maxPacketBytes + FIXED_HEADER_BYTES),
  });
  // Whatever else ws refuses (a malformed Sec-WebSocket-Protocol): the JSON body too.
  wss.on('wsClientError', (err: Error, socket: Duplex) => refuse(socket, 400, err.message));
  const perIp = new Map<string, number>();
  let connections = 0;
  let oversizedPackets = 0;
  let unansweredPings = 0;
  /** Each open connection: whether it answered the last ping. */
  const alive = new Map<WebSocket, boolean>();
  const pinger = setInterval(() => {
    for (const [ws, answered] of alive) {
      if (!answered) {
        unansweredPings++;
        alive.delete(ws);
        ws.terminate();
      } else {
        alive.set(ws, false);
        ws.ping();
      }
    }
  }, limits.pingIntervalMs);
  pinger.unref();

  const following: Following = followEvents(options.events, {
    onBatch: (batch) => {
      for (const e of batch.events) publishEvent(fanout, e);
    },
    onOpen: () => {
      options.node.getInfo({}, { deadline: Date.now() + options.timeoutMs }).then(
        (info) => (hrp = info.protocol?.bech32Hrp || hrp),
        () => undefined,
      );
    },
    log: (message) => options.log(message),
  });

  const accept = (ws: WebSocket, req: IncomingMessage, ip: string, needsToken: boolean): void => {
    connections++;
    if (!isLoopback(ip)) perIp.set(ip, (perIp.get(ip) ?? 0) + 1);
    const connection: MqttConnection = {
      ws,
      ip,
      needsToken,
      topics: new Set(),
      outbox: [],
      outboxBytes: 0,
      closed: false,
      granted: new Map(),
    };
    alive.set(ws, true);
    ws.on('pong', () => {
      if (alive.has(ws)) alive.set(ws, true);
    });
    const stream = new PacketGuard(
      createWebSocketStream(ws),
      new PacketScanner(limits.maxPacketBytes),
      () => oversizedPackets++,
    );
    const client = broker.attach(stream, req, connection);
    ws.once('close', () => {
      alive.delete(ws);
      connections--;
      const n = (perIp.get(ip) ?? 1) - 1;
      if (n > 0) perIp.set(ip, n);
      else perIp.delete(ip);
      broker.detach(client);
    });
  };

  const upgrade = async (req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> => {
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://gateway').pathname;
    } catch {
      const problem = malformedTarget(req.url ?? '');
      return refuse(socket, problem.status, problem.message);
    }
    if (path !== MQTT_PATH) return refuse(socket, 404, `no route ${path} for a WebSocket upgrade`);
    const refusal = handshakeRefusal(req);
    if (refusal !== undefined) return refuse(socket, refusal.status, refusal.reason, refusal.headers);
    const access = classify(path);
    if (access === 'hidden') return refuse(socket, 403, `route ${path} is not exposed`);
    let needsToken = false;
    if (access === 'protected') {
      const k = keyOf();
      if (k === undefined) return refuse(socket, 403, `route ${path} is protected and this gateway accepts no tokens`);
      const token = bearer(req.headers.authorization);
      if (token === undefined) needsToken = true;
      else {
        const result = await verifyJwt(token, await k);
        if (!result.ok) return refuse(socket, 403, `route ${path} is protected: ${result.reason}`);
      }
    }
    const ip = req.socket.remoteAddress ?? '';
    if (connections >= limits.maxConnections)
      return refuse(socket, 503, `too many MQTT connections (at most ${limits.maxConnections})`);
    if (!isLoopback(ip) && (perIp.get(ip) ?? 0) >= limits.maxConnectionsPerIp) {
      return refuse(socket, 503, `too many MQTT connections from ${ip} (at most ${limits.maxConnectionsPerIp})`);
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, req, ip, needsToken));
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    upgrade(req, socket, head).catch((err: unknown) => {
      options.log('MQTT upgrade failed', err);
      refuse(socket, 500, 'the WebSocket upgrade failed');
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    stats: () => ({
      connections,
      topics: fanout.topicCount,
      delivered: fanout.delivered,
      cutOff: fanout.cutOff,
      refusedSubscriptions: broker.refusedSubscriptions,
      refusedPublishes: broker.refusedPublishes,
      oversizedPackets,
      unansweredPings,
      eventsOpen: following.open,
    }),
    async close() {
      server.off('upgrade', onUpgrade);
      clearInterval(pinger);
      following.close();
      for (const ws of wss.clients) ws.terminate();
      await broker.close();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
