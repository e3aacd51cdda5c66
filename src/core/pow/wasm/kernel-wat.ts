/**
 * Source of the WebAssembly SIMD Curl-P-81 kernel: emits WebAssembly text (WAT) that `scripts/build-wasm.ts`
 * assembles with wabt into `kernel.generated.ts`. One v128 = 128 lanes = 128 nonces per transform.
 *
 * Memory (2 pages): template at TEMPLATE (the caller writes the input state there, kind A encoding, layout of
 * `../lanes.ts` with 4 words per plane, i.e. 32 bytes per slot), two work buffers at BUF_A and BUF_B.
 * Export `hash()`: copies the template into BUF_A, runs 81 rounds as 27 × (A, B, C), returns the address of the
 * buffer holding the result (kind A encoding, reversed slot order).
 *
 * A round reads the reversed state R and writes the reversed new state D:
 *   D[0] = D[729] = sbox(R[0], R[365]);   for m = 0..363:  D[728-2m] = sbox(R[m+365], R[m+1]),
 *                                                           D[727-2m] = sbox(R[m+1], R[m+366]).
 * The loop is unrolled UNROLL times (364 must be a multiple) so all addresses are constant offsets.
 */
export const SLOT_BYTES = 32;
export const BUFFER_BYTES = 730 * SLOT_BYTES;
export const TEMPLATE = 0;
export const BUF_A = BUFFER_BYTES;
export const BUF_B = 2 * BUFFER_BYTES;
export const UNROLL = 14;

type Kind = 'A' | 'B' | 'C';

/** WAT expression of one s-box output plane; x/y name the locals of the two input slots (planes 0 and 1). */
function sbox(kind: Kind, x: string, y: string): { o0: string; o1: string } {
  const yx = `(v128.xor (local.get $${y}0) (local.get $${x}1))`;
  const xy = `(v128.xor (local.get $${x}0) (local.get $${y}1))`;
  switch (kind) {
    case 'A': // o0 = (y0 ^ x1) | (x0 & y1);   o1 = (x0 ^ y1) & o0
      return {
        o0: `(v128.or ${yx} (v128.and (local.get $${x}0) (local.get $${y}1)))`,
        o1: `(v128.and ${xy} (local.get $o0))`,
      };
    case 'B': // o0 = (x0 | y1) & ~(y0 ^ x1);  o1 = (x0 ^ y1) & ~o0
      return {
        o0: `(v128.andnot (v128.or (local.get $${x}0) (local.get $${y}1)) ${yx})`,
        o1: `(v128.andnot ${xy} (local.get $o0))`,
      };
    case 'C': // o0 = (y0 ^ x1) & ~(x0 & ~y1); o1 = (x0 ^ y1) | o0
      return {
        o0: `(v128.andnot ${yx} (v128.andnot (local.get $${x}0) (local.get $${y}1)))`,
        o1: `(v128.or ${xy} (local.get $o0))`,
      };
  }
}

/** Loads slot `slot` (relative to pointer local `base`) into locals name0, name1. */
function load(name: string, base: string, slot: number): string[] {
  return [
    `(local.set $${name}0 (v128.load offset=${slot * SLOT_BYTES} (local.get $${base})))`,
    `(local.set $${name}1 (v128.load offset=${slot * SLOT_BYTES + 16} (local.get $${base})))`,
  ];
}

/** Computes the s-box of slots in locals x, y and stores it at the given slots (relative to pointer locals). */
function apply(kind: Kind, x: string, y: string, outs: Array<[string, number]>): string[] {
  const { o0, o1 } = sbox(kind, x, y);
  const lines = [`(local.set $o0 ${o0})`, `(local.set $o1 ${o1})`];
  for (const [base, slot] of outs) {
    lines.push(`(v128.store offset=${slot * SLOT_BYTES} (local.get $${base}) (local.get $o0))`);
    lines.push(`(v128.store offset=${slot * SLOT_BYTES + 16} (local.get $${base}) (local.get $o1))`);
  }
  return lines;
}

