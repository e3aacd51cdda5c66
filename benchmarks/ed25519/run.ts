/**
 * Ed25519 verification alone, on demand (never run by the tests):
 *   npx tsx benchmarks/ed25519/run.ts [--n=2000] [--keys=50]
 *
 * Times one `ed25519Verify` (32-byte message, as for a transaction essence hash or a milestone ID) for:
 * - noble: the pure ZIP-215 check (@noble/curves, zip215), no accelerator,
 * - openssl: with the OpenSSL accelerator installed, honest signatures by `--keys` wallets (keys cached),
 * - openssl, key imported every time: the same, with a cache of one entry (consecutive signatures use other keys),
 * - openssl, invalid signature: OpenSSL rejects, the ZIP-215 check runs too (the cost of a rejection),
 * - openssl, ZIP-215-only signature: a valid signature OpenSSL rejects (public key with a torsion component).
 * Median of 5 batches of n verifications each, in µs per verification.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { createHash, randomBytes } from 'node:crypto';
import {
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
  setEd25519Accelerator,
} from '../../src/core/crypto/ed25519.ts';
import { createOpenSslEd25519Verifier, installOpenSslEd25519 } from '../../src/node/crypto/ed25519-openssl.ts';
import { scriptArg } from '../../scripts/lib/args.ts';

const arg = (name: string, dflt: string): string => scriptArg(name, dflt);
const N = Number(arg('n', '2000'));
const KEYS = Number(arg('keys', '50'));
if (!Number.isSafeInteger(N) || N < 1 || !Number.isSafeInteger(KEYS) || KEYS < 1)
  throw new Error('--n and --keys must be positive integers');

interface Sig {
  pub: Uint8Array;
  msg: Uint8Array;
  sig: Uint8Array;
}

const seeds = Array.from({ length: KEYS }, () => randomBytes(32));
const honest: Sig[] = Array.from({ length: N }, (_, i) => {
  const seed = seeds[i % KEYS]!;
  const msg = randomBytes(32);
  return { pub: ed25519PublicKeyFromSeed(seed), msg, sig: ed25519Sign(seed, msg) };
});
const invalid: Sig[] = honest.map((s) => {
  const sig = Uint8Array.from(s.sig);
  sig[0]! ^= 1;
  return { ...s, sig };
});

// A = [a]B + T (T of order 8), R = [r]B, S = r + k·a: valid under ZIP-215's cofactored equation; OpenSSL's
// cofactorless one holds only when [k]T = 0 (k divisible by 8, 1 in 8 of them)
const Point = ed25519.Point;
const L = Point.CURVE().n;
const T8 = Point.fromBytes(
  Buffer.from('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'hex'),
  true,
);
const le = (b: Uint8Array): bigint => BigInt('0x' + Buffer.from(b).reverse().toString('hex'));
const toLe = (x: bigint): Uint8Array => Buffer.from(x.toString(16).padStart(64, '0'), 'hex').reverse();
const zip215Only: Sig[] = Array.from({ length: Math.min(N, 200) }, () => {
  const a = (le(randomBytes(64)) % (L - 1n)) + 1n;
  const r = (le(randomBytes(64)) % (L - 1n)) + 1n;
  const pub = Point.BASE.multiply(a).add(T8).toBytes();
  const R = Point.BASE.multiply(r).toBytes();
  const msg = randomBytes(32);
  const k = le(createHash('sha512').update(R).update(pub).update(msg).digest()) % L;
  return { pub, msg, sig: Buffer.concat([R, toLe((r + k * a) % L)]) };
});

function time(label: string, sigs: Sig[], expect: boolean): void {
  const perBatch: number[] = [];
  for (let b = 0; b < 5; b++) {
    const t0 = performance.now();
    for (const s of sigs)
      if (ed25519Verify(s.pub, s.msg, s.sig) !== expect) throw new Error(`${label}: unexpected verdict`);
    perBatch.push(((performance.now() - t0) * 1000) / sigs.length);
  }
  perBatch.sort((x, y) => x - y);
  console.log(`| ${label.padEnd(44)} | ${perBatch[2]!.toFixed(1).padStart(9)} |`);
}

console.log(`\nEd25519 verify, median of 5 batches (µs per verification; ${N} signatures by ${KEYS} keys)\n`);
console.log('| path                                         | µs/verify |');
console.log('|----------------------------------------------|-----------|');
setEd25519Accelerator(undefined);
time('noble ZIP-215 only (no accelerator)', honest.slice(0, Math.min(N, 500)), true);
if (!installOpenSslEd25519()) throw new Error('OpenSSL Ed25519 unavailable');
time('openssl, honest (keys cached)', honest, true);
setEd25519Accelerator(createOpenSslEd25519Verifier({ keyCacheSize: 1 }).verify);
time('openssl, honest, key imported every time', honest, true);
installOpenSslEd25519();
time('openssl rejects -> ZIP-215: invalid sig', invalid.slice(0, Math.min(N, 500)), false);
time('openssl rejects -> ZIP-215: ZIP-215-only sig', zip215Only, true);
