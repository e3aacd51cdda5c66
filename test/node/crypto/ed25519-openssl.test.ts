/**
 * The OpenSSL fast path of Ed25519 verification must never change a verdict: with the accelerator installed,
 * `ed25519Verify` agrees with the pure ZIP-215 check (`ed25519VerifyZip215`, @noble/curves with zip215) on every input,
 * and OpenSSL alone accepts nothing that ZIP-215 rejects. Checked on the TIP-14 vectors and on a few thousand random
 * and adversarial inputs (honest signatures, bit flips, S >= L, public keys and nonces with torsion components,
 * small-order and non-canonical encodings of A and R, random bytes), generated from a fixed seed so a failure repeats.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import {
  ed25519PublicKeyFromSeed,
  ed25519Sign,
  ed25519Verify,
  ed25519VerifyZip215,
  getEd25519Accelerator,
  setEd25519Accelerator,
  type Ed25519Accelerator,
} from '../../../src/core/crypto/ed25519.ts';
import {
  createOpenSslEd25519Verifier,
  installOpenSslEd25519,
  selfTest,
} from '../../../src/node/crypto/ed25519-openssl.ts';
import { loadVectors } from '../../../harness/vectors.ts';

type Point = ReturnType<typeof ed25519.Point.fromBytes>;
const Point = ed25519.Point;
const L = Point.CURVE().n;
const P = Point.CURVE().p;

// deterministic byte stream (SHA-512 in counter mode over a fixed seed)
let counter = 0;
function rand(n: number): Uint8Array {
  const out = new Uint8Array(n);
  for (let off = 0; off < n; off += 64) {
    const block = createHash('sha512').update(`ed25519-openssl equivalence ${counter++}`).digest();
    out.set(block.subarray(0, Math.min(64, n - off)), off);
  }
  return out;
}
const randInt = (n: number): number => rand(4).reduce((a, b) => a * 256 + b, 0) % n;

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const leToInt = (b: Uint8Array): bigint => BigInt('0x' + (hex(Uint8Array.from(b).reverse()) || '0'));
function intToLe(x: bigint, len = 32): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = 0; i < len; i++, x >>= 8n) out[i] = Number(x & 0xffn);
  return out;
}
const mod = (x: bigint, m: bigint): bigint => ((x % m) + m) % m;
const randScalar = (): bigint => mod(leToInt(rand(64)), L - 1n) + 1n;
const kOf = (r: Uint8Array, a: Uint8Array, m: Uint8Array): bigint =>
  mod(leToInt(createHash('sha512').update(r).update(a).update(m).digest()), L);
const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => Uint8Array.from([...a, ...b]);

// the torsion subgroup: [i]T8 for an order-8 point T8
const T8 = Point.fromBytes(
  Buffer.from('c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a', 'hex'),
  true,
);
const TORSION: Point[] = [Point.ZERO];
for (let i = 1; i < 8; i++) TORSION.push(TORSION[i - 1]!.add(T8));

/**
 * Encodings of interest for A and R: every encoding (canonical or not) of the 8 small-order points (y >= p, x = 0 with
 * the sign bit set, both signs of each torsion point), and the non-canonical encodings (y + p) of the other points with
 * y < 19 (the only points that have a non-canonical y).
 */
function specialEncodings(): { bytes: Uint8Array; smallOrder: boolean }[] {
  const candidates: Uint8Array[] = [];
  for (const t of TORSION) {
    for (const sign of [0, 0x80]) {
      const bytes = t.toBytes();
      bytes[31] = (bytes[31]! & 0x7f) | sign;
      candidates.push(bytes);
    }
  }
  for (let y = 0n; y < 19n; y++) {
    for (const sign of [0, 0x80]) {
      const bytes = intToLe(y + P);
      bytes[31]! |= sign;
      candidates.push(bytes);
    }
  }
  const out = new Map<string, { bytes: Uint8Array; smallOrder: boolean }>();
  for (const bytes of candidates) {
    let point: Point;
    try {
      point = Point.fromBytes(bytes, true);
    } catch {
      continue;
    }
    out.set(hex(bytes), { bytes, smallOrder: point.multiplyUnsafe(8n).is0() });
  }
  return [...out.values()];
}

interface Case {
  kind: string;
  pub: Uint8Array;
  msg: Uint8Array;
  sig: Uint8Array;
}

function honest(): Case {
  const seed = rand(32);
  const msg = rand(randInt(3) === 0 ? randInt(200) : 32);
  return { kind: 'honest', pub: ed25519PublicKeyFromSeed(seed), msg, sig: ed25519Sign(seed, msg) };
}

