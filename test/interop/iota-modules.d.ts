/**
 * Minimal typings for the parts of the reference client used by the interop test and the codec benchmark.
 * (@iota/iota.js and @iota/util.js rc ship typings, but their package `exports` map does not expose them to
 * NodeNext resolution.) Blocks are plain TIP-25-like JSON objects.
 */
declare module '@iota/util.js' {
  export class WriteStream {
    constructor();
    finalBytes(): Uint8Array;
  }
  export class ReadStream {
    constructor(storage: Uint8Array, readStartIndex?: number);
  }
}

declare module '@iota/iota.js' {
  import type { ReadStream, WriteStream } from '@iota/util.js';
  /** An iota.js block: TIP-25-like JSON (hex strings, u64 as decimal strings). */
  export interface IBlock {
    protocolVersion: number;
    parents: string[];
    payload?: { type: number; [key: string]: unknown };
    nonce: string;
  }
  export function serializeBlock(writeStream: WriteStream, object: IBlock): void;
  export function deserializeBlock(readStream: ReadStream): IBlock;
  // biome-ignore lint/complexity/noStaticOnlyClass: declares the shape of a third-party module
  export class TransactionHelper {
    static calculateBlockId(block: IBlock): string;
  }
}

declare module '@iota/crypto.js' {
  // biome-ignore lint/complexity/noStaticOnlyClass: declares the shape of a third-party module
  export class Blake2b {
    static sum256(data: Uint8Array, key?: Uint8Array): Uint8Array;
  }
}
