/**
 * The only host globals src/core may use beyond ECMAScript itself: the WHATWG encoding API, which
 * Node, Deno, Bun and browsers all provide (WinterCG minimum common API). Declared here so the
 * neutrality gate (tsconfig.core.json: lib ES2022, no types) still rejects host globals and node: imports.
 */
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: Uint8Array): string;
}
