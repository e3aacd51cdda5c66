/**
 * Loads the WebAssembly SIMD kernel (128 lanes per transform) from the bytes embedded in `kernel.generated.ts`,
 * the same way on every runtime (no file or network access). Throws when the host lacks WebAssembly SIMD.
 */
import type { LaneKernel } from './bitsliced-search.ts';
import { fromBase64 } from './wasm/assemble.ts';
import { KERNEL_BASE64 } from './wasm/kernel.generated.ts';
import { BUFFER_BYTES, TEMPLATE } from './wasm/kernel-wat.ts';

let cached: WebAssembly.Module | null = null;

/** The kernel's bytes. */
export function kernelBytes(): Uint8Array {
  return fromBase64(KERNEL_BASE64);
}

/** The compiled kernel module (compiled once per thread). */
export function kernelModule(): WebAssembly.Module {
  if (!cached) {
    const bytes = kernelBytes();
    if (!WebAssembly.validate(bytes))
      throw new Error('Cannot load the WASM SIMD kernel: this runtime does not support WebAssembly SIMD');
    cached = new WebAssembly.Module(bytes);
  }
  return cached;
}

/** A 128-lane WASM SIMD kernel (one instance and memory per call). */
export function createWasmKernel(): LaneKernel {
  const instance = new WebAssembly.Instance(kernelModule(), {});
  const memory = instance.exports['memory'] as WebAssembly.Memory;
  const hash = instance.exports['hash'] as () => number;
  const words = 4;
  const input = new Int32Array(memory.buffer, TEMPLATE, BUFFER_BYTES / 4);
  const views = new Map<number, Int32Array>(); // the memory never grows, so views stay valid
  return {
    name: 'wasm-simd-128',
    words,
    input,
    transform() {
      const ptr = hash();
      let view = views.get(ptr);
      if (!view) {
        view = new Int32Array(memory.buffer, ptr, BUFFER_BYTES / 4);
        views.set(ptr, view);
      }
      return view;
    },
  };
}