/**
 * A signature built by hand: A = [a]B + T1, R = [r]B + T2, S = r + k·a. Always ZIP-215 valid; cofactorless only when T2
 * = -[k]T1.
 */
function withTorsion(t1: Point, t2: Point): Case {
  const a = randScalar();
  const r = randScalar();
  const pub = Point.BASE.multiply(a).add(t1).toBytes();
  const R = Point.BASE.multiply(r).add(t2).toBytes();
  const msg = rand(32);
  const S = mod(r + kOf(R, pub, msg) * a, L);
  return { kind: 'torsion', pub, msg, sig: concat(R, intToLe(S)) };
}

function generateCases(): Case[] {
  const cases: Case[] = [];
  const honestOnes: Case[] = [];
  for (let i = 0; i < 300; i++) honestOnes.push(honest());
  cases.push(...honestOnes);
  // one bit flipped anywhere in A, R, S or the message
  for (let i = 0; i < 600; i++) {
    const c = honestOnes[i % honestOnes.length]!;
    const pub = Uint8Array.from(c.pub);
    const sig = Uint8Array.from(c.sig);
    const msg = Uint8Array.from(c.msg);
    const where = randInt(3);
    const target = where === 0 ? pub : where === 1 || msg.length === 0 ? sig : msg;
    const bit = randInt(target.length * 8);
    target[bit >> 3]! ^= 1 << (bit & 7);
    cases.push({ kind: 'bit flip', pub, msg, sig });
  }
  // S replaced by S + n·L (still < 2^256): the same point equation, a non-canonical scalar
  for (let i = 0; i < 150; i++) {
    const c = honestOnes[i % honestOnes.length]!;
    const S = leToInt(c.sig.subarray(32));
    const n = BigInt(1 + randInt(15));
    if (S + n * L >= 1n << 256n) continue;
    cases.push({ kind: 'S + nL', pub: c.pub, msg: c.msg, sig: concat(c.sig.subarray(0, 32), intToLe(S + n * L)) });
  }
  // torsion in A and/or R
  for (let i = 0; i < 600; i++) {
    const c = withTorsion(TORSION[randInt(8)]!, TORSION[randInt(8)]!);
    cases.push(c);
    if (i % 7 === 0) {
      const sig = Uint8Array.from(c.sig);
      sig[32]! ^= 1; // and a broken one of the same shape
      cases.push({ kind: 'torsion broken', pub: c.pub, msg: c.msg, sig });
    }
  }
  // small-order / non-canonical encodings for A and R with S = 0 (ZIP-215 accepts when both are small-order), and
  // with a random S
  const encs = specialEncodings();
  const small = encs.filter((e) => e.smallOrder);
  const msgs = [rand(32), rand(32), rand(32)];
  for (const A of encs) {
    for (const R of A.smallOrder ? small : small.slice(0, 4)) {
      for (const msg of msgs)
        cases.push({ kind: 'small/non-canonical A,R', pub: A.bytes, msg, sig: concat(R.bytes, new Uint8Array(32)) });
      cases.push({
        kind: 'small/non-canonical A,R random S',
        pub: A.bytes,
        msg: msgs[0]!,
        sig: concat(R.bytes, intToLe(randScalar())),
      });
    }
  }
  // honest key, R a (possibly non-canonical) encoding of a small-order point, S = k·a: cofactored only
  for (let i = 0; i < 100; i++) {
    const a = randScalar();
    const pub = Point.BASE.multiply(a).toBytes();
    const R = small[randInt(small.length)]!.bytes;
    const msg = rand(32);
    cases.push({ kind: 'small-order R', pub, msg, sig: concat(R, intToLe(mod(kOf(R, pub, msg) * a, L))) });
  }
  // small-order A in every encoding, R chosen among the torsion points so that even the cofactorless equation holds
  // (S = 0): OpenSSL (3.0) accepts these, decoding a non-canonical A modulo p as ZIP-215 does
  for (const A of small) {
    const point = Point.fromBytes(A.bytes, true);
    for (let i = 0; i < 6; i++) {
      const msg = rand(32);
      const R = TORSION.map((t) => t.toBytes()).find((r) =>
        Point.fromBytes(r)
          .add(point.multiplyUnsafe(kOf(r, A.bytes, msg)))
          .is0(),
      );
      if (R) cases.push({ kind: 'small-order A, cofactorless', pub: A.bytes, msg, sig: concat(R, new Uint8Array(32)) });
    }
  }
  // random bytes
  for (let i = 0; i < 100; i++) cases.push({ kind: 'random', pub: rand(32), msg: rand(32), sig: rand(64) });
  return cases;
}

