/**
 * `ledger-node tool jwt` (src/cli/tool-jwt.ts): a token the node's door and REST routes accept, with the subject, an
 * expiry from a duration and a scope; refused arguments and a missing secret are exit 2. And the gateway's side:
 * `ledger-node gateway` reads the token from LEDGER_GATEWAY_NODE_TOKEN and the CA from --node-tls-ca.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseGatewayArgs } from '../../gateway/cli.ts';
import { scopeAllows, verifyJwt } from '../../src/grpc/jwt.ts';
import { durationSeconds, toolJwt } from '../../src/cli/tool-jwt.ts';

function capture(fn: () => number): { code: number; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const [log, error] = [console.log, console.error];
  console.log = (m: string) => out.push(m);
  console.error = (m: string) => err.push(m);
  try {
    return { code: fn(), out, err };
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe('tool jwt', () => {
  const env = { LEDGER_NODE_JWT_SECRET: 'tool secret' };
  const at = 1_700_000_000_000;

  it('prints an HS256 token of the secret with sub, iat, exp from --expires and the scope', async () => {
    const r = capture(() => toolJwt(['--subject', 'gateway-1', '--expires', '12h', '--scope', 'node'], env, () => at));
    expect(r.code).to.equal(0);
    expect(r.out).to.have.length(1);
    const v = await verifyJwt(r.out[0]!, env.LEDGER_NODE_JWT_SECRET, at / 1000 + 60);
    expect(v.ok).to.equal(true);
    const claims = (v as { claims: Record<string, unknown> }).claims;
    expect(claims).to.deep.equal({ sub: 'gateway-1', iat: at / 1000, exp: at / 1000 + 12 * 3600, scope: 'node' });
    expect(scopeAllows(claims, 'node')).to.equal(true);
    expect(scopeAllows(claims, 'rest')).to.equal(false);
    expect((await verifyJwt(r.out[0]!, env.LEDGER_NODE_JWT_SECRET, at / 1000 + 13 * 3600)).ok).to.equal(false);
  });

  it('without --expires and --scope: no exp, good for every door', async () => {
    const r = capture(() => toolJwt(['--subject=ops'], env, () => at));
    const v = await verifyJwt(r.out[0]!, env.LEDGER_NODE_JWT_SECRET);
    expect((v as { claims: Record<string, unknown> }).claims).to.deep.equal({ sub: 'ops', iat: at / 1000 });
    expect(scopeAllows({}, 'node') && scopeAllows({}, 'rest')).to.equal(true);
  });

  it('durations: s, m, h, d; anything else is refused', () => {
    expect([
      durationSeconds('90s'),
      durationSeconds('30m'),
      durationSeconds('12h'),
      durationSeconds('365d'),
    ]).to.deep.equal([90, 1800, 43200, 365 * 86400]);
    for (const bad of ['', '0h', '1w', '1.5h', 'h', '-1d']) expect(durationSeconds(bad), bad).to.equal(undefined);
  });

  for (const [args, e, reason] of [
    [[], env, /--subject is required/],
    [['--subject', 'x'], {}, /LEDGER_NODE_JWT_SECRET is not set/],
    [['--subject', 'x', '--expires', 'soon'], env, /invalid --expires/],
    [['--subject', 'x', '--scope', 'admin'], env, /invalid --scope/],
    [['--subject', 'x', '--secret', 's'], env, /unknown option --secret/],
  ] as [string[], Record<string, string>, RegExp][]) {
    it(`exit 2: ${args.join(' ') || '(no arguments)'}${e === env ? '' : ' without the secret'}`, () => {
      const r = capture(() => toolJwt(args, e));
      expect(r.code).to.equal(2);
      expect(r.out).to.deep.equal([]);
      expect(r.err.join('\n')).to.match(reason);
    });
  }
});

describe('gateway flags: the node door token and TLS', () => {
  it('reads LEDGER_GATEWAY_NODE_TOKEN and --node-tls-ca; an unreadable CA is an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ledger-gw-tls-'));
    try {
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, 'PEM');
      expect(parseGatewayArgs(['--node', 'h:1'], { LEDGER_GATEWAY_NODE_TOKEN: 't0k' }).nodeSecurity).to.deep.equal({
        token: 't0k',
      });
      const o = parseGatewayArgs(['--node', 'h:1', '--node-tls-ca', ca], {});
      expect(Buffer.from(o.nodeSecurity!.tlsCa!).toString()).to.equal('PEM');
      expect(parseGatewayArgs(['--node', 'h:1'], {}).nodeSecurity).to.equal(undefined);
      expect(() => parseGatewayArgs(['--node', 'h:1', '--node-tls-ca', join(dir, 'none.pem')], {})).to.throw(
        /invalid --node-tls-ca: cannot read/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
