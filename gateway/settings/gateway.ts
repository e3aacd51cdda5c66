/**
 * The REST gateway's settings, declared once (kit.ts): those of `ledger-node gateway` alone (how it reaches the node,
 * where it listens) and those it shares with `ledger-node run`, which serves the same gateway in the node's process
 * (REST port, rate limit, JSON depth, event API limits, metrics listener). `limitOptions` turns the shared values into
 * the gateway's options, for both commands, and `checkShared` holds the rules between them.
 */
import { DEFAULT_BODY_LIMIT_BYTES } from '../body.ts';
import { DEFAULT_MAX_JSON_DEPTH } from '../json-guard.ts';
import { DEFAULT_MQTT_LIMITS, type MqttLimits } from '../mqtt/mount.ts';
import { NODE_TRANSPORTS } from '../node-client.ts';
import type { RateLimitOptions } from '../rate-limit.ts';
import { DEFAULT_REST_PORT } from '../server.ts';
import {
  bool,
  file,
  host,
  int,
  listOf,
  oneOf,
  port,
  positive,
  rate,
  seconds,
  setting,
  text,
  type ValuesOf,
  type ValueType,
} from './kit.ts';

const BOTH = ['run', 'gateway'] as const;
const GATEWAY = ['gateway'] as const;

/** A `host:port` address. */
const hostPort: ValueType<string> = {
  name: 'host:port',
  arg: 'HOST:PORT',
  expected: 'HOST:PORT',
  parse: (raw) => (typeof raw === 'string' && /^.+:\d+$/.test(raw) ? raw : undefined),
};

/** The settings of both commands: the REST door's port and the abuse limits and metrics of the gateway. */
export const REST_PORT = setting({
  key: 'restPort',
  type: port,
  default: DEFAULT_REST_PORT,
  description: 'port of the REST and event API door (0 = any free port)',
  commands: BOTH,
});

export const LIMIT_SETTINGS = [
  setting({
    key: 'rateLimit',
    type: rate,
    defaultText: 'off',
    description:
      'per-client REST rate limit in requests per second (token ' +
      'bucket; 0.5 = one request every 2 s); 429 with Retry-After beyond it',
    commands: BOTH,
  }),
  setting({
    key: 'rateBurst',
    type: positive,
    defaultText: 'the rate rounded up',
    description: 'requests a client may make at once (needs --rate-limit)',
    commands: BOTH,
  }),
  setting({
    key: 'rateLimitLoopback',
    type: bool,
    defaultText: 'false',
    description: 'apply the rate limit to loopback clients too (needs --rate-limit)',
    commands: BOTH,
  }),
  setting({
    key: 'maxJsonDepth',
    type: positive,
    defaultText: String(DEFAULT_MAX_JSON_DEPTH),
    description: 'deepest JSON nesting of a submitted block (400 beyond)',
    commands: BOTH,
  }),
  setting({
    key: 'mqttMaxConnections',
    type: positive,
    defaultText: String(DEFAULT_MQTT_LIMITS.maxConnections),
    description: 'event API (MQTT over WebSocket at /api/mqtt/v1 on the REST port): connections at once',
    commands: BOTH,
  }),
  setting({
    key: 'mqttMaxConnectionsPerIp',
    type: positive,
    defaultText: String(DEFAULT_MQTT_LIMITS.maxConnectionsPerIp),
    description: 'event API connections from one address; loopback exempt',
    commands: BOTH,
  }),
  setting({
    key: 'mqttMaxSubscriptions',
    type: positive,
    defaultText: String(DEFAULT_MQTT_LIMITS.maxSubscriptions),
    description: 'topics one event API connection may follow',
    commands: BOTH,
  }),
  setting({
    key: 'mqttMaxBufferedBytes',
    type: positive,
    defaultText: String(DEFAULT_MQTT_LIMITS.maxBufferedBytes),
    description: 'unsent bytes after which a slow event subscriber is cut off',
    commands: BOTH,
  }),
  setting({
    key: 'mqttMaxPacketBytes',
    type: positive,
    defaultText: String(DEFAULT_MQTT_LIMITS.maxPacketBytes),
    description:
      'longest MQTT packet a client may send; a longer one ' +
      'closes its connection (a CONNECT with a JWT needs about 1 KB)',
    commands: BOTH,
  }),
  setting({
    key: 'mqttPingInterval',
    type: seconds,
    defaultText: String(DEFAULT_MQTT_LIMITS.pingIntervalMs / 1000),
    description: 'seconds between WebSocket pings; a connection that leaves one unanswered is closed',
    commands: BOTH,
  }),
] as const;

