/**
 * HS256 JSON Web Tokens (RFC 7519 / RFC 7515).
 *
 * Requests are verified by `jose` (`verifyJwt`, i.e. jose's `jwtVerify` restricted to `algorithms: ['HS256']`): the
 * header must say `"alg":"HS256"`, the signature must match, `exp` (if present) must lie in the future and `nbf` (if
 * present) must not; jose also refuses non-numeric `iat`/`exp`/`nbf` and unknown `crit` extensions. No audience,
 * issuer or subject is required. The result names the reason of a failure, so the 403 can say which check failed.
 *
 * `signJwtHs256` issues tokens (`ledger-node tool jwt`, the tests), synchronously with node:crypto's HMAC.
 *
 * One secret, several doors: the REST gateway's protected routes and the node's service door (gRPC, the token in the
 * `authorization` metadata) take the same tokens. A token may name the doors it is good for in a `scope` claim
 * (space-separated, RFC 8693 §4.2: `rest`, `node`); a token without one is good for every door (`scopeAllows`).
 * Here rather than in gateway/ because the node checks tokens too (src/node/grpc/guards.ts).
 */
import { decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { createHmac, webcrypto } from 'node:crypto';

export type JwtSecret = string | Uint8Array;

export type JwtResult = { ok: true; claims: Record<string, unknown> } | { ok: false; reason: string };

/** An HMAC-SHA-256 CryptoKey of the secret, as jose takes it; import it once (jose imports raw bytes on every call). */
export type JwtKey = webcrypto.CryptoKey;

const ENCODER = new TextEncoder();
const JOSE_OPTIONS = { algorithms: ['HS256'] };
/** jose's names of the numeric date claims, as the reasons say them. */
const CLAIM_NAMES: Record<string, string> = { exp: 'expiry', nbf: 'not-before', iat: 'issued-at' };

/** The secret (a string is its UTF-8) as a verification key. */
export function jwtKey(secret: JwtSecret): Promise<JwtKey> {
  const bytes = typeof secret === 'string' ? ENCODER.encode(secret) : secret;
  return webcrypto.subtle.importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

function algorithmOf(token: string): unknown {
  try {
    return decodeProtectedHeader(token).alg ?? null;
  } catch {
    return null;
  }
}

/**
 * jose's rejection as the reason of the 403; anything that is not a token problem (e.g. an unusable key) is thrown on.
 */
function reasonOf(err: unknown, token: string): string {
  if (!(err instanceof errors.JOSEError)) throw err;
  if (err instanceof errors.JWTExpired) return 'token expired';
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.reason === 'invalid') return `malformed token ${CLAIM_NAMES[err.claim] ?? `claim ${err.claim}`}`;
    return err.claim === 'nbf' ? 'token not valid yet' : `token claim ${err.claim} refused`;
  }
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'invalid token signature';
  if (err instanceof errors.JOSEAlgNotAllowed || err.message.includes('"alg"'))
    return `unsupported token algorithm ${JSON.stringify(algorithmOf(token))}`;
  if (err instanceof errors.JWTInvalid) return 'malformed token payload';
  if (err.message === 'Invalid Compact JWS') return 'malformed token';
  if (/signature/i.test(err.message)) return 'malformed token signature';
  if (/payload/i.test(err.message)) return 'malformed token payload';
  return 'malformed token header'; // the protected header, its crit / b64 extensions
}

/** Verifies `token` with jose against `secret` (or its jwtKey), at `nowSeconds` (Unix time) when given. */
export async function verifyJwt(token: string, secret: JwtSecret | JwtKey, nowSeconds?: number): Promise<JwtResult> {
  const options =
    nowSeconds === undefined ? JOSE_OPTIONS : { ...JOSE_OPTIONS, currentDate: new Date(nowSeconds * 1000) };
  try {
    const key = typeof secret === 'string' ? ENCODER.encode(secret) : secret;
    const { payload } = await jwtVerify(token, key, options);
    return { ok: true, claims: payload as Record<string, unknown> };
  } catch (err) {
    return { ok: false, reason: reasonOf(err, token) };
  }
}

function hmac(secret: JwtSecret, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

/** Signs `claims` as an HS256 token (for the operator's tooling and the tests). */
export function signJwtHs256(claims: Record<string, unknown>, secret: JwtSecret): string {
  const h = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const p = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${h}.${p}.${hmac(secret, `${h}.${p}`).toString('base64url')}`;
}

/**
 * The doors a token is good for: `scope` (space-separated) must name `door`; a token without `scope` is good for all.
 */
export function scopeAllows(claims: Record<string, unknown>, door: 'rest' | 'node'): boolean {
  const scope = claims.scope;
  if (scope === undefined) return true;
  return typeof scope === 'string' && scope.split(' ').includes(door);
}
