/**
 * Bit-sliced Curl-P-81 in plain JavaScript: 32 lanes per 32-bit integer. The portable fallback of the WASM kernel,
 * with the same layout and encodings (`lanes.ts`).
 */
import type { LaneKernel } from './bitsliced-search.ts';
import { SLOTS } from './lanes.ts';

/** One round in `kind` encoding from reversed state (s0, s1) to (d0, d1); see lanes.ts for the formulas. */
function round(kind: number, s0: Int32Array, s1: Int32Array, d0: Int32Array, d1: Int32Array): void {
  let x0 = s0[0]!,
    x1 = s1[0]!,
    y0 = s0[365]!,
    y1 = s1[365]!;
  let o0: number, o1: number;
  [o0, o1] = sbox(kind, x0, x1, y0, y1);
  d0[0] = d0[729] = o0;
  d1[0] = d1[729] = o1;
  for (let m = 0; m < 364; m++) {
    const q0 = s0[m + 1]!,
      q1 = s1[m + 1]!;
    x0 = s0[m + 365]!;
    x1 = s1[m + 365]!;
    y0 = s0[m + 366]!;
    y1 = s1[m + 366]!;
    if (kind === 0) {
      o0 = (q0 ^ x1) | (x0 & q1);
      d0[728 - 2 * m] = o0;
      d1[728 - 2 * m] = (x0 ^ q1) & o0;
      o0 = (y0 ^ q1) | (q0 & y1);
      d0[727 - 2 * m] = o0;
      d1[727 - 2 * m] = (q0 ^ y1) & o0;
    } else if (kind === 1) {
      o0 = (x0 | q1) & ~(q0 ^ x1);
      d0[728 - 2 * m] = o0;
      d1[728 - 2 * m] = (x0 ^ q1) & ~o0;
      o0 = (q0 | y1) & ~(y0 ^ q1);
      d0[727 - 2 * m] = o0;
      d1[727 - 2 * m] = (q0 ^ y1) & ~o0;
    } else {
      o0 = (q0 ^ x1) & ~(x0 & ~q1);
      d0[728 - 2 * m] = o0;
      d1[728 - 2 * m] = (x0 ^ q1) | o0;
      o0 = (y0 ^ q1) & ~(q0 & ~y1);
      d0[727 - 2 * m] = o0;
      d1[727 - 2 * m] = (q0 ^ y1) | o0;
    }
  }
}

function sbox(kind: number, x0: number, x1: number, y0: number, y1: number): [number, number] {
  if (kind === 0) {
    const o0 = (y0 ^ x1) | (x0 & y1);
    return [o0, (x0 ^ y1) & o0];
  }
  if (kind === 1) {
    const o0 = (x0 | y1) & ~(y0 ^ x1);
    return [o0, (x0 ^ y1) & ~o0];
  }
  const o0 = (y0 ^ x1) & ~(x0 & ~y1);
  return [o0, (x0 ^ y1) | o0];
}

/** A 32-lane JS kernel. */
export function createJsKernel(): LaneKernel {
  const input = new Int32Array(SLOTS * 2);
  const a0 = new Int32Array(SLOTS),
    a1 = new Int32Array(SLOTS),
    b0 = new Int32Array(SLOTS),
    b1 = new Int32Array(SLOTS);
  const output = new Int32Array(SLOTS * 2);
  return {
    name: 'js-bitsliced-32',
    words: 1,
    input,
    transform() {
      for (let s = 0; s < SLOTS; s++) {
        a0[s] = input[2 * s]!;
        a1[s] = input[2 * s + 1]!;
      }
      for (let c = 0; c < 27; c++) {
        // (a) -A-> (b) -B-> (a) -C-> (b), then swap roles by running the next cycle from b
        if (c % 2 === 0) {
          round(0, a0, a1, b0, b1);
          round(1, b0, b1, a0, a1);
          round(2, a0, a1, b0, b1);
        } else {
          round(0, b0, b1, a0, a1);
          round(1, a0, a1, b0, b1);
          round(2, b0, b1, a0, a1);
        }
      }
      // 27 cycles: odd, so the result is in b
      for (let s = 0; s < SLOTS; s++) {
        output[2 * s] = b0[s]!;
        output[2 * s + 1] = b1[s]!;
      }
      return output;
    },
  };
}