describe('node/crypto/ed25519-openssl: OpenSSL fast path, exactly ZIP-215 verdicts', () => {
  let saved: Ed25519Accelerator | undefined;
  before(() => {
    saved = getEd25519Accelerator();
  });
  afterEach(() => {
    setEd25519Accelerator(saved);
  });

  it('the torsion points used below are the 8 distinct points of order dividing 8', () => {
    const seen = new Set(TORSION.map((t) => hex(t.toBytes())));
    expect(seen.size).to.equal(8);
    for (const t of TORSION) expect(t.multiplyUnsafe(8n).is0()).to.equal(true);
    expect(T8.multiplyUnsafe(4n).is0()).to.equal(false);
  });

  it('passes its self-test and installs', () => {
    expect(selfTest(createOpenSslEd25519Verifier())).to.equal(true);
    setEd25519Accelerator(undefined);
    expect(installOpenSslEd25519()).to.equal(true);
    expect(getEd25519Accelerator()).to.be.a('function');
  });

  describe('TIP-14 ZIP-215 vectors', () => {
    const vectors: {
      index: number;
      pub_key: string;
      message: string;
      signature: string;
      derived: { signatureVerifiesZip215: boolean };
    }[] = loadVectors('stardust/signatures_ed25519_zip215.json').vectors;
    it('has the 12 cases', () => expect(vectors).to.have.length(12));
    for (const v of vectors) {
      it(`case ${v.index}: accelerated verdict = ZIP-215 verdict (${v.derived.signatureVerifiesZip215})`, () => {
        const [pub, msg, sig] = [v.pub_key, v.message, v.signature].map((h) => Buffer.from(h, 'hex')) as [
          Buffer,
          Buffer,
          Buffer,
        ];
        const fast = createOpenSslEd25519Verifier().verify(pub, msg, sig);
        expect(ed25519VerifyZip215(pub, msg, sig)).to.equal(v.derived.signatureVerifiesZip215);
        if (fast) expect(v.derived.signatureVerifiesZip215, 'OpenSSL accepted what ZIP-215 rejects').to.equal(true);
        installOpenSslEd25519();
        expect(ed25519Verify(pub, msg, sig)).to.equal(v.derived.signatureVerifiesZip215);
      });
    }
    it('OpenSSL alone rejects the ZIP-215-only cases 4, 5 and 9 (so the fallback is what accepts them)', () => {
      const verifier = createOpenSslEd25519Verifier();
      for (const i of [4, 5, 9]) {
        const v = vectors[i]!;
        const [pub, msg, sig] = [v.pub_key, v.message, v.signature].map((h) => Buffer.from(h, 'hex')) as [
          Buffer,
          Buffer,
          Buffer,
        ];
        expect(v.derived.signatureVerifiesZip215).to.equal(true);
        expect(verifier.verify(pub, msg, sig), `case ${i}`).to.equal(false);
      }
    });
  });

  it('agrees with noble ZIP-215 on thousands of random, adversarial inputs; OpenSSL never accepts more', function () {
    this.timeout(120_000);
    const cases = generateCases();
    expect(cases.length).to.be.greaterThan(2500);
    const verifier = createOpenSslEd25519Verifier();
    const tally = new Map<string, { n: number; zip: number; fast: number }>();
    installOpenSslEd25519();
    for (const c of cases) {
      const zip = ed25519VerifyZip215(c.pub, c.msg, c.sig);
      const fast = verifier.verify(c.pub, c.msg, c.sig);
      const where = `${c.kind}: pub ${hex(c.pub)} msg ${hex(c.msg)} sig ${hex(c.sig)}`;
      if (fast) expect(zip, `OpenSSL accepted a signature ZIP-215 rejects (${where})`).to.equal(true);
      expect(ed25519Verify(c.pub, c.msg, c.sig), `accelerated verdict differs (${where})`).to.equal(zip);
      const t = tally.get(c.kind) ?? { n: 0, zip: 0, fast: 0 };
      t.n++;
      if (zip) t.zip++;
      if (fast) t.fast++;
      tally.set(c.kind, t);
    }
    if (process.env.ED25519_TALLY) console.log(cases.length, Object.fromEntries(tally));
    const of = (k: string) => tally.get(k)!;
    // the inputs really cover each side: honest signatures take the fast path ...
    expect(of('honest').fast).to.equal(of('honest').n);
    // ... bit flips and S + nL are invalid for both ...
    expect(of('bit flip').zip).to.equal(0);
    expect(of('S + nL').zip).to.equal(0);
    expect(of('S + nL').n).to.be.greaterThan(100);
    // ... torsion mixes are all ZIP-215 valid, OpenSSL takes only some (the rest goes through the fallback) ...
    expect(of('torsion').zip).to.equal(of('torsion').n);
    expect(of('torsion').fast)
      .to.be.greaterThan(0)
      .and.lessThan(of('torsion').n / 2);
    expect(of('torsion broken').zip).to.equal(0);
    // ... small-order and non-canonical encodings: ZIP-215 accepts many, OpenSSL some of them ...
    const small = of('small/non-canonical A,R');
    expect(small.zip).to.be.greaterThan(100);
    expect(small.fast).to.be.lessThan(small.zip);
    expect(of('small-order A, cofactorless').zip).to.equal(of('small-order A, cofactorless').n);
    expect(of('small-order A, cofactorless').n).to.be.greaterThan(40);
    expect(of('small-order R').zip).to.equal(of('small-order R').n);
    expect(of('small-order R').fast).to.be.lessThan(of('small-order R').n);
    // ... random bytes are rejected
    expect(of('random').zip).to.equal(0);
  });

  it('a key OpenSSL cannot use, or bad lengths, are not a verdict: the fallback decides', () => {
    const verifier = createOpenSslEd25519Verifier();
    const seed = rand(32);
    const msg = rand(40);
    const sig = ed25519Sign(seed, msg);
    expect(verifier.verify(ed25519PublicKeyFromSeed(seed).subarray(0, 31), msg, sig)).to.equal(false);
    expect(verifier.verify(ed25519PublicKeyFromSeed(seed), msg, sig.subarray(0, 63))).to.equal(false);
    installOpenSslEd25519();
    expect(ed25519Verify(ed25519PublicKeyFromSeed(seed).subarray(0, 31), msg, sig)).to.equal(false);
    expect(ed25519Verify(ed25519PublicKeyFromSeed(seed), msg, sig)).to.equal(true);
    // sub-array views (offset into a larger buffer) are read correctly
    const big = new Uint8Array(200);
    big.set(ed25519PublicKeyFromSeed(seed), 7);
    big.set(sig, 100);
    expect(verifier.verify(big.subarray(7, 39), msg, big.subarray(100, 164))).to.equal(true);
  });

  it('keeps at most keyCacheSize imported keys (least recently used out), correct across evictions', () => {
    const verifier = createOpenSslEd25519Verifier({ keyCacheSize: 4 });
    const signers = Array.from({ length: 10 }, () => {
      const seed = rand(32);
      const msg = rand(32);
      return { pub: ed25519PublicKeyFromSeed(seed), msg, sig: ed25519Sign(seed, msg) };
    });
    for (let round = 0; round < 3; round++) {
      for (const s of signers) {
        expect(verifier.verify(s.pub, s.msg, s.sig)).to.equal(true);
        expect(verifier.cachedKeys()).to.be.at.most(4);
      }
    }
    expect(verifier.cachedKeys()).to.equal(4);
    expect(() => createOpenSslEd25519Verifier({ keyCacheSize: 0 })).to.throw(RangeError);
  });

  describe('the core hook (setEd25519Accelerator)', () => {
    const seed = rand(32);
    const msg = rand(32);
    const good = ed25519Sign(seed, msg);
    const bad = Uint8Array.from(good);
    bad[5]! ^= 1;
    const pub = ed25519PublicKeyFromSeed(seed);

    it('an accelerator that returns false or throws is never a verdict', () => {
      setEd25519Accelerator(() => false);
      expect(ed25519Verify(pub, msg, good)).to.equal(true);
      expect(ed25519Verify(pub, msg, bad)).to.equal(false);
      setEd25519Accelerator(() => {
        throw new Error('boom');
      });
      expect(ed25519Verify(pub, msg, good)).to.equal(true);
      expect(ed25519Verify(pub, msg, bad)).to.equal(false);
    });

    it('true short-circuits; the accelerator sees only 32-byte keys, 64-byte signatures; removal restores it', () => {
      const seen: number[][] = [];
      setEd25519Accelerator((p, _m, s) => {
        seen.push([p.length, s.length]);
        return true;
      });
      expect(ed25519Verify(pub, msg, bad)).to.equal(true); // the contract is the installer's promise: true is trusted
      expect(ed25519Verify(pub.subarray(1), msg, good)).to.equal(false);
      expect(seen).to.deep.equal([[32, 64]]);
      const previous = setEd25519Accelerator(undefined);
      expect(previous).to.be.a('function');
      expect(ed25519Verify(pub, msg, bad)).to.equal(false);
      expect(ed25519VerifyZip215(pub, msg, good)).to.equal(true);
    });
  });
});
