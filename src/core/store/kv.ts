/**
 * The low-level storage port: an ordered key-value store over byte strings. Keys sort lexically
 * (unsigned bytes, a shorter prefix first), as LevelDB orders them. Everything above this port
 * (NodeStore, the ledger tables) is written once against it; adapters implement only this.
 */

/** One write of a batch: `put` sets a value, `del` removes a key (removing a missing key is not an error). */
export type BatchOp =
  | { readonly type: 'put'; readonly key: Uint8Array; readonly value: Uint8Array }
  | { readonly type: 'del'; readonly key: Uint8Array };

export interface WriteOptions {
  /**
   * `true` for acknowledged writes: the promise settles only once the data is on disk (LevelDB `sync`, fsync).
   * `false` hands the data to the operating system and returns (survives a process crash, not a power cut).
   * Adapters without a disk ignore it. Default: `true`.
   */
  readonly sync?: boolean;
}

/** Bounds of a range read. Keys between the bounds are visited in order (or reversed), at most `limit` of them. */
export interface RangeOptions {
  readonly gt?: Uint8Array;
  readonly gte?: Uint8Array;
  readonly lt?: Uint8Array;
  readonly lte?: Uint8Array;
  readonly reverse?: boolean;
  /** Maximum number of entries; negative or absent means no limit. */
  readonly limit?: number;
}

export type Entry = readonly [key: Uint8Array, value: Uint8Array];

export interface KeyValueStore {
  /** The value, or `undefined` when the key is missing (never throws for "not found"). */
  get(key: Uint8Array): Promise<Uint8Array | undefined>;
  /** Values in the order of `keys`, `undefined` for each missing key; all read from one snapshot. */
  getMany(keys: readonly Uint8Array[]): Promise<(Uint8Array | undefined)[]>;
  has(key: Uint8Array): Promise<boolean>;
  put(key: Uint8Array, value: Uint8Array, options?: WriteOptions): Promise<void>;
  del(key: Uint8Array, options?: WriteOptions): Promise<void>;
  /** Applies every op or none (atomic). Later ops on the same key win. */
  write(ops: readonly BatchOp[], options?: WriteOptions): Promise<void>;
  /**
   * Entries in key order within the range. The snapshot is taken when `entries` is called, so writes made
   * while iterating are not seen. Breaking out of a `for await` loop releases the iterator.
   */
  entries(range?: RangeOptions): AsyncIterableIterator<Entry>;
  /** Keys only (same snapshot and ordering rules as `entries`). */
  keys(range?: RangeOptions): AsyncIterableIterator<Uint8Array>;
  /** Releases the store; any later call rejects with StoreError `STORE_CLOSED`. Closing twice is allowed. */
  close(): Promise<void>;
}
