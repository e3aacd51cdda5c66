/**
 * `ledger-node tool jwt --subject NAME [--expires DURATION] [--scope SCOPE]` (Hornet's `tool jwt-api`): prints an
 * HS256 token signed with LEDGER_NODE_JWT_SECRET (from the environment, as `ledger-node run` reads it), for a
 * standalone gateway (LEDGER_GATEWAY_NODE_TOKEN) or a REST client of the protected routes. DURATION is a number with a
 * unit (`90s`, `30m`, `12h`, `365d`); without `--expires` the token does not expire (as Hornet's API tokens), so give
 * one where a token can leak. SCOPE names the doors it is good for (`node`, `rest`, or `"node rest"`; default: both):
 * the node service door refuses a token whose scope lacks `node` with PERMISSION_DENIED. Exit 0, or 2 for bad
 * arguments or no secret.
 */
import { signJwtHs256 } from '../grpc/jwt.ts';
import { parseToolFlags } from './args.ts';

const USAGE =
  'usage: ledger-node tool jwt --subject NAME [--expires ' +
  'DURATION (e.g. 30m, 12h, 90d)] [--scope node|rest|"node rest"]';
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds of a DURATION (`90s`, `30m`, `12h`, `365d`); undefined when malformed. */
export function durationSeconds(text: string): number | undefined {
  const m = /^([1-9][0-9]{0,9})([smhd])$/.exec(text);
  return m ? Number(m[1]) * UNIT_SECONDS[m[2]!]! : undefined;
}

export function toolJwt(
  argv: readonly string[],
  env: Record<string, string | undefined> = process.env,
  now: () => number = Date.now,
): number {
  const values = parseToolFlags(argv, ['--subject', '--expires', '--scope'], USAGE, { missingValueFirst: true });
  if (typeof values === 'number') return values;
  const subject = values.get('--subject');
  if (subject === undefined) {
    console.error(`--subject is required\n${USAGE}`);
    return 2;
  }
  const secret = env.LEDGER_NODE_JWT_SECRET;
  if (!secret) {
    console.error(
      'LEDGER_NODE_JWT_SECRET is not set: the token is signed ' +
        'with the secret the node runs with (set it in the environment)',
    );
    return 2;
  }
  const iat = Math.floor(now() / 1000);
  const claims: Record<string, unknown> = { sub: subject, iat };
  const expires = values.get('--expires');
  if (expires !== undefined) {
    const seconds = durationSeconds(expires);
    if (seconds === undefined) {
      console.error(
        `invalid --expires ${JSON.stringify(expires)}: expected a number and a unit s, m, h or d (e.g. 12h)\n${USAGE}`,
      );
      return 2;
    }
    claims.exp = iat + seconds;
  }
  const scope = values.get('--scope');
  if (scope !== undefined) {
    const doors = scope.split(' ').filter((s) => s !== '');
    if (doors.length === 0 || doors.some((d) => d !== 'node' && d !== 'rest')) {
      console.error(`invalid --scope ${JSON.stringify(scope)}: expected node, rest or "node rest"\n${USAGE}`);
      return 2;
    }
    claims.scope = doors.join(' ');
  }
  console.log(signJwtHs256(claims, secret));
  return 0;
}
