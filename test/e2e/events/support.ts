/**
 * Helpers for the event API end to end: the real `mqtt` client (what @iota/mqtt.js wraps) over WebSocket at
 * `/api/mqtt/v1`, and a recorder of every message a client gets, to wait for the first one matching a test.
 */
import mqtt, { type MqttClient } from 'mqtt';

export interface Received {
  topic: string;
  payload: Buffer;
  at: number;
}

export interface Subscriber {
  client: MqttClient;
  /** Every message so far, in order. */
  messages: Received[];
  /** Subscribes and returns the granted QoS of each topic (128: refused). */
  subscribe(topics: string[]): Promise<number[]>;
  /** The first message (already received or to come) on `topic` matching `match`; fails after `timeoutMs`. */
  next(topic: string, match?: (r: Received) => boolean, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
}

export const mqttUrl = (restPort: number): string => `ws://127.0.0.1:${restPort}/api/mqtt/v1`;

export async function subscriber(url: string, options: mqtt.IClientOptions = {}): Promise<Subscriber> {
  const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 10_000, ...options });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
    client.once('close', () => reject(new Error('connection closed before CONNACK')));
  });
  const messages: Received[] = [];
  const waiters = new Set<{ topic: string; match: (r: Received) => boolean; resolve: (r: Received) => void }>();
  client.on('message', (topic, payload) => {
    const r = { topic, payload, at: Date.now() };
    messages.push(r);
    for (const w of [...waiters]) {
      if (w.topic === topic && w.match(r)) {
        waiters.delete(w);
        w.resolve(r);
      }
    }
  });
  return {
    client,
    messages,
    async subscribe(topics) {
      try {
        const granted = await client.subscribeAsync(topics, { qos: 0 });
        return topics.map((t) => granted.find((g) => g.topic === t)?.qos ?? -1);
      } catch (err) {
        // mqtt.js fails the whole call when any topic is refused; the SUBACK it carries says which (in order)
        const granted = (err as { packet?: { granted?: number[] } }).packet?.granted;
        if (granted === undefined) throw err;
        return granted.map((g) => (typeof g === 'number' ? g : -1));
      }
    },
    next(topic, match = () => true, timeoutMs = 20_000) {
      const seen = messages.find((r) => r.topic === topic && match(r));
      if (seen) return Promise.resolve(seen);
      return new Promise<Received>((resolve, reject) => {
        const waiter = {
          topic,
          match,
          resolve: (r: Received) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `no message on ${topic} within ${timeoutMs} ms (got ${messages.length} messages ` +
                `on ${[...new Set(messages.map((m) => m.topic))].join(', ')})`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    async close() {
      await client.endAsync(true);
    },
  };
}

export const json = (r: Received): Record<string, unknown> =>
  JSON.parse(r.payload.toString('utf8')) as Record<string, unknown>;
