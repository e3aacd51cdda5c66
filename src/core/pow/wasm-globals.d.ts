/**
 * The WebAssembly JS API (a standard host global on Node, Deno, Bun and browsers), declared here because the
 * neutrality gate compiles src/core with the ECMAScript library only. Only what src/core/pow uses.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: object);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
  }
  function validate(bytes: Uint8Array): boolean;
}
