/**
 * The nonce search over a bit-sliced Curl kernel (JS or WASM, layout in `lanes.ts`): lane j of a transform
 * evaluates nonce base + j, with base a multiple of the lane count, so only the 6 trits of the nonce's low byte
 * differ between lanes; the digest trits and the higher nonce bytes are broadcast.
 */
import { byteToTrits, b1t6EncodeInto } from './b1t6.ts';
import { DIGEST_BYTES } from './score.ts';
import { checkSearchArgs, type NonceSearcher } from './search.ts';
import { slotOf } from './lanes.ts';

/** What a kernel provides: an input state to fill and a transform. */
export interface LaneKernel {
  readonly name: string;
  /** Lanes per transform: 32 × words. */
  readonly words: number;
  /** The input state (kind A encoding, reversed slots, (slot·2 + plane)·words + word). */
  readonly input: Int32Array;
  /** Runs Curl-P-81 on `input`; returns the output state (same layout; may be a view that the next call reuses). */
  transform(): Int32Array;
}

const NONCE_TRIT = 6 * DIGEST_BYTES; // first nonce trit: 192

/** Writes trit `t` broadcast to all lanes of `slot` (kind A encoding: +1 = (1,1), 0 = (0,1), -1 = (0,0)). */
function writeBroadcast(state: Int32Array, words: number, slot: number, t: number): void {
  const p0 = t === 1 ? -1 : 0;
  const p1 = t === -1 ? 0 : -1;
  for (let w = 0; w < words; w++) {
    state[slot * 2 * words + w] = p0;
    state[(slot * 2 + 1) * words + w] = p1;
  }
}

/** Per low-byte base: for each of the 6 trits, the plane words over all lanes. */
function lowByteLanes(lowBase: number, words: number): Int32Array {
  const out = new Int32Array(6 * 2 * words);
  const trits = new Int8Array(6);
  for (let lane = 0; lane < 32 * words; lane++) {
    byteToTrits((lowBase + lane) & 0xff, trits, 0);
    const w = lane >>> 5;
    const bit = 1 << (lane & 31);
    for (let k = 0; k < 6; k++) {
      const t = trits[k]!;
      if (t === 1) out[k * 2 * words + w]! |= bit;
      if (t !== -1) out[(k * 2 + 1) * words + w]! |= bit;
    }
  }
  return out;
}

/** Makes a NonceSearcher of a kernel. */
export function createBitslicedSearcher(kernel: LaneKernel): NonceSearcher {
  const words = kernel.words;
  const lanes = 32 * words;
  if (lanes > 256) throw new RangeError(`Cannot use kernel ${kernel.name}: ${lanes} lanes exceed one nonce byte`);
  const input = kernel.input;
  const lowCache = new Map<number, Int32Array>();
  const digestTrits = new Int8Array(6 * DIGEST_BYTES);
  let lastDigest: Uint8Array | null = null;
  let lastHigh = -1n; // nonce bytes 1..7 currently written into the input state
  const nonceTrits = new Int8Array(6);

  function loadDigest(digest: Uint8Array): void {
    if (lastDigest?.every((b, i) => b === digest[i])) return;
    b1t6EncodeInto(digest, digestTrits, 0);
    for (let i = 0; i < 729; i++) writeBroadcast(input, words, slotOf(i), i < NONCE_TRIT ? digestTrits[i]! : 0);
    writeBroadcast(input, words, 729, digestTrits[0]!); // the copy of slot 0
    lastDigest = digest.slice();
    lastHigh = -1n;
  }

  function loadNonceBase(base: bigint): void {
    const low = Number(base & 0xffn);
    let lanesOfLow = lowCache.get(low);
    if (!lanesOfLow) {
      lanesOfLow = lowByteLanes(low, words);
      lowCache.set(low, lanesOfLow);
    }
    for (let k = 0; k < 6; k++) {
      const s = slotOf(NONCE_TRIT + k);
      for (let p = 0; p < 2; p++) {
        for (let w = 0; w < words; w++) input[(s * 2 + p) * words + w] = lanesOfLow[(k * 2 + p) * words + w]!;
      }
    }
    let rest = base >> 8n;
    if (rest === lastHigh) return; // bytes 1..7 unchanged since the previous transform
    lastHigh = rest;
    for (let byte = 1; byte < 8; byte++) {
      byteToTrits(Number(rest & 0xffn), nonceTrits, 0);
      rest >>= 8n;
      for (let k = 0; k < 6; k++) writeBroadcast(input, words, slotOf(NONCE_TRIT + 6 * byte + k), nonceTrits[k]!);
    }
  }

  const hitWords = new Int32Array(words);

  return {
    name: kernel.name,
    lanes,
    search(digest, target, start, count) {
      const end = checkSearchArgs(digest, target, start, count);
      if (count === 0) return { nonce: null, hashes: 0 };
      if (target === 0) return { nonce: start, hashes: 0 };
      loadDigest(digest);
      const lanesBig = BigInt(lanes);
      let base = start - (start % lanesBig);
      let hashes = 0;
      const firstSlot = slotOf(242); // trits 242, 241, ... sit in slots 487, 488, ...
      while (base < end) {
        loadNonceBase(base);
        const out = kernel.transform();
        hashes += lanes;
        let any = 0;
        for (let w = 0; w < words; w++) {
          let m = -1;
          for (let k = 0; k < target && m !== 0; k++) {
            const s = firstSlot + k;
            m &= out[(s * 2 + 1) * words + w]! & ~out[s * 2 * words + w]!; // zero trit = (0, 1)
          }
          hitWords[w] = m;
          any |= m;
        }
        if (any !== 0) {
          const lo = start > base ? Number(start - base) : 0;
          const hi = end - base < lanesBig ? Number(end - base) : lanes;
          for (let lane = lo; lane < hi; lane++) {
            if ((hitWords[lane >>> 5]! >>> (lane & 31)) & 1) return { nonce: base + BigInt(lane), hashes };
          }
        }
        base += lanesBig;
      }
      return { nonce: null, hashes };
    },
  };
}
