/** Test helper: runs a bit-sliced kernel with a different 243-trit input per lane and reads every lane's hash. */
import type { LaneKernel } from '../../../src/core/pow/bitsliced-search.ts';
import { slotOf } from '../../../src/core/pow/lanes.ts';

export function hashLanes(kernel: LaneKernel, inputs: Int8Array[]): Int8Array[] {
  const words = kernel.words;
  const state = kernel.input;
  if (inputs.length > 32 * words) throw new RangeError('too many inputs');
  state.fill(0);
  for (let trit = 0; trit < 729; trit++) {
    const slots = trit === 0 ? [0, 729] : [slotOf(trit)];
    for (let lane = 0; lane < 32 * words; lane++) {
      const t = trit < 243 && lane < inputs.length ? inputs[lane]![trit]! : 0;
      const w = lane >>> 5;
      const bit = 1 << (lane & 31);
      for (const s of slots) {
        if (t === 1) state[s * 2 * words + w]! |= bit; // kind A: +1 = (1,1), 0 = (0,1), -1 = (0,0)
        if (t !== -1) state[(s * 2 + 1) * words + w]! |= bit;
      }
    }
  }
  const out = kernel.transform();
  return inputs.map((_, lane) => {
    const w = lane >>> 5;
    const bit = lane & 31;
    const hash = new Int8Array(243);
    for (let trit = 0; trit < 243; trit++) {
      const s = slotOf(trit);
      const p0 = (out[s * 2 * words + w]! >>> bit) & 1;
      const p1 = (out[(s * 2 + 1) * words + w]! >>> bit) & 1;
      hash[trit] = p0 ? 1 : p1 ? 0 : -1;
    }
    return hash;
  });
}
