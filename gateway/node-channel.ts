/**
 * How a gateway's clients reach the node's service door (docs/decisions.md §29): plaintext, or TLS checked against
 * the PEM certificates of `--node-tls-ca` (the CA of the node's `--grpc-tls-cert`, or that certificate itself when
 * self-signed; it must name the host the gateway dials), and the bearer token the door asks for when the node has a
 * secret (LEDGER_GATEWAY_NODE_TOKEN, made by `ledger-node tool jwt`). The token goes as `authorization: Bearer ...`
 * metadata on every call, unary and streaming (the NodeMux streams, the events stream, unary fallbacks), added by a
 * client interceptor: grpc-js refuses call credentials on a plaintext channel, and the node's door is plaintext by
 * default. Every client the gateway makes for the node takes its credentials and options from here.
 */
import {
  credentials,
  InterceptingCall,
  type ChannelCredentials,
  type ClientOptions,
  type Interceptor,
} from '@grpc/grpc-js';

export interface NodeChannelSecurity {
  /** The HS256 JWT the node's service door accepts (sent on every call). */
  token?: string;
  /** PEM certificates the node's TLS certificate is checked against; TLS when given, plaintext otherwise. */
  tlsCa?: Uint8Array;
}

/** The client interceptor that adds the bearer token to every call's metadata. */
export function bearerInterceptor(token: string): Interceptor {
  const value = `Bearer ${token}`;
  return (options, nextCall) =>
    new InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set('authorization', value);
        next(metadata, listener);
      },
    });
}

/** The channel credentials of a node client. */
export function nodeCredentials(security: NodeChannelSecurity | undefined): ChannelCredentials {
  return security?.tlsCa ? credentials.createSsl(Buffer.from(security.tlsCa)) : credentials.createInsecure();
}

/** The client options of a node client: `options` plus the token's interceptor. */
export function nodeClientOptions(
  security: NodeChannelSecurity | undefined,
  options: ClientOptions = {},
): ClientOptions {
  return security?.token ? { ...options, interceptors: [bearerInterceptor(security.token)] } : { ...options };
}
