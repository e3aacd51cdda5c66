/** Choosing a nonce searcher: the WASM SIMD kernel when the runtime supports it, else the JS bit-sliced one. */
import { createBitslicedSearcher } from './bitsliced-search.ts';
import { createJsKernel } from './js-kernel.ts';
import { createScalarSearcher, type NonceSearcher } from './search.ts';
import { createWasmKernel } from './wasm-kernel.ts';

export type SearcherKind = 'scalar' | 'js' | 'wasm';

/** A searcher of the given kind (throws for `wasm` when WebAssembly SIMD is unavailable). */
export function createSearcher(kind: SearcherKind): NonceSearcher {
  switch (kind) {
    case 'scalar':
      return createScalarSearcher();
    case 'js':
      return createBitslicedSearcher(createJsKernel());
    case 'wasm':
      return createBitslicedSearcher(createWasmKernel());
  }
}

/** The fastest searcher this runtime supports. */
export function createFastestSearcher(): NonceSearcher {
  try {
    return createSearcher('wasm');
  } catch {
    return createSearcher('js');
  }
}
