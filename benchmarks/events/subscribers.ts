/**
 * A worker thread of benchmarks/events/run.ts: `clients` real `mqtt` client connections to the event API, each
 * following `milestone-info/latest` and `blocks`. For the benchmark's blocks (tag "ev", data = sequence number u32)
 * it counts deliveries per sequence number over all its clients and the delay from the 201 of the POST (the time the
 * main thread wrote into `acks`, shared memory) to the message, in a histogram of 0.1 ms buckets; for milestones the
 * indexes each client saw.
 */
import { parentPort, workerData } from 'node:worker_threads';
import mqtt, { type MqttClient } from 'mqtt';

interface Data {
  url: string;
  clients: number;
  acks: SharedArrayBuffer;
}

const { url, clients, acks: acksBuffer } = workerData as Data;
const acks = new Float64Array(acksBuffer);
const deliveries = new Uint16Array(acks.length);
/** Delay histogram in 0.1 ms buckets up to 60 s (the last bucket holds everything above). */
const BUCKETS = 600_001;
const histogram = new Uint32Array(BUCKETS);
let beforeAck = 0;
let other = 0;
let closed = 0;
const milestones: Set<number>[] = [];
const now = (): number => performance.timeOrigin + performance.now();

/** The sequence number of a benchmark block (tagged data, tag "ev", data u32), or -1. */
function sequenceOf(raw: Buffer): number {
  const parents = raw[1] ?? 0;
  let at = 2 + 32 * parents + 4; // payload length
  if (raw.length < at + 4 + 1 + 2 + 4 + 4 || raw.readUInt32LE(at) !== 5) return -1;
  at += 4;
  if (raw[at] !== 2 || raw[at + 1] !== 0x65 || raw[at + 2] !== 0x76) return -1;
  at += 3;
  if (raw.readUInt32LE(at) !== 4) return -1;
  return raw.readUInt32LE(at + 4);
}

function onMessage(mine: Set<number>, topic: string, payload: Buffer): void {
  if (topic === 'blocks') {
    const seq = sequenceOf(payload);
    if (seq < 0 || seq >= acks.length) {
      other++;
      return;
    }
    deliveries[seq]!++;
    const ack = acks[seq]!;
    if (ack === 0) beforeAck++;
    else histogram[Math.min(BUCKETS - 1, Math.max(0, Math.round((now() - ack) * 10)))]!++;
  } else if (topic === 'milestone-info/latest') {
    mine.add((JSON.parse(payload.toString('utf8')) as { index: number }).index);
  }
}

async function connectOne(): Promise<MqttClient> {
  const mine = new Set<number>();
  milestones.push(mine);
  const client = mqtt.connect(url, { reconnectPeriod: 0, connectTimeout: 30_000, keepalive: 60 });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  client.on('message', (topic, payload) => onMessage(mine, topic, payload));
  client.on('close', () => closed++);
  await client.subscribeAsync(['milestone-info/latest', 'blocks'], { qos: 0 });
  return client;
}

const open: MqttClient[] = [];
for (let i = 0; i < clients; i += 25) {
  open.push(...(await Promise.all(Array.from({ length: Math.min(25, clients - i) }, connectOne))));
}
parentPort!.postMessage({ type: 'ready' });

parentPort!.on('message', (m: { type: 'report'; from: number; to: number } | { type: 'count' } | { type: 'close' }) => {
  if (m.type === 'count') {
    let n = 0;
    for (let seq = 0; seq < acks.length; seq++) if (acks[seq] !== 0) n += Math.min(deliveries[seq]!, clients);
    parentPort!.postMessage({ type: 'count', delivered: n });
  } else if (m.type === 'report') {
    let delivered = 0;
    let duplicates = 0;
    for (let seq = 0; seq < acks.length; seq++) {
      if (acks[seq] === 0) continue;
      delivered += Math.min(deliveries[seq]!, clients);
      duplicates += Math.max(0, deliveries[seq]! - clients);
    }
    const seen = milestones.map((s) => [...s].filter((i) => i >= m.from && i <= m.to).length);
    parentPort!.postMessage({
      type: 'report',
      delivered,
      duplicates,
      beforeAck,
      other,
      closed: closed,
      milestonesSeen: seen.reduce((a, b) => a + b, 0),
      histogram,
    });
  } else {
    for (const c of open) c.end(true);
    parentPort!.close();
  }
});
