/**
 * CORS, on by default (docs/protocol.md §N1.4, dlt-green#386), by `@koa/cors`: every answer, errors included, carries
 * `Access-Control-Allow-Origin` (set before the handler runs; the error middleware keeps it); an OPTIONS preflight
 * (with Access-Control-Request-Method) is answered 204 right here, before the access check, since browsers never send
 * credentials on a preflight. The requested headers are reflected in Access-Control-Allow-Headers.
 */
import koaCors from '@koa/cors';
import type { Middleware } from 'koa';

export interface CorsOptions {
  /** The allowed origin; `*` by default. */
  origin?: string;
  /** Preflight cache lifetime in seconds; 600 by default. */
  maxAgeSeconds?: number;
}

export const CORS_METHODS = 'GET, HEAD, POST, OPTIONS';
/** So that browser clients can read the submitted block's Location and a 503's Retry-After. */
export const CORS_EXPOSED_HEADERS = 'Location, Retry-After';

export function cors(options: CorsOptions = {}): Middleware {
  return koaCors({
    origin: options.origin ?? '*',
    allowMethods: CORS_METHODS,
    exposeHeaders: CORS_EXPOSED_HEADERS,
    maxAge: options.maxAgeSeconds ?? 600,
    // the headers stay on the context for the error middleware; no copying onto our error objects
    keepHeadersOnError: false,
  });
}