/** A route pattern of the access lists (access.ts): an absolute path, `*` for any run of characters. */
const routePatternType: ValueType<string> = {
  name: 'route pattern',
  arg: 'PATTERN',
  expected: 'a path starting with / (with * as a wildcard), like /api/indexer/v1/*',
  parse: (raw) => (typeof raw === 'string' && /^\/[\x21-\x7e]*$/.test(raw) ? raw : undefined),
};

/**
 * Who may call which route (access.ts), as Hornet's `restAPI.publicRoutes` / `protectedRoutes`: each list, when given,
 * replaces its default (DEFAULT_PUBLIC_ROUTES, DEFAULT_PROTECTED_ROUTES); public wins where both match; a path in
 * neither stays 403.
 */
export const ACCESS_SETTINGS = [
  setting({
    key: 'publicRoutes',
    flag: 'public-route',
    type: listOf(routePatternType),
    defaultText: 'every route the gateway serves (docs/api.md)',
    description:
      'a route served to everyone; repeatable, the list replaces the default ' +
      '(a list in the config file; e.g. leave out /api/indexer/v1/* to make the indexer private)',
    commands: BOTH,
  }),
  setting({
    key: 'protectedRoutes',
    flag: 'protected-route',
    type: listOf(routePatternType),
    defaultText: '/api/*',
    description:
      'a route served with a valid JWT (--jwt-secret) when not public; repeatable, the list replaces the default',
    commands: BOTH,
  }),
] as const;

export type AccessValues = ValuesOf<typeof ACCESS_SETTINGS>;

/** The gateway's access options the access settings ask for (nothing for those not given), on both commands. */
export function accessOptions(v: AccessValues): { publicRoutes?: string[]; protectedRoutes?: string[] } {
  return {
    ...(v.publicRoutes !== undefined ? { publicRoutes: v.publicRoutes } : {}),
    ...(v.protectedRoutes !== undefined ? { protectedRoutes: v.protectedRoutes } : {}),
  };
}

export const METRICS_SETTINGS = [
  setting({
    key: 'metricsPort',
    type: port,
    defaultText: 'off',
    description: 'serve Prometheus metrics at http://HOST:N/metrics (0 = any free port)',
    commands: BOTH,
  }),
  setting({
    key: 'metricsHost',
    type: host,
    defaultText: '127.0.0.1',
    description: 'address of the metrics listener (needs --metrics-port)',
    commands: BOTH,
  }),
] as const;

/** The JWT secret of the protected REST routes; `run` reads it when LEDGER_NODE_JWT_SECRET is not set. */
export const JWT_SECRET = setting({
  key: 'jwtSecret',
  type: text,
  env: 'LEDGER_GATEWAY_JWT_SECRET',
  secret: true,
  description:
    'HS256 secret of the protected REST routes (none: they ' +
    'are closed); run reads it only without LEDGER_NODE_JWT_SECRET',
  commands: BOTH,
});

