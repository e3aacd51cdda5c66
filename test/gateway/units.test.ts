import { expect } from 'chai';
import { routePattern } from '../../gateway/access.ts';
import { parseGatewayArgs } from '../../gateway/cli.ts';
import { acceptsGzip } from '../../gateway/gzip.ts';
import { parseHexId } from '../../gateway/ids.ts';
import { signJwtHs256, verifyJwt } from '../../gateway/jwt.ts';
import { mediaTypeOf, parseAccept, prefersBinary, SERIALIZER_V1 } from '../../gateway/media.ts';
import { HttpProblem } from '../../gateway/errors.ts';

describe('gateway units', () => {
  describe('Accept negotiation', () => {
    it('parses ranges with q-values and positions, skipping malformed entries', () => {
      expect(parseAccept('a/b;q=0.5, */*;level=1, bad, */x, c/*;Q=0')).to.deep.equal([
        { type: 'a', subtype: 'b', q: 0.5, position: 0 },
        { type: '*', subtype: '*', q: 1, position: 1 },
        { type: 'c', subtype: '*', q: 0, position: 4 },
      ]);
      expect(parseAccept(undefined)).to.deep.equal([]);
      expect(parseAccept('a/b;q=2')[0]!.q).to.equal(0); // out of range: not acceptable
    });

    it('the most specific range decides a type, whatever comes first', () => {
      expect(prefersBinary(`${SERIALIZER_V1};q=0.1, application/*`, SERIALIZER_V1)).to.equal(false);
      expect(prefersBinary(`application/*;q=0.2, ${SERIALIZER_V1};q=0.3`, SERIALIZER_V1)).to.equal(true);
      expect(prefersBinary('application/*;q=0, */*', SERIALIZER_V1)).to.equal(false);
    });

    it('media type of a Content-Type drops parameters and case', () => {
      expect(mediaTypeOf(' Application/JSON ; charset=UTF-8')).to.equal('application/json');
      expect(mediaTypeOf(undefined)).to.equal('');
    });

    it('Accept-Encoding', () => {
      expect(acceptsGzip('gzip')).to.equal(true);
      expect(acceptsGzip('deflate, gzip;q=0')).to.equal(false);
      expect(acceptsGzip('*')).to.equal(true);
      expect(acceptsGzip('*;q=0')).to.equal(false);
      expect(acceptsGzip('identity')).to.equal(false);
      expect(acceptsGzip(undefined)).to.equal(false);
    });
  });

  describe('hex IDs', () => {
    it('decodes either case into exactly the asked length', () => {
      expect(Array.from(parseHexId('0x00fFaB', 3, 'x'))).to.deep.equal([0, 255, 171]);
    });

    it('rejects with HttpProblem 400 naming the value (shortened when long)', () => {
      const long = `0x${'a'.repeat(500)}`;
      try {
        parseHexId(long, 32, 'block ID');
        expect.fail('no throw');
      } catch (err) {
        expect(err).to.be.instanceOf(HttpProblem);
        expect((err as HttpProblem).status).to.equal(400);
        expect((err as HttpProblem).message).to.equal(
          `invalid block ID: ${long.slice(0, 80)}..., expected 32 bytes, got 250`,
        );
      }
    });
  });

  describe('HS256 JWT', async () => {
    const secret = 'secret';
    it('round-trips claims and checks exp / nbf against the given time', async () => {
      const token = signJwtHs256({ sub: 'a', exp: 1000, nbf: 10 }, secret);
      expect(await verifyJwt(token, secret, 500)).to.deep.equal({ ok: true, claims: { sub: 'a', exp: 1000, nbf: 10 } });
      expect(await verifyJwt(token, secret, 1000)).to.deep.equal({ ok: false, reason: 'token expired' });
      expect(await verifyJwt(token, secret, 5)).to.deep.equal({ ok: false, reason: 'token not valid yet' });
    });

    it('checks against a known RFC 7515-style token computed independently', async () => {
      // header {"alg":"HS256","typ":"JWT"}, payload {"sub":"1234567890","name":"John Doe","iat":1516239022}, secret
      // "your-256-bit-secret"
      const jwtIo = [
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
        'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ',
        'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      ].join('.');
      expect((await verifyJwt(jwtIo, 'your-256-bit-secret')).ok).to.equal(true);
      expect((await verifyJwt(jwtIo, 'your-256-bit-secreT')).ok).to.equal(false);
    });

    it('rejects tampered payloads, other algorithms and malformed parts', async () => {
      const [h, , s] = signJwtHs256({ admin: false }, secret).split('.');
      const forged = `${h}.${Buffer.from('{"admin":true}').toString('base64url')}.${s}`;
      expect(await verifyJwt(forged, secret)).to.deep.equal({ ok: false, reason: 'invalid token signature' });
      const hs512 = `${Buffer.from('{"alg":"HS512"}').toString('base64url')}.e30.${s}`;
      expect(await verifyJwt(hs512, secret)).to.deep.equal({
        ok: false,
        reason: 'unsupported token algorithm "HS512"',
      });
      expect(await verifyJwt('a.b', secret)).to.deep.equal({ ok: false, reason: 'malformed token' });
      expect(await verifyJwt('!!.e30.x', secret)).to.deep.equal({ ok: false, reason: 'malformed token header' });
      const strExp = signJwtHs256({ exp: '99999999999' }, secret);
      expect(await verifyJwt(strExp, secret)).to.deep.equal({ ok: false, reason: 'malformed token expiry' });
    });
  });

  describe('route patterns', () => {
    it('are anchored, case-insensitive, with * as any run of characters', () => {
      const r = routePattern('/api/core/v2/blocks*');
      expect(r.test('/api/core/v2/blocks')).to.equal(true);
      expect(r.test('/api/core/v2/blocks/0xab/metadata')).to.equal(true);
      expect(r.test('/x/api/core/v2/blocks')).to.equal(false);
      expect(routePattern('/api/core/v2/info').test('/api/core/v2/info/')).to.equal(false);
      expect(routePattern('/API/Core.v2').test('/api/corexv2')).to.equal(false); // "." is literal
    });
  });

  describe('gateway command flags', () => {
    it('parses --node, --rest-port, --host, --body-limit (also --flag=value), the secret from the environment', () => {
      expect(
        parseGatewayArgs(
          ['--node', 'localhost:50051', '--rest-port=8080', '--host', '0.0.0.0', '--body-limit', '2048'],
          { LEDGER_GATEWAY_JWT_SECRET: 's' },
        ),
      ).to.deep.equal({
        nodeAddress: 'localhost:50051',
        port: 8080,
        host: '0.0.0.0',
        bodyLimitBytes: 2048,
        jwtSecret: 's',
      });
      expect(parseGatewayArgs(['--node', '[::1]:50051'])).to.deep.equal({ nodeAddress: '[::1]:50051', port: 14265 });
    });

    it('parses --node-transport and --node-streams (the mux by default)', () => {
      expect(parseGatewayArgs(['--node', 'h:1', '--node-transport', 'unary'])).to.deep.equal({
        nodeAddress: 'h:1',
        port: 14265,
        nodeTransport: 'unary',
      });
      expect(parseGatewayArgs(['--node', 'h:1', '--node-transport=mux', '--node-streams', '4'])).to.deep.equal({
        nodeAddress: 'h:1',
        port: 14265,
        nodeTransport: 'mux',
        mux: { streams: 4 },
      });
      expect(parseGatewayArgs(['--node', 'h:1', '--node-streams', '2'])).to.deep.equal({
        nodeAddress: 'h:1',
        port: 14265,
        mux: { streams: 2 },
      });
    });

    for (const [args, message] of [
      [[], /missing --node/],
      [['--node', 'localhost'], /invalid --node: "localhost"/],
      [['--node', 'h:1', '--rest-port', '70000'], /invalid --rest-port: "70000"/],
      [['--node', 'h:1', '--body-limit', '0'], /invalid --body-limit/],
      [['--node'], /missing value for --node/],
      [['--node', 'h:1', '--verbose'], /unknown flag "--verbose"/],
      [['--node', 'h:1', '--node-transport', 'http'], /invalid --node-transport: "http", expected unary or mux/],
      [['--node', 'h:1', '--node-streams', '0'], /invalid --node-streams: "0"/],
      [
        ['--node', 'h:1', '--node-transport', 'unary', '--node-streams', '2'],
        /--node-streams needs --node-transport mux/,
      ],
    ] as [string[], RegExp][]) {
      it(`rejects ${JSON.stringify(args)}`, () => {
        expect(() => parseGatewayArgs(args)).to.throw(message);
      });
    }
  });
});
