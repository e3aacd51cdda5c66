/**
 * The event API of a gateway (TIP-28, MQTT over WebSocket at `/api/mqtt/v1`): on for every gateway that can follow the
 * node's events, i.e. one given the node's address (it opens and closes its own NodeEvents client, followed through
 * `eventsPortOverClient`) or handed an events port (src/grpc/port.ts EventsPort: the node's own in `ledger-node run`);
 * off with `mqtt: false`.
 */
import type { Server } from 'node:http';
import type { EventsPort, NodePort } from '../../src/grpc/port.ts';
import type { AccessOptions } from '../access.ts';
import type { NodeChannelSecurity } from '../node-channel.ts';
import { mountMqtt, type MountedMqtt, type MqttLimits } from './mount.ts';
import { createEventsClient, eventsPortOverClient } from './node-events.ts';

export { DEFAULT_MQTT_LIMITS, MQTT_PATH, type MountedMqtt, type MqttLimits, type MqttStats } from './mount.ts';
export { createEventsClient, eventsPortOverClient, NodeEventsClient } from './node-events.ts';

export interface EventApiOptions {
  /** The node's events; without them a gateway given the node's address subscribes with its own NodeEvents client. */
  events?: EventsPort;
  /** Limits of the MQTT broker (mount.ts DEFAULT_MQTT_LIMITS), or false: no event API. */
  mqtt?: Partial<MqttLimits> | false;
}

export interface EventApi {
  /** Undefined when the event API is off. */
  readonly mqtt: MountedMqtt | undefined;
  close(): Promise<void>;
}

export async function startEventApi(
  server: Server,
  options: EventApiOptions &
    AccessOptions & {
      nodeAddress?: string | undefined;
      nodeSecurity?: NodeChannelSecurity | undefined;
      node: NodePort;
      timeoutMs: number;
      log?: (message: string, err: unknown) => void;
    },
): Promise<EventApi> {
  const own =
    options.events === undefined && options.nodeAddress !== undefined && options.mqtt !== false
      ? createEventsClient(options.nodeAddress, options.nodeSecurity)
      : undefined;
  const events = options.mqtt === false ? undefined : (options.events ?? (own && eventsPortOverClient(own)));
  if (events === undefined) return { mqtt: undefined, close: async () => undefined };
  const log = options.log ?? ((message: string, err: unknown) => console.error(message, err ?? ''));
  const { publicRoutes, protectedRoutes, jwtSecret } = options;
  const mqtt = await mountMqtt(server, {
    node: options.node,
    events,
    ...(options.mqtt ? { limits: options.mqtt } : {}),
    ...(publicRoutes ? { publicRoutes } : {}),
    ...(protectedRoutes ? { protectedRoutes } : {}),
    ...(jwtSecret !== undefined ? { jwtSecret } : {}),
    timeoutMs: options.timeoutMs,
    log: (message, err) => log(`event API: ${message}`, err),
  });
  return {
    mqtt,
    async close() {
      await mqtt.close();
      own?.close();
    },
  };
}
