/**
 * The BLAKE2b compression function F (RFC 7693 §3.2) of blake2b.ts: the IV, the message schedule σ, the chaining value
 * it updates in place and the message block it reads into; the 12 rounds run over 32 int32 locals (each 64-bit word a
 * (low, high) pair). blake2b.ts holds the parameter block, the padding, the streaming and the public API.
 */

/** BLAKE2b IV (= SHA-512 IV) as (low, high) 32-bit halves. */
export const IV = Uint32Array.from([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a, 0xade682d1,
  0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
]);

/** Message schedule σ for 12 rounds (rounds 10 and 11 repeat 0 and 1), pre-multiplied by 2 (word pair index). */
const SIGMA = Uint8Array.from(
  [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  ]
    .flat()
    .map((i) => 2 * i),
);

/** Chaining value h[0..7] as (low, high) halves. */
export const H = new Uint32Array(16);
/** The current message block as 16 little-endian 64-bit words = 32 halves. */
const M = new Uint32Array(32);

/**
 * Compresses the 128 bytes of `src` at `off`; `bytes` = bytes hashed including this block; `last` sets the final flag.
 */
export function compress(src: Uint8Array, off: number, bytes: number, last: boolean): void {
  const m = M;
  for (let i = 0, o = off; i < 32; i++, o += 4)
    m[i] = src[o]! | (src[o + 1]! << 8) | (src[o + 2]! << 16) | (src[o + 3]! << 24);
  const h = H;
  let v0l = h[0]! | 0,
    v0h = h[1]! | 0,
    v1l = h[2]! | 0,
    v1h = h[3]! | 0;
  let v2l = h[4]! | 0,
    v2h = h[5]! | 0,
    v3l = h[6]! | 0,
    v3h = h[7]! | 0;
  let v4l = h[8]! | 0,
    v4h = h[9]! | 0,
    v5l = h[10]! | 0,
    v5h = h[11]! | 0;
  let v6l = h[12]! | 0,
    v6h = h[13]! | 0,
    v7l = h[14]! | 0,
    v7h = h[15]! | 0;
  let v8l = IV[0]! | 0,
    v8h = IV[1]! | 0,
    v9l = IV[2]! | 0,
    v9h = IV[3]! | 0;
  let v10l = IV[4]! | 0,
    v10h = IV[5]! | 0,
    v11l = IV[6]! | 0,
    v11h = IV[7]! | 0;
  let v12l = (IV[8]! ^ bytes) | 0,
    v12h = (IV[9]! ^ (bytes / 0x100000000)) | 0;
  let v13l = IV[10]! | 0,
    v13h = IV[11]! | 0;
  let v14l = (last ? ~IV[12]! : IV[12]!) | 0,
    v14h = (last ? ~IV[13]! : IV[13]!) | 0;
  let v15l = IV[14]! | 0,
    v15h = IV[15]! | 0;
  const s = SIGMA;
  let t = 0,
    u = 0,
    x = 0,
    y = 0;
  for (let j = 0; j < 192; j += 16) {
    // G(0, 4, 8, 12) with message words σ[0], σ[1]
    x = s[j + 0]!;
    y = s[j + 1]!;
    t = (v0l >>> 0) + (v4l >>> 0) + m[x]!;
    v0h = (v0h + v4h + m[x + 1]! + ((t / 0x100000000) | 0)) | 0;
    v0l = t | 0;
    t = v12l ^ v0l;
    v12l = v12h ^ v0h;
    v12h = t;
    t = (v8l >>> 0) + (v12l >>> 0);
    v8h = (v8h + v12h + ((t / 0x100000000) | 0)) | 0;
    v8l = t | 0;
    t = v4l ^ v8l;
    u = v4h ^ v8h;
    v4l = (t >>> 24) | (u << 8);
    v4h = (u >>> 24) | (t << 8);
    t = (v0l >>> 0) + (v4l >>> 0) + m[y]!;
    v0h = (v0h + v4h + m[y + 1]! + ((t / 0x100000000) | 0)) | 0;
    v0l = t | 0;
    t = v12l ^ v0l;
    u = v12h ^ v0h;
    v12l = (t >>> 16) | (u << 16);
    v12h = (u >>> 16) | (t << 16);
    t = (v8l >>> 0) + (v12l >>> 0);
    v8h = (v8h + v12h + ((t / 0x100000000) | 0)) | 0;
    v8l = t | 0;
    t = v4l ^ v8l;
    u = v4h ^ v8h;
    v4l = (t << 1) | (u >>> 31);
    v4h = (u << 1) | (t >>> 31);
    // G(1, 5, 9, 13) with message words σ[2], σ[3]
    x = s[j + 2]!;
    y = s[j + 3]!;
    t = (v1l >>> 0) + (v5l >>> 0) + m[x]!;
    v1h = (v1h + v5h + m[x + 1]! + ((t / 0x100000000) | 0)) | 0;
    v1l = t | 0;
    t = v13l ^ v1l;
    v13l = v13h ^ v1h;
    v13h = t;
    t = (v9l >>> 0) + (v13l >>> 0);
    v9h = (v9h + v13h + ((t / 0x100000000) | 0)) | 0;
    v9l = t | 0;
    t = v5l ^ v9l;
    u = v5h ^ v9h;
    v5l = (t >>> 24) | (u << 8);
    v5h = (u >>> 24) | (t << 8);
    t = (v1l >>> 0) + (v5l >>> 0) + m[y]!;
    v1h = (v1h + v5h + m[y + 1]! + ((t / 0x100000000) | 0)) | 0;
    v1l = t | 0;
    t = v13l ^ v1l;
    u = v13h ^ v1h;
    v13l = (t >>> 16) | (u << 16);
    v13h = (u >>> 16) | (t << 16);
    t = (v9l >>> 0) + (v13l >>> 0);
    v9h = (v9h + v13h + ((t / 0x100000000) | 0)) | 0;
    v9l = t | 0;
    t = v5l ^ v9l;
    u = v5h ^ v9h;
    v5l = (t << 1) | (u >>> 31);
    v5h = (u << 1) | (t >>> 31);
    // G(2, 6, 10, 14) with message words σ[4], σ[5]
    x = s[j + 4]!;
    y = s[j + 5]!;
    t = (v2l >>> 0) + (v6l >>> 0) + m[x]!;
    v2h = (v2h + v6h + m[x + 1]! + ((t / 0x100000000) | 0)) | 0;
    v2l = t | 0;
    t = v14l ^ v2l;
    v14l = v14h ^ v2h;
    v14h = t;
    t = (v10l >>> 0) + (v14l >>> 0);
    v10h = (v10h + v14h + ((t / 0x100000000) | 0)) | 0;
    v10l = t | 0;
    t = v6l ^ v10l;
    u = v6h ^ v10h;
    v6l = (t >>> 24) | (u << 8);
    v6h = (u >>> 24) | (t << 8);
    t = (v2l >>> 0) + (v6l >>> 0) + m[y]!;
    v2h = (v2h + v6h + m[y + 1]! + ((t / 0x100000000) | 0)) | 0;
    v2l = t | 0;
    t = v14l ^ v2l;
    u = v14h ^ v2h;
    v14l = (t >>> 16) | (u << 16);
    v14h = (u >>> 16) | (t << 16);
    t = (v10l >>> 0) + (v14l >>> 0);
    v10h = (v10h + v14h + ((t / 0x100000000) | 0)) | 0;
    v10l = t | 0;
    t = v6l ^ v10l;
    u = v6h ^ v10h;
    v6l = (t << 1) | (u >>> 31);
    v6h = (u << 1) | (t >>> 31);
    // G(3, 7, 11, 15) with message words σ[6], σ[7]
    x = s[j + 6]!;
    y = s[j + 7]!;
    t = (v3l >>> 0) + (v7l >>> 0) + m[x]!;
    v3h = (v3h + v7h + m[x + 1]! + ((t / 0x100000000) | 0)) | 0;
    v3l = t | 0;
    t = v15l ^ v3l;
    v15l = v15h ^ v3h;
    v15h = t;
    t = (v11l >>> 0) + (v15l >>> 0);
    v11h = (v11h + v15h + ((t / 0x100000000) | 0)) | 0;
    v11l = t | 0;
    t = v7l ^ v11l;
    u = v7h ^ v11h;
    v7l = (t >>> 24) | (u << 8);
    v7h = (u >>> 24) | (t << 8);
    t = (v3l >>> 0) + (v7l >>> 0) + m[y]!;
    v3h = (v3h + v7h + m[y + 1]! + ((t / 0x100000000) | 0)) | 0;
    v3l = t | 0;
    t = v15l ^ v3l;
    u = v15h ^ v3h;
    v15l = (t >>> 16) | (u << 16);
    v15h = (u >>> 16) | (t << 16);
    t = (v11l >>> 0) + (v15l >>> 0);
    v11h = (v11h + v15h + ((t / 0x100000000) | 0)) | 0;
    v11l = t | 0;
    t = v7l ^ v11l;
    u = v7h ^ v11h;
    v7l = (t << 1) | (u >>> 31);
    v7h = (u << 1) | (t >>> 31);
    // G(0, 5, 10, 15) with message words σ[8], σ[9]
    x = s[j + 8]!;
    y = s[j + 9]!;
    t = (v0l >>> 0) + (v5l >>> 0) + m[x]!;
    v0h = (v0h + v5h + m[x + 1]! + ((t / 0x100000000) | 0)) | 0;
    v0l = t | 0;
    t = v15l ^ v0l;
    v15l = v15h ^ v0h;
    v15h = t;
    t = (v10l >>> 0) + (v15l >>> 0);
    v10h = (v10h + v15h + ((t / 0x100000000) | 0)) | 0;
    v10l = t | 0;
    t = v5l ^ v10l;
    u = v5h ^ v10h;
    v5l = (t >>> 24) | (u << 8);
    v5h = (u >>> 24) | (t << 8);
    t = (v0l >>> 0) + (v5l >>> 0) + m[y]!;
    v0h = (v0h + v5h + m[y + 1]! + ((t / 0x100000000) | 0)) | 0;
    v0l = t | 0;
    t = v15l ^ v0l;
    u = v15h ^ v0h;
    v15l = (t >>> 16) | (u << 16);
    v15h = (u >>> 16) | (t << 16);
    t = (v10l >>> 0) + (v15l >>> 0);
    v10h = (v10h + v15h + ((t / 0x100000000) | 0)) | 0;
    v10l = t | 0;
    t = v5l ^ v10l;
    u = v5h ^ v10h;
    v5l = (t << 1) | (u >>> 31);
    v5h = (u << 1) | (t >>> 31);
    // G(1, 6, 11, 12) with message words σ[10], σ[11]
    x = s[j + 10]!;
    y = s[j + 11]!;
    t = (v1l >>> 0) + (v6l >>> 0) + m[x]!;
    v1h = (v1h + v6h + m[x + 1]! + ((t / 0x100000000) | 0)) | 0;
    v1l = t | 0;
    t = v12l ^ v1l;
    v12l = v12h ^ v1h;
    v12h = t;
    t = (v11l >>> 0) + (v12l >>> 0);
    v11h = (v11h + v12h + ((t / 0x100000000) | 0)) | 0;
    v11l = t | 0;
    t = v6l ^ v11l;
    u = v6h ^ v11h;
    v6l = (t >>> 24) | (u << 8);
    v6h = (u >>> 24) | (t << 8);
    t = (v1l >>> 0) + (v6l >>> 0) + m[y]!;
    v1h = (v1h + v6h + m[y + 1]! + ((t / 0x100000000) | 0)) | 0;
    v1l = t | 0;
    t = v12l ^ v1l;
    u = v12h ^ v1h;
    v12l = (t >>> 16) | (u << 16);
    v12h = (u >>> 16) | (t << 16);
    t = (v11l >>> 0) + (v12l >>> 0);
    v11h = (v11h + v12h + ((t / 0x100000000) | 0)) | 0;
    v11l = t | 0;
    t = v6l ^ v11l;
    u = v6h ^ v11h;
    v6l = (t << 1) | (u >>> 31);
    v6h = (u << 1) | (t >>> 31);
    // G(2, 7, 8, 13) with message words σ[12], σ[13]
    x = s[j + 12]!;
    y = s[j + 13]!;
    t = (v2l >>> 0) + (v7l >>> 0) + m[x]!;
    v2h = (v2h + v7h + m[x + 1]! + ((t / 0x100000000) | 0)) | 0;
    v2l = t | 0;
    t = v13l ^ v2l;
    v13l = v13h ^ v2h;
    v13h = t;
    t = (v8l >>> 0) + (v13l >>> 0);
    v8h = (v8h + v13h + ((t / 0x100000000) | 0)) | 0;
    v8l = t | 0;
    t = v7l ^ v8l;
    u = v7h ^ v8h;
    v7l = (t >>> 24) | (u << 8);
    v7h = (u >>> 24) | (t << 8);
    t = (v2l >>> 0) + (v7l >>> 0) + m[y]!;
    v2h = (v2h + v7h + m[y + 1]! + ((t / 0x100000000) | 0)) | 0;
    v2l = t | 0;
    t = v13l ^ v2l;
    u = v13h ^ v2h;
    v13l = (t >>> 16) | (u << 16);
    v13h = (u >>> 16) | (t << 16);
    t = (v8l >>> 0) + (v13l >>> 0);
    v8h = (v8h + v13h + ((t / 0x100000000) | 0)) | 0;
    v8l = t | 0;
    t = v7l ^ v8l;
    u = v7h ^ v8h;
    v7l = (t << 1) | (u >>> 31);
    v7h = (u << 1) | (t >>> 31);
    // G(3, 4, 9, 14) with message words σ[14], σ[15]
    x = s[j + 14]!;
    y = s[j + 15]!;
    t = (v3l >>> 0) + (v4l >>> 0) + m[x]!;
    v3h = (v3h + v4h + m[x + 1]! + ((t / 0x100000000) | 0)) | 0;
    v3l = t | 0;
    t = v14l ^ v3l;
    v14l = v14h ^ v3h;
    v14h = t;
    t = (v9l >>> 0) + (v14l >>> 0);
    v9h = (v9h + v14h + ((t / 0x100000000) | 0)) | 0;
    v9l = t | 0;
    t = v4l ^ v9l;
    u = v4h ^ v9h;
    v4l = (t >>> 24) | (u << 8);
    v4h = (u >>> 24) | (t << 8);
    t = (v3l >>> 0) + (v4l >>> 0) + m[y]!;
    v3h = (v3h + v4h + m[y + 1]! + ((t / 0x100000000) | 0)) | 0;
    v3l = t | 0;
    t = v14l ^ v3l;
    u = v14h ^ v3h;
    v14l = (t >>> 16) | (u << 16);
    v14h = (u >>> 16) | (t << 16);
    t = (v9l >>> 0) + (v14l >>> 0);
    v9h = (v9h + v14h + ((t / 0x100000000) | 0)) | 0;
    v9l = t | 0;
    t = v4l ^ v9l;
    u = v4h ^ v9h;
    v4l = (t << 1) | (u >>> 31);
    v4h = (u << 1) | (t >>> 31);
  }
  h[0] ^= v0l ^ v8l;
  h[1] ^= v0h ^ v8h;
  h[2] ^= v1l ^ v9l;
  h[3] ^= v1h ^ v9h;
  h[4] ^= v2l ^ v10l;
  h[5] ^= v2h ^ v10h;
  h[6] ^= v3l ^ v11l;
  h[7] ^= v3h ^ v11h;
  h[8] ^= v4l ^ v12l;
  h[9] ^= v4h ^ v12h;
  h[10] ^= v5l ^ v13l;
  h[11] ^= v5h ^ v13h;
  h[12] ^= v6l ^ v14l;
  h[13] ^= v6h ^ v14h;
  h[14] ^= v7l ^ v15l;
  h[15] ^= v7h ^ v15h;
}
