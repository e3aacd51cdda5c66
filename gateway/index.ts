/**
 * The REST gateway: Koa app over the node's gRPC NodeService (`/api/core/v2/...`, `/api/core/v3/...`).
 * It holds no ledger logic and reaches the node only through its port (src/grpc/port.ts).
 */
export { createGateway, DEFAULT_SUBMIT_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, type GatewayOptions } from './app.ts';
export {
  connectNode,
  createNodeClient,
  NODE_TRANSPORTS,
  type NodeConnection,
  type NodeServiceClient,
  type NodeTransport,
} from './node-client.ts';
export {
  NodeCallError,
  portOverClient,
  type CallOptions,
  type EventsPort,
  type NodePort,
} from '../src/grpc/port.ts';
export { createMuxNodePort, type MuxClientOptions, type MuxNodePort } from './mux-client.ts';
export { bearerInterceptor, nodeClientOptions, nodeCredentials, type NodeChannelSecurity } from './node-channel.ts';
export { DEFAULT_REST_PORT, startGateway, type RunningGateway, type StartGatewayOptions } from './server.ts';
export { createHttpServer, installHttpRefusals } from './http-refusals.ts';
export {
  createEventsClient,
  DEFAULT_MQTT_LIMITS,
  eventsPortOverClient,
  MQTT_PATH,
  NodeEventsClient,
  type MqttLimits,
  type MqttStats,
} from './mqtt/index.ts';
export { DEFAULT_LOOPBACK_ROUTES, DEFAULT_PROTECTED_ROUTES, DEFAULT_PUBLIC_ROUTES, routePattern } from './access.ts';
export { restMetrics, serveMetrics } from './metrics.ts';
export { DEFAULT_BODY_LIMIT_BYTES } from './body.ts';
export { DEFAULT_MAX_JSON_DEPTH, FORBIDDEN_JSON_KEYS, jsonGuardProblem } from './json-guard.ts';
export { isLoopback, RateLimiter, type RateLimitOptions } from './rate-limit.ts';
export { signJwtHs256, verifyJwt, type JwtResult, type JwtSecret } from './jwt.ts';
export { prefersBinary, SERIALIZER_V1, SERIALIZER_V2 } from './media.ts';
