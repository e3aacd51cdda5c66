/**
 * The guards of the node's service door (docs/decisions.md §29), grpc-js server interceptors, so one check covers
 * every call of every service on that listener, unary and streaming (NodeService, NodeMux, NodeEvents):
 *
 *   * `bearerGuard`: a call must carry `authorization: Bearer <HS256 JWT>` metadata valid for the node's secret
 *     (LEDGER_NODE_JWT_SECRET; verified by src/grpc/jwt.ts as the REST routes verify theirs). No token, a malformed
 *     one, a bad signature, an expired or not yet valid one: UNAUTHENTICATED; a valid token whose `scope` claim does
 *     not name `node`: PERMISSION_DENIED. The call is answered before the handler runs (a streaming handler is not
 *     even started): the metadata is held until the token is checked. A stream outlives no token: one whose token
 *     expires while it runs (a gateway's NodeMux stream, an events stream) is ended UNAUTHENTICATED at the expiry.
 *     The header is removed before the handler sees the metadata. Verified tokens are remembered (a bounded map), so
 *     a gateway's unary calls do not pay the HMAC each time.
 *   * `deadlineCap`: a unary call runs `maxMs` at most (its own deadline when shorter), then DEADLINE_EXCEEDED, as
 *     the REST gateway gives up on a node call; streams are long-lived by design and bounded otherwise.
 */
import {
  Metadata,
  ResponderBuilder,
  ServerInterceptingCall,
  ServerListenerBuilder,
  status as Status,
  type ServerInterceptor,
} from '@grpc/grpc-js';
import { jwtKey, scopeAllows, verifyJwt, type JwtKey } from '../../grpc/jwt.ts';

export const AUTHORIZATION = 'authorization';

/** What a token check decides: the call goes on (until `expiresAt`, ms, when the token expires), or its refusal. */
type Verdict = { ok: true; expiresAt: number | undefined } | { ok: false; code: Status; details: string };

/** Verified tokens remembered at most; the oldest is forgotten first. */
const REMEMBERED_TOKENS = 256;

/** Checks bearer tokens against one secret, remembering the good ones until they expire. */
export class TokenCheck {
  private key: Promise<JwtKey> | undefined;
  private readonly good = new Map<string, { expiresAt: number | undefined; notBefore: number | undefined }>();

  constructor(
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  async check(header: unknown): Promise<Verdict> {
    const token = typeof header === 'string' ? /^Bearer[ ]+(\S+)\s*$/i.exec(header)?.[1] : undefined;
    if (token === undefined)
      return refuse(
        Status.UNAUTHENTICATED,
        header === undefined
          ? 'missing bearer token (authorization metadata)'
          : 'malformed authorization metadata, expected "Bearer <token>"',
      );
    const t = this.now();
    const known = this.good.get(token);
    if (
      known &&
      (known.expiresAt === undefined || t < known.expiresAt) &&
      (known.notBefore === undefined || t >= known.notBefore)
    )
      return { ok: true, expiresAt: known.expiresAt };
    this.key ??= jwtKey(this.secret);
    const result = await verifyJwt(token, await this.key, Math.floor(t / 1000));
    if (!result.ok) return refuse(Status.UNAUTHENTICATED, result.reason);
    if (!scopeAllows(result.claims, 'node'))
      return refuse(
        Status.PERMISSION_DENIED,
        `token scope ${JSON.stringify(result.claims.scope)} does not include "node"`,
      );
    const seconds = (claim: unknown): number | undefined => (typeof claim === 'number' ? claim * 1000 : undefined);
    const entry = { expiresAt: seconds(result.claims.exp), notBefore: seconds(result.claims.nbf) };
    this.good.delete(token);
    this.good.set(token, entry);
    if (this.good.size > REMEMBERED_TOKENS) this.good.delete(this.good.keys().next().value as string);
    return { ok: true, expiresAt: entry.expiresAt };
  }
}

function refuse(code: Status, reason: string): Verdict {
  return { ok: false, code, details: reason };
}

/** The interceptor that lets only calls with a good token through (see the file comment). */
export function bearerGuard(tokens: TokenCheck): ServerInterceptor {
  return (_method, call) => {
    let expiry: ReturnType<typeof setTimeout> | undefined;
    const stopExpiry = (): void => {
      if (expiry !== undefined) clearTimeout(expiry);
      expiry = undefined;
    };
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata: Metadata, next) => {
        const header = metadata.get(AUTHORIZATION)[0];
        tokens.check(header).then(
          (verdict) => {
            if (!verdict.ok)
              return call.sendStatus({ code: verdict.code, details: verdict.details, metadata: new Metadata() });
            if (verdict.expiresAt !== undefined) {
              // setTimeout holds at most 2^31-1 ms; a later expiry is checked again when that timer fires.
              const arm = (): void => {
                const left = verdict.expiresAt! - Date.now();
                expiry = setTimeout(
                  left > 0x7fffffff
                    ? arm
                    : () =>
                        call.sendStatus({
                          code: Status.UNAUTHENTICATED,
                          details: 'token expired while the call ran',
                          metadata: new Metadata(),
                        }),
                  Math.min(Math.max(left, 0), 0x7fffffff),
                );
                expiry.unref();
              };
              arm();
            }
            metadata.remove(AUTHORIZATION);
            next(metadata);
          },
          (err: unknown) =>
            call.sendStatus({
              code: Status.INTERNAL,
              details: `token check failed: ${(err as Error).message}`,
              metadata: new Metadata(),
            }),
        );
      })
      .withOnCancel(stopExpiry)
      .build();
    const responder = new ResponderBuilder()
      .withStart((next) => next(listener))
      .withSendStatus((status, next) => {
        stopExpiry();
        next(status);
      })
      .build();
    return new ServerInterceptingCall(call, responder);
  };
}

/** The interceptor that ends a unary call after `maxMs` (see the file comment). */
export function deadlineCap(maxMs: number): ServerInterceptor {
  return (method, call) => {
    if (method.requestStream || method.responseStream) return new ServerInterceptingCall(call);
    const deadline = call.getDeadline();
    const callerMs = deadline instanceof Date ? deadline.getTime() - Date.now() : deadline - Date.now();
    if (callerMs <= maxMs) return new ServerInterceptingCall(call);
    const timer = setTimeout(
      () =>
        call.sendStatus({
          code: Status.DEADLINE_EXCEEDED,
          details: `Deadline exceeded (this node answers a call within ${maxMs / 1000} s)`,
          metadata: new Metadata(),
        }),
      maxMs,
    );
    timer.unref();
    const responder = new ResponderBuilder()
      .withStart((next) => next(new ServerListenerBuilder().withOnCancel(() => clearTimeout(timer)).build()))
      .withSendStatus((status, next) => {
        clearTimeout(timer);
        next(status);
      })
      .build();
    return new ServerInterceptingCall(call, responder);
  };
}
