/**
 * The MQTT broker of the event API: aedes runs each connection's MQTT 3.1.1 (or 3.1) protocol; this file sets its rules
 * (docs/decisions.md §25).
 *   * CONNECT: clean sessions only and no will (the CONNECT is rewritten before aedes reads it: nothing about a
 *     connection outlives it, and a will would be a publish); where the route is protected (access.ts), the CONNECT
 *     password carries the JWT unless the WebSocket upgrade's Authorization header did (CONNACK 5 otherwise).
 *   * PUBLISH from a client: refused, the connection is closed (MQTT-3.3.5-2); nothing a client sends reaches another.
 *   * SUBSCRIBE: each topic filter is checked against TIP-28 (topics.ts) and against the per-connection limit; a
 *     refused one gets 0x80 in the SUBACK, the others are granted QoS 0. Once granted the topic joins the fan-out's
 *     index and the current state is sent where inx-mqtt sends it (current-state.ts), unless a newer event already
 *     went out on that topic meanwhile.
 * aedes itself never forwards a message to a client (`authorizeForward` drops all): the events go through fanout.ts.
 */
import { Aedes, type Client } from 'aedes';
import type { NodePort } from '../../src/grpc/port.ts';
import { verifyJwt, type JwtKey } from '../jwt.ts';
import { currentState } from './current-state.ts';
import type { Connection, Fanout } from './fanout.ts';
import { checkTopic, type TopicRequest } from './topics.ts';

/** A WebSocket connection and what the broker knows of it. */
export interface MqttConnection extends Connection {
  readonly ip: string;
  /** The upgrade carried no valid token for a protected route: the CONNECT password must. */
  readonly needsToken: boolean;
  /** Topic filters granted (counted against the limit from the moment they are authorized). */
  readonly granted: Map<string, TopicRequest>;
}

export interface BrokerDeps {
  fanout: Fanout;
  node: NodePort;
  /** The network's bech32 HRP, once known (topic checks of addresses). */
  hrp: () => string | undefined;
  /** The key of protected routes; undefined: no tokens are accepted. */
  jwtKey: () => Promise<JwtKey> | undefined;
  maxSubscriptions: number;
  timeoutMs: number;
}

/** Stops aedes from ever flushing a slow client's control packets for long (the events never wait on it). */
const DRAIN_TIMEOUT_MS = 10_000;
/** A connection that sends no CONNECT within this is closed. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * aedes' `heartbeatInterval` is not about clients: it is how often the broker publishes `$SYS/<id>/heartbeat` for other
 * brokers of a cluster. There is none, and nobody can follow `$SYS` topics (topics.ts), so rarely. Idle and half-open
 * client connections are closed by the client's MQTT keepalive (aedes: 1.5 times it, when not 0) and, whatever that
 * is, by the WebSocket ping of mount.ts (`pingIntervalMs`).
 */
const SYS_HEARTBEAT_MS = 3_600_000;
/** Our deepest topic has 5 levels. */
const MAX_TOPIC_LEVELS = 8;

function notAuthorized(message: string): Error & { returnCode: number } {
  return Object.assign(new Error(message), { returnCode: 5 });
}

export class EventBroker {
  readonly connections = new Map<Client, MqttConnection>();
  /** Subscriptions refused (bad topic or over the limit) and client publishes refused. */
  refusedSubscriptions = 0;
  refusedPublishes = 0;

  private constructor(
    readonly aedes: Aedes,
    private readonly deps: BrokerDeps,
  ) {}

  static async create(deps: BrokerDeps): Promise<EventBroker> {
    const aedes = await Aedes.createBroker({
      drainTimeout: DRAIN_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
      maxTopicLevels: MAX_TOPIC_LEVELS,
      heartbeatInterval: SYS_HEARTBEAT_MS,
    });
    const broker = new EventBroker(aedes, deps);
    broker.install();
    return broker;
  }

  /** Hands a WebSocket stream to aedes. */
  attach(
    stream: Parameters<Aedes['handle']>[0],
    req: Parameters<Aedes['handle']>[1],
    connection: MqttConnection,
  ): Client {
    const client = this.aedes.handle(stream, req);
    this.connections.set(client, connection);
    return client;
  }

  /** The connection is gone (its socket closed). */
  detach(client: Client): void {
    const c = this.connections.get(client);
    if (!c) return;
    this.connections.delete(client);
    c.granted.clear();
    this.deps.fanout.removeAll(c);
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.aedes.close(() => resolve()));
  }

  private install(): void {
    const { aedes, deps } = this;
    aedes.preConnect = (_client, packet, done) => {
      packet.clean = true;
      delete packet.will;
      done(null, true);
    };
    aedes.authenticate = (client, _username, password, done) => {
      const c = this.connections.get(client);
      if (c === undefined) return done(notAuthorized('unknown connection'), false);
      if (!c.needsToken) return done(null, true);
      const key = deps.jwtKey();
      const token = password?.toString('utf8').replace(/^Bearer\s+/i, '');
      if (key === undefined || !token)
        return done(notAuthorized('this route is protected: the CONNECT password must carry a JWT'), false);
      key
        .then((k) => verifyJwt(token, k))
        .then(
          (r) => (r.ok ? done(null, true) : done(notAuthorized(`this route is protected: ${r.reason}`), false)),
          (err: unknown) => done(notAuthorized(`this route is protected: ${(err as Error).message}`), false),
        );
    };
    aedes.authorizePublish = (_client, packet, done) => {
      this.refusedPublishes++;
      done(
        new Error(
          `publishing is not allowed on this broker (topic ` +
            `${JSON.stringify(packet.topic.slice(0, 80))}): it only publishes the node's events`,
        ),
      );
    };
    aedes.authorizeForward = () => null;
    aedes.authorizeSubscribe = (client, sub, done) => {
      const c = this.connections.get(client);
      const check = checkTopic(sub.topic, deps.hrp());
      if (c === undefined || !check.ok) {
        this.refusedSubscriptions++;
        return done(null, null);
      }
      if (!c.granted.has(sub.topic) && c.granted.size >= deps.maxSubscriptions) {
        this.refusedSubscriptions++;
        return done(null, null);
      }
      c.granted.set(sub.topic, check.request);
      sub.qos = 0;
      done(null, sub);
    };
    aedes.on('subscribe', (subs, client) => {
      const c = this.connections.get(client);
      if (c === undefined || c.closed) return;
      for (const s of subs) {
        const request = c.granted.get(s.topic);
        if ((s.qos as number) === 128 || request === undefined) continue;
        deps.fanout.add(c, s.topic);
        if (request.kind !== 'events') void this.sendCurrentState(c, s.topic, request);
      }
    });
    aedes.on('unsubscribe', (topics, client) => {
      const c = this.connections.get(client);
      if (c === undefined) return;
      for (const t of topics) {
        c.granted.delete(t);
        deps.fanout.remove(c, t);
      }
    });
    aedes.on('clientDisconnect', (client) => this.detach(client));
  }

  private async sendCurrentState(c: MqttConnection, topic: string, request: TopicRequest): Promise<void> {
    const before = this.deps.fanout.published(topic);
    const payload = await currentState(this.deps.node, request, this.deps.timeoutMs);
    if (payload === undefined || this.deps.fanout.published(topic) !== before) return;
    this.deps.fanout.sendTo(c, topic, payload);
  }
}
