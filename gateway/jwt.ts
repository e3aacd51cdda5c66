/**
 * HS256 JSON Web Token verification (RFC 7519 / RFC 7515), written out with node:crypto HMAC: the header must say
 * `"alg":"HS256"`, the signature must match (constant-time compare), `exp` (if present) must lie in the future and
 * `nbf` (if present) must not. Returns the reason of a failure, so the 403 can say which check failed.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export type JwtSecret = string | Uint8Array;

export type JwtResult = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };

const B64URL = /^[A-Za-z0-9_-]*$/;

function decodeJsonPart(part: string): Record<string, unknown> | undefined {
  if (!B64URL.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function hmac(secret: JwtSecret, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

/** Verifies `token` against `secret` at `nowSeconds` (Unix time). */
export function verifyJwtHs256(token: string, secret: JwtSecret, nowSeconds: number = Date.now() / 1000): JwtResult {
  const parts = token.split('.');
  if (parts.length !== 3) return { ok: false, reason: 'malformed token' };
  const [h, p, s] = parts as [string, string, string];
  const header = decodeJsonPart(h);
  if (!header) return { ok: false, reason: 'malformed token header' };
  if (header.alg !== 'HS256') return { ok: false, reason: `unsupported token algorithm ${JSON.stringify(header.alg ?? null)}` };
  if (!B64URL.test(s)) return { ok: false, reason: 'malformed token signature' };
  const given = Buffer.from(s, 'base64url');
  const expected = hmac(secret, `${h}.${p}`);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid token signature' };
  const claims = decodeJsonPart(p);
  if (!claims) return { ok: false, reason: 'malformed token payload' };
  if (claims.exp !== undefined) {
    if (typeof claims.exp !== 'number') return { ok: false, reason: 'malformed token expiry' };
    if (nowSeconds >= claims.exp) return { ok: false, reason: 'token expired' };
  }
  if (claims.nbf !== undefined) {
    if (typeof claims.nbf !== 'number') return { ok: false, reason: 'malformed token not-before' };
    if (nowSeconds < claims.nbf) return { ok: false, reason: 'token not valid yet' };
  }
  return { ok: true, claims };
}

/** Signs `claims` as an HS256 token (for the operator's tooling and the tests). */
export function signJwtHs256(claims: Record<string, unknown>, secret: JwtSecret): string {
  const h = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${h}.${p}.${hmac(secret, `${h}.${p}`).toString('base64url')}`;
}