function roundFunction(kind: Kind, unroll: number): string {
  // iteration u of the unrolled body: m = m0 + u; $p = src + m0·32; $q = dst + (729 - 2·m0 - 2·unroll)·32.
  // Slot R[m+365] of iteration u is R[m+366] of iteration u-1: it stays in locals ($a or $c, alternating),
  // so each iteration loads two slots (R[m+1] into $b, R[m+366] into the other of $a/$c).
  const body: string[] = [];
  for (let u = 0; u < unroll; u++) {
    const x = u % 2 === 0 ? 'a' : 'c';
    const n = u % 2 === 0 ? 'c' : 'a';
    body.push(...load('b', 'p', u + 1), ...load(n, 'p', u + 366));
    body.push(...apply(kind, x, 'b', [['q', 2 * unroll - 1 - 2 * u]]));
    body.push(...apply(kind, 'b', n, [['q', 2 * unroll - 2 - 2 * u]]));
  }
  if (unroll % 2 === 1) body.push('(local.set $a0 (local.get $c0))', '(local.set $a1 (local.get $c1))');
  const v128 = ['a0', 'a1', 'b0', 'b1', 'c0', 'c1', 'o0', 'o1'].map((l) => `(local $${l} v128)`).join(' ');
  return `  (func $round${kind} (param $src i32) (param $dst i32)
    (local $p i32) (local $q i32) (local $end i32) ${v128}
    (local.set $p (local.get $src))
    (local.set $q (local.get $dst))
      ${[
        ...load('a', 'p', 0),
        ...load('b', 'p', 365),
        ...apply(kind, 'a', 'b', [
          ['q', 0],
          ['q', 729],
        ]),
      ].join('\n      ')}
    (local.set $a0 (local.get $b0))
    (local.set $a1 (local.get $b1))
    (local.set $end (i32.add (local.get $src) (i32.const ${364 * SLOT_BYTES})))
    (local.set $q (i32.add (local.get $dst) (i32.const ${(729 - 2 * unroll) * SLOT_BYTES})))
    (loop $next
      ${body.join('\n      ')}
      (local.set $p (i32.add (local.get $p) (i32.const ${unroll * SLOT_BYTES})))
      (local.set $q (i32.sub (local.get $q) (i32.const ${2 * unroll * SLOT_BYTES})))
      (br_if $next (i32.lt_u (local.get $p) (local.get $end)))))
`;
}

/** The kernel's WebAssembly text. */
export function kernelWat(unroll = UNROLL): string {
  if (364 % unroll !== 0) throw new RangeError(`unroll ${unroll} must divide 364`);
  return `;; Curl-P-81, 128 bit-sliced lanes per v128. Generated by src/core/pow/wasm/kernel-wat.ts; do not edit.
(module
  (memory (export "memory") 2)
${roundFunction('A', unroll)}${roundFunction('B', unroll)}${roundFunction('C', unroll)}
  (func (export "hash") (result i32)
    (local $s i32) (local $d i32) (local $t i32) (local $i i32)
    (memory.copy (i32.const ${BUF_A}) (i32.const ${TEMPLATE}) (i32.const ${BUFFER_BYTES}))
    (local.set $s (i32.const ${BUF_A}))
    (local.set $d (i32.const ${BUF_B}))
    (local.set $i (i32.const 27))
    (loop $cycle
      (call $roundA (local.get $s) (local.get $d))
      (call $roundB (local.get $d) (local.get $s))
      (call $roundC (local.get $s) (local.get $d))
      (local.set $t (local.get $s))
      (local.set $s (local.get $d))
      (local.set $d (local.get $t))
      (br_if $cycle (local.tee $i (i32.sub (local.get $i) (i32.const 1)))))
    (local.get $s))
)
`;
}
