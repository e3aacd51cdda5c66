/**
 * The abuse-limit flags of `ledger-node gateway`: `--rate-limit`, `--rate-burst`, `--rate-limit-loopback`,
 * `--max-json-depth`, and the event API's `--mqtt-max-connections`, `--mqtt-max-connections-per-ip`,
 * `--mqtt-max-subscriptions`, `--mqtt-max-buffered-bytes`, `--mqtt-max-packet-bytes` and `--mqtt-ping-interval`
 * (seconds) (mqtt/mount.ts).
 */
import type { GatewayOptions } from './app.ts';
import type { EventApiOptions, MqttLimits } from './mqtt/index.ts';

/** The event API's limit flags and the limit each sets. */
const MQTT_FLAGS: Record<string, keyof MqttLimits> = {
  '--mqtt-max-connections': 'maxConnections',
  '--mqtt-max-connections-per-ip': 'maxConnectionsPerIp',
  '--mqtt-max-subscriptions': 'maxSubscriptions',
  '--mqtt-max-buffered-bytes': 'maxBufferedBytes',
  '--mqtt-max-packet-bytes': 'maxPacketBytes',
};
const PING_FLAG = '--mqtt-ping-interval';

export const LIMIT_FLAGS: readonly string[] = ['--rate-limit', '--rate-burst', '--rate-limit-loopback', '--max-json-depth', ...Object.keys(MQTT_FLAGS), PING_FLAG];

function positiveInt(text: string, flag: string): number {
  if (!/^[1-9]\d{0,8}$/.test(text)) throw new Error(`invalid ${flag}: "${text}", expected a positive whole number`);
  return Number(text);
}

/** The gateway options the limit flags in `values` (flag -> text) ask for; throws an Error naming the bad flag. */
export function limitOptions(values: ReadonlyMap<string, string>): Pick<GatewayOptions, 'rateLimit' | 'maxJsonDepth'> & Pick<EventApiOptions, 'mqtt'> {
  const out: Pick<GatewayOptions, 'rateLimit' | 'maxJsonDepth'> & { mqtt?: Partial<MqttLimits> } = {};
  const rate = values.get('--rate-limit');
  const burst = values.get('--rate-burst');
  const loopback = values.get('--rate-limit-loopback');
  if (rate === undefined) {
    if (burst !== undefined || loopback !== undefined) throw new Error('--rate-burst and --rate-limit-loopback need --rate-limit RPS');
  } else {
    const rps = Number(rate);
    if (!/^\d+(\.\d+)?$/.test(rate) || !(rps > 0) || rps > 1e9) throw new Error(`invalid --rate-limit: "${rate}", expected requests per second > 0`);
    out.rateLimit = { requestsPerSecond: rps };
    if (burst !== undefined) out.rateLimit.burst = positiveInt(burst, '--rate-burst');
    if (loopback !== undefined) {
      if (loopback !== 'true' && loopback !== 'false') throw new Error(`invalid --rate-limit-loopback: "${loopback}", expected true or false`);
      out.rateLimit.limitLoopback = loopback === 'true';
    }
  }
  const depth = values.get('--max-json-depth');
  if (depth !== undefined) out.maxJsonDepth = positiveInt(depth, '--max-json-depth');
  for (const [flag, limit] of Object.entries(MQTT_FLAGS)) {
    const text = values.get(flag);
    if (text !== undefined) (out.mqtt ??= {})[limit] = positiveInt(text, flag);
  }
  const ping = values.get(PING_FLAG);
  if (ping !== undefined) {
    const seconds = Number(ping);
    if (!/^\d+(\.\d+)?$/.test(ping) || !(seconds > 0) || seconds > 3600) throw new Error(`invalid ${PING_FLAG}: "${ping}", expected seconds in (0, 3600]`);
    (out.mqtt ??= {}).pingIntervalMs = Math.round(seconds * 1000);
  }
  return out;
}
