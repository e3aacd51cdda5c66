/**
 * CORS, on by default (node-behavior.md 1.4, dlt-green#386): every answer, errors included, carries
 * `Access-Control-Allow-Origin`; an OPTIONS preflight (Origin + Access-Control-Request-Method) is answered 204
 * right here, before the access check, since browsers never send credentials on a preflight.
 */
import type { Middleware } from 'koa';

export interface CorsOptions {
  /** The allowed origin; `*` by default. */
  origin?: string;
  /** Preflight cache lifetime in seconds; 600 by default. */
  maxAgeSeconds?: number;
}

export const CORS_METHODS = 'GET, HEAD, POST, OPTIONS';
export const CORS_HEADERS = 'Accept, Accept-Encoding, Authorization, Content-Type';
/** So that browser clients can read the submitted block's Location and a 503's Retry-After. */
export const CORS_EXPOSED_HEADERS = 'Location, Retry-After';

export function cors(options: CorsOptions = {}): Middleware {
  const origin = options.origin ?? '*';
  const maxAge = String(options.maxAgeSeconds ?? 600);
  return async (ctx, next) => {
    ctx.set('Access-Control-Allow-Origin', origin);
    if (origin !== '*') ctx.vary('Origin');
    if (ctx.method === 'OPTIONS' && ctx.get('origin') && ctx.get('access-control-request-method')) {
      ctx.set('Access-Control-Allow-Methods', CORS_METHODS);
      ctx.set('Access-Control-Allow-Headers', ctx.get('access-control-request-headers') || CORS_HEADERS);
      ctx.set('Access-Control-Max-Age', maxAge);
      ctx.vary('Access-Control-Request-Headers');
      ctx.status = 204;
      return;
    }
    ctx.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS);
    await next();
  };
}
