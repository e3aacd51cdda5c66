/**
 * Delivery of the node's events to the MQTT subscribers, beside the broker: aedes runs each connection's protocol
 * (CONNECT, SUBSCRIBE with its checks, SUBACK, PING, UNSUBSCRIBE), and this index of topic -> connections decides who
 * gets an event. Why not aedes's own publish: it serializes every message once per subscriber and writes it as
 * several WebSocket messages, one per chunk; here a PUBLISH packet is serialized once per topic and event (QoS 0; aedes
 * speaks MQTT 3.1.1 and 3.1, whose PUBLISH is the same, and refuses MQTT 5 in the CONNACK) and every connection gets,
 * once per tick, one WebSocket message holding all its packets (MQTT over WebSocket allows several packets per
 * message). Topics nobody follows cost a map lookup (`has`).
 *
 * A slow subscriber is cut off, never buffered without bound: when the bytes its socket has not sent yet exceed
 * `maxBufferedBytes`, the connection is terminated.
 */
import { generate } from 'mqtt-packet';
import type { WebSocket } from 'ws';

/** One MQTT connection as the fan-out sees it. */
export interface Connection {
  readonly ws: WebSocket;
  /** The topics this connection follows (checked by the broker's authorizeSubscribe). */
  readonly topics: Set<string>;
  outbox: Buffer[];
  outboxBytes: number;
  closed: boolean;
}

interface TopicEntry {
  readonly connections: Set<Connection>;
  /** Messages published on the topic so far (the on-subscribe state is dropped when a newer message went out). */
  published: number;
}

/** A QoS 0 PUBLISH packet. */
function packet(topic: string, payload: Buffer | string): Buffer {
  return generate({ cmd: 'publish', topic, payload, qos: 0, dup: false, retain: false });
}

export interface FanoutOptions {
  /** Unsent bytes a connection may have before it is cut off. */
  maxBufferedBytes: number;
  /** Told when a slow connection was cut off. */
  onCutOff?: (connection: Connection, bufferedBytes: number) => void;
}

const asBuffer = (payload: Uint8Array | string): Buffer | string =>
  typeof payload === 'string' ? payload : Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);

export class Fanout {
  private readonly byTopic = new Map<string, TopicEntry>();
  private readonly dirty = new Set<Connection>();
  private scheduled = false;
  /** Messages delivered to connections (one per subscriber and message) and connections cut off. */
  delivered = 0;
  cutOff = 0;

  constructor(private readonly options: FanoutOptions) {}

  /** Whether anybody follows `topic`. */
  has(topic: string): boolean {
    return this.byTopic.has(topic);
  }

  /** The number of messages published on `topic` so far (0 when nobody follows it). */
  published(topic: string): number {
    return this.byTopic.get(topic)?.published ?? 0;
  }

  get topicCount(): number {
    return this.byTopic.size;
  }

  add(connection: Connection, topic: string): void {
    if (connection.closed) return;
    let entry = this.byTopic.get(topic);
    if (!entry) {
      entry = { connections: new Set(), published: 0 };
      this.byTopic.set(topic, entry);
    }
    entry.connections.add(connection);
    connection.topics.add(topic);
  }

  remove(connection: Connection, topic: string): void {
    connection.topics.delete(topic);
    const entry = this.byTopic.get(topic);
    if (!entry) return;
    entry.connections.delete(connection);
    if (entry.connections.size === 0) this.byTopic.delete(topic);
  }

  /** The connection is gone: it leaves every topic and gets nothing more. */
  removeAll(connection: Connection): void {
    connection.closed = true;
    for (const topic of [...connection.topics]) this.remove(connection, topic);
    connection.outbox = [];
    connection.outboxBytes = 0;
    this.dirty.delete(connection);
  }

  /** Publishes to every follower of `topic`; returns how many got it. */
  publish(topic: string, payload: Uint8Array | string): number {
    const entry = this.byTopic.get(topic);
    if (!entry) return 0;
    entry.published++;
    const bytes = packet(topic, asBuffer(payload));
    for (const c of entry.connections) this.enqueue(c, bytes);
    return entry.connections.size;
  }

  /** Sends one message to one connection only (the current state on subscribe). */
  sendTo(connection: Connection, topic: string, payload: Uint8Array | string): void {
    if (connection.closed || !connection.topics.has(topic)) return;
    this.enqueue(connection, packet(topic, asBuffer(payload)));
  }

  private enqueue(c: Connection, bytes: Buffer): void {
    c.outbox.push(bytes);
    c.outboxBytes += bytes.length;
    this.dirty.add(c);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Writes every connection's packets of this tick as one WebSocket message. */
  flush(): void {
    this.scheduled = false;
    for (const c of this.dirty) {
      const { outbox, outboxBytes } = c;
      c.outbox = [];
      c.outboxBytes = 0;
      if (c.closed) continue;
      const buffered = c.ws.bufferedAmount;
      if (buffered + outboxBytes > this.options.maxBufferedBytes) {
        this.cutOff++;
        this.removeAll(c);
        this.options.onCutOff?.(c, buffered + outboxBytes);
        c.ws.terminate();
        continue;
      }
      this.delivered += outbox.length;
      c.ws.send(outbox.length === 1 ? outbox[0]! : Buffer.concat(outbox, outboxBytes), { binary: true });
    }
    this.dirty.clear();
  }
}
