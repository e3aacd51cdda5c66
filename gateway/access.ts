/**
 * Which paths are served to whom, like Hornet's `restAPI.publicRoutes` / `protectedRoutes`, minus its flaw
 * (docs/protocol.md §N1.3, docs/decisions.md §14): patterns are anchored at both ends and matched against the
 * lower-cased PATH only, never the query string, so `/api/core/v2/info?x=1` stays public. `*` matches any run of
 * characters (also `/`).
 *
 * The check runs before routing, for every method but a CORS preflight:
 *   * a path matching a public pattern is served to everyone (public wins when both lists match);
 *   * a path matching a protected pattern needs `Authorization: Bearer <HS256 JWT>` valid for the configured
 *     secret (verified by jose, jwt.ts; no secret configured: nobody gets in); otherwise 403;
 *   * a path matching neither list is 403 (docs/decisions.md §14), whether or not a route exists for it;
 *   * first of all, a path matching a loopback pattern (the dashboard's data) is served to a loopback client.
 * So an unknown path is 403 outside the lists, and 404 (`could not find data: no route ...`) once the lists let it
 * through: under a public pattern for everyone, under a protected pattern only for a valid token holder.
 */
import type { Middleware } from 'koa';
import { HttpProblem } from './errors.ts';
import { jwtKey, verifyJwt, type JwtKey, type JwtSecret } from './jwt.ts';
import { isLoopback } from './rate-limit.ts';

/** Every route this gateway serves. */
export const DEFAULT_PUBLIC_ROUTES: readonly string[] = [
  '/health',
  '/api/routes',
  '/api/core/v2/info',
  '/api/core/v2/tips',
  '/api/core/v2/blocks*',
  '/api/core/v2/transactions*',
  '/api/core/v2/outputs*',
  '/api/core/v2/milestones*',
  '/api/core/v2/receipts*',
  '/api/core/v2/treasury',
  '/api/indexer/v1/*',
  '/api/explorer/v2/*',
  '/api/core/v3/transactions*',
  '/api/core/v3/info',
  '/api/core/v3/blocks*',
  '/api/core/v3/outputs*',
  '/api/core/v3/commitments*',
  '/api/core/v3/committee',
  '/api/core/v3/validators*',
  '/api/core/v3/accounts/*/congestion',
  '/api/core/v3/rewards/*',
  '/api/core/v3/network/metrics',
  '/api/faucet/v1/*',
  '/dashboard',
  '/dashboard/*',
  '/api/mqtt/v1',
];

/**
 * Public to loopback clients (the socket's peer address, as the rate limit reads it; a proxy's X-Forwarded-For is not
 * trusted), classified as usual for everyone else: the dashboard's data (docs/decisions.md §28).
 */
export const DEFAULT_LOOPBACK_ROUTES: readonly string[] = ['/api/dashboard/v1/*'];

/** Hornet's default: everything else under /api needs a token. */
export const DEFAULT_PROTECTED_ROUTES: readonly string[] = ['/api/*'];

/** An anchored, case-insensitive regular expression for one route pattern. */
export function routePattern(pattern: string): RegExp {
  const body = pattern
    .toLowerCase()
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}

export interface AccessOptions {
  publicRoutes?: readonly string[];
  protectedRoutes?: readonly string[];
  /** Routes public to loopback clients (DEFAULT_LOOPBACK_ROUTES); others get the usual classification. */
  loopbackRoutes?: readonly string[];
  jwtSecret?: JwtSecret;
}

export type Access = 'public' | 'protected' | 'hidden';

export function classifier(options: AccessOptions): (path: string) => Access {
  const pub = (options.publicRoutes ?? DEFAULT_PUBLIC_ROUTES).map(routePattern);
  const prot = (options.protectedRoutes ?? DEFAULT_PROTECTED_ROUTES).map(routePattern);
  return (path) => {
    const p = path.toLowerCase();
    if (pub.some((r) => r.test(p))) return 'public';
    if (prot.some((r) => r.test(p))) return 'protected';
    return 'hidden';
  };
}

function bearerToken(header: string | undefined): string | undefined {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
  return m?.[1];
}

/** The access check middleware (see the file comment). */
export function accessControl(options: AccessOptions): Middleware {
  const classify = classifier(options);
  const local = (options.loopbackRoutes ?? DEFAULT_LOOPBACK_ROUTES).map(routePattern);
  const secret = options.jwtSecret === undefined || options.jwtSecret.length === 0 ? undefined : options.jwtSecret;
  let key: Promise<JwtKey> | undefined; // imported on the first protected request
  return async (ctx, next) => {
    if (
      local.length > 0 &&
      isLoopback(ctx.req.socket.remoteAddress) &&
      local.some((r) => r.test(ctx.path.toLowerCase()))
    )
      return next();
    const access = classify(ctx.path);
    if (access === 'hidden') throw new HttpProblem(403, `route ${ctx.path} is not exposed`);
    if (access === 'protected') {
      if (secret === undefined) {
        throw new HttpProblem(403, `route ${ctx.path} is protected and this gateway accepts no tokens`);
      }
      const token = bearerToken(ctx.get('authorization') || undefined);
      if (token === undefined)
        throw new HttpProblem(403, `route ${ctx.path} is protected: missing or malformed bearer token`);
      key ??= jwtKey(secret);
      const result = await verifyJwt(token, await key);
      if (!result.ok) throw new HttpProblem(403, `route ${ctx.path} is protected: ${result.reason}`);
    }
    await next();
  };
}