/** Every setting of the gateway, in the order of `ledger-node gateway --help`. */
export const GATEWAY_SETTINGS = [
  setting({
    key: 'node',
    type: hostPort,
    description: "the node's gRPC address, its node service door (required)",
    commands: GATEWAY,
  }),
  setting({
    key: 'nodeTlsCa',
    type: file,
    description: "PEM certificates (a CA, or the node's self-signed certificate) to reach the node's door over TLS",
    commands: GATEWAY,
  }),
  setting({
    key: 'nodeTransport',
    type: oneOf(NODE_TRANSPORTS),
    defaultText: 'mux',
    description:
      'how calls reach the node: mux (many calls as frames over long-lived gRPC ' +
      'streams, unary when the node lacks it) or unary (one gRPC call per request)',
    commands: GATEWAY,
  }),
  setting({
    key: 'nodeStreams',
    type: int('uint 1..64', 1, 64, 'an integer 1..64'),
    defaultText: '1',
    description: 'streams the mux spreads calls over (needs the mux)',
    commands: GATEWAY,
  }),
  setting({
    key: 'host',
    type: host,
    defaultText: '127.0.0.1',
    description: 'address to listen on',
    commands: GATEWAY,
  }),
  REST_PORT,
  setting({
    key: 'bodyLimit',
    type: positive,
    arg: 'BYTES',
    defaultText: String(DEFAULT_BODY_LIMIT_BYTES),
    description: 'largest accepted request body in bytes',
    commands: GATEWAY,
  }),
  ...LIMIT_SETTINGS,
  ...ACCESS_SETTINGS,
  ...METRICS_SETTINGS,
  JWT_SECRET,
  setting({
    key: 'nodeToken',
    type: text,
    env: 'LEDGER_GATEWAY_NODE_TOKEN',
    secret: true,
    description:
      "the token the node's door asks for when the node has a secret " +
      '(made by ledger-node tool jwt on the node), sent on every call',
    commands: GATEWAY,
  }),
] as const;

export type GatewayValues = ValuesOf<typeof GATEWAY_SETTINGS>;
export type LimitValues = ValuesOf<typeof LIMIT_SETTINGS>;

/** The rules between the shared settings, the same on both commands; throws `error`. */
export function checkShared(
  v: LimitValues & ValuesOf<typeof METRICS_SETTINGS>,
  error: new (message: string) => Error,
): void {
  if (v.rateLimit === undefined && (v.rateBurst !== undefined || v.rateLimitLoopback !== undefined))
    throw new error('--rate-burst and --rate-limit-loopback need --rate-limit RPS');
  if (v.metricsHost !== undefined && v.metricsPort === undefined)
    throw new error('--metrics-host needs --metrics-port N');
}

/** The gateway options the limit settings ask for (nothing for those not given), on both commands. */
export function limitOptions(v: LimitValues): {
  rateLimit?: RateLimitOptions;
  maxJsonDepth?: number;
  mqtt?: Partial<MqttLimits>;
} {
  const out: { rateLimit?: RateLimitOptions; maxJsonDepth?: number; mqtt?: Partial<MqttLimits> } = {};
  if (v.rateLimit !== undefined) {
    out.rateLimit = { requestsPerSecond: v.rateLimit };
    if (v.rateBurst !== undefined) out.rateLimit.burst = v.rateBurst;
    if (v.rateLimitLoopback !== undefined) out.rateLimit.limitLoopback = v.rateLimitLoopback;
  }
  if (v.maxJsonDepth !== undefined) out.maxJsonDepth = v.maxJsonDepth;
  const mqtt: Partial<MqttLimits> = {};
  if (v.mqttMaxConnections !== undefined) mqtt.maxConnections = v.mqttMaxConnections;
  if (v.mqttMaxConnectionsPerIp !== undefined) mqtt.maxConnectionsPerIp = v.mqttMaxConnectionsPerIp;
  if (v.mqttMaxSubscriptions !== undefined) mqtt.maxSubscriptions = v.mqttMaxSubscriptions;
  if (v.mqttMaxBufferedBytes !== undefined) mqtt.maxBufferedBytes = v.mqttMaxBufferedBytes;
  if (v.mqttMaxPacketBytes !== undefined) mqtt.maxPacketBytes = v.mqttMaxPacketBytes;
  if (v.mqttPingInterval !== undefined) mqtt.pingIntervalMs = Math.round(v.mqttPingInterval * 1000);
  if (Object.keys(mqtt).length > 0) out.mqtt = mqtt;
  return out;
}
