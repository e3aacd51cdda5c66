/**
 * The identities (addresses) a transaction has unlocked on its input side, iota.go's "UnlockedIdentities":
 * each remembers the input whose unlock unlocked it and the later inputs that referenced it.
 */
export interface UnlockedIdentity {
  unlockedAt: number;
  referencedBy: Set<number>;
}

export class UnlockedIdentities {
  readonly #byKey = new Map<string, UnlockedIdentity>();

  has(key: string): boolean {
    return this.#byKey.has(key);
  }

  get(key: string): UnlockedIdentity | undefined {
    return this.#byKey.get(key);
  }

  /** Records that `key` was unlocked by input `inputIndex` (a signature, or a consumed chain). */
  add(key: string, inputIndex: number): void {
    this.#byKey.set(key, { unlockedAt: inputIndex, referencedBy: new Set() });
  }

  /**
   * A reference (or alias/NFT) unlock of input `inputIndex` pointing to `ref`: valid when `key` was unlocked at `ref`.
   */
  reference(key: string, ref: number, inputIndex: number): boolean {
    const ident = this.#byKey.get(key);
    if (!ident || ident.unlockedAt !== ref) return false;
    ident.referencedBy.add(inputIndex);
    return true;
  }

  /** True when input `inputIndex` was unlocked by `key`, directly or through a reference. */
  unlockedBy(inputIndex: number, key: string): boolean {
    const ident = this.#byKey.get(key);
    if (!ident) return false;
    return ident.unlockedAt === inputIndex || ident.referencedBy.has(inputIndex);
  }
}
