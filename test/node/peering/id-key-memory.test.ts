/**
 * What the node retains per stored block: the peer layer remembers up to 100k block IDs (SeenSet, keyed by
 * `toHex`), the URTS memo and the milestone maps key by hex too. A hex key built by appending one byte pair at a
 * time was a rope of 32 V8 cons-strings (~0.9 KB per ID, ~90 MB for a full seen-set); `toHex` now returns one flat
 * string (~80 bytes). The memory figure is measured on the live heap after forced GC, so without the fix it fails.
 */
import { expect } from 'chai';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { toHex, toHex0x } from '../../../src/core/bytes.ts';
import { SeenSet } from '../../../src/node/peering/limits.ts';

function forceGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/** A deterministic pseudo-random 32-byte ID (no crypto needed). */
function idOf(i: number): Uint8Array {
  const id = new Uint8Array(32);
  let x = (i + 1) * 2654435761;
  for (let j = 0; j < 32; j++) {
    x = (x ^ (x << 13)) >>> 0;
    x = (x ^ (x >>> 17)) >>> 0;
    x = (x ^ (x << 5)) >>> 0;
    id[j] = x & 255;
  }
  return id;
}

describe('block-ID keys kept by the node (memory per block)', function () {
  this.timeout(30000);

  it('toHex / toHex0x give the same text as a byte-by-byte reference, for every byte value and length', () => {
    const ref = (b: Uint8Array) => Array.from(b, (x) => (x < 16 ? '0' : '') + x.toString(16)).join('');
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (const b of [new Uint8Array(0), all, all.subarray(7, 8), all.subarray(250), idOf(1), idOf(2).subarray(0, 5)]) {
      expect(toHex(b)).to.equal(ref(b));
      expect(toHex0x(b)).to.equal('0x' + ref(b));
    }
  });

  it('a seen-set of 50k block IDs keyed by toHex holds under 300 bytes per ID on the live heap', () => {
    const gc = forceGc();
    const n = 50_000;
    const ids = Array.from({ length: n }, (_, i) => idOf(i));
    const seen = new SeenSet(100_000);
    seen.add(toHex(idOf(-1))); // the set's first table allocation outside the measurement
    gc();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (const id of ids) seen.add(toHex(id));
    gc();
    gc();
    const perId = (process.memoryUsage().heapUsed - before) / n;
    expect(seen.size).to.equal(n + 1);
    // a flat 64-char key is ~80 bytes plus ~20 bytes of Set table; the rope it replaced was ~900 bytes
    expect(perId, `bytes retained per ID: ${perId.toFixed(0)}`).to.be.below(300);
    expect(seen.has(toHex(ids[123]!))).to.equal(true);
  });
});
