/** What the parts of the storage contract share: the harness, the store under test, byte and iteration helpers. */
import { toHex } from '../../../src/core/bytes.ts';
import type { BlockMetadata, KeyValueStore, RangeOptions } from '../../../src/core/store/index.ts';

export interface StoreHarness {
  /** Opens the store under test. After `close()`, a persistent harness re-opens the same data. */
  open(): Promise<KeyValueStore>;
  /** Whether data survives close + open. */
  readonly persistent: boolean;
  /** Removes what the harness created (temp folders). */
  cleanup?(): Promise<void>;
}

/** The store a contract test runs against; `kv` changes when a test re-opens it, so the parts read it when they run. */
export class StoreUnderTest {
  harness!: StoreHarness;
  kv!: KeyValueStore;

  /** Closes the store and opens it again from the harness (the same data when the harness is persistent). */
  async reopen(): Promise<KeyValueStore> {
    await this.kv.close();
    this.kv = await this.harness.open();
    return this.kv;
  }
}

export const b = (...xs: number[]): Uint8Array => Uint8Array.from(xs);
export const h = (bytes: Uint8Array): string => toHex(bytes);
export const id = (seed: number, length = 32): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => (seed * 31 + i * 7) & 0xff);

export async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
export const keysOf = async (kv: KeyValueStore, range?: RangeOptions): Promise<string[]> =>
  (await all(kv.keys(range))).map(h);

export async function rejects(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

export function metadata(over: Partial<BlockMetadata> = {}): BlockMetadata {
  return { protocolVersion: 2, solid: false, arrivalTime: 1_700_000_000_123, ...over };
}
