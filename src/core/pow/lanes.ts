/**
 * The bit-sliced Curl layout shared by the JS and the WebAssembly kernels.
 *
 * Lanes: bit j of every word evaluates a different nonce (32 lanes per 32-bit word; the WASM kernel uses four
 * words = one 128-bit vector). A trit is two bits per lane, in one of three encodings that the rounds rotate
 * through (each round then needs 5 bitwise operations instead of 6, see `sbox` below):
 *   kind A input: (P0, P1) = (~l, h)   kind B input: (l, ~h)   kind C input: (~l, ~h)
 * where the classic bct encoding is -1 = (l 1, h 0), 0 = (1, 1), +1 = (0, 1). 81 rounds = 27 × (A, B, C), so the
 * state enters and leaves the transform in the kind A encoding: +1 = (1, 1), 0 = (0, 1), -1 = (0, 0).
 *
 * Slot order: the state is stored reversed, slot k holds trit (729 - k) mod 729, plus a copy of slot 0 in slot 729.
 * Curl reads trit pairs (364·i, 364·(i+1)) mod 729 = (-i/2, -(i+1)/2), so in reversed order every round streams
 * through the slots in address order (see `roundSlots`). Array index of (slot, plane, word): (slot·2 + plane)·words +
 * word.
 */
export const SLOTS = 730;

/** The slot holding trit `i` of the state. */
export function slotOf(trit: number): number {
  return (729 - trit) % 729;
}

/*
 * The s-box in the three encodings, x = first trit read (a), y = second (b); the JS kernel and the WASM generator
 * both implement exactly these formulas (each output slot: 5 bitwise operations):
 *   A: o0 = (y0 ^ x1) | (x0 & y1);   o1 = (x0 ^ y1) & o0          -> output in kind B encoding
 *   B: o0 = (x0 | y1) & ~(y0 ^ x1);  o1 = (x0 ^ y1) & ~o0         -> output in kind C encoding
 *   C: o0 = (y0 ^ x1) & ~(x0 & ~y1); o1 = (x0 ^ y1) | o0          -> output in kind A encoding
 * Derived from the classic bct s-box delta = (l_a | ~h_b) & (l_b ^ h_a); l' = ~delta; h' = (l_a ^ h_b) | delta.
 */
