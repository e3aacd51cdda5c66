/**
 * fast-check generators of random, structurally valid Stardust model objects (they pass the decoder's and the
 * syntactic validator's rules under the Shimmer parameters): used to cross-check our codec against the reference
 * client and to fuzz. Sizes are kept small so a few thousand blocks stay fast; every kind of object is reachable.
 */
import fc from 'fast-check';
import type {
  Address,
  AliasOutput,
  Block,
  BlockPayload,
  CommonOutput,
  Ed25519Signature,
  Feature,
  FoundryOutput,
  MigratedFundsEntry,
  MilestoneOption,
  MilestonePayload,
  NativeToken,
  NftOutput,
  BasicOutput,
  TaggedDataPayload,
  TransactionPayload,
  Unlock,
  UnlockCondition,
  UtxoInput,
} from '../../src/core/model/index.ts';
import { compareBytes } from '../../src/core/bytes.ts';

export const SHIMMER_NETWORK_ID = 14364762045254553490n;

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const varBytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max });
const u32pos = fc.integer({ min: 1, max: 0xffffffff });
const sortedUnique = (arr: Uint8Array[]) => arr.slice().sort(compareBytes);

export const address: fc.Arbitrary<Address> = fc.oneof(
  bytes(32).map((pubKeyHash) => ({ type: 0 as const, pubKeyHash })),
  bytes(32).map((aliasId) => ({ type: 8 as const, aliasId })),
  bytes(32).map((nftId) => ({ type: 16 as const, nftId })),
);
const ed25519Address = bytes(32).map((pubKeyHash): Address => ({ type: 0, pubKeyHash }));

const nativeTokens: fc.Arbitrary<NativeToken[]> = fc
  .uniqueArray(bytes(38), { maxLength: 3, comparator: (a, b) => compareBytes(a, b) === 0 })
  .chain((ids) =>
    fc
      .tuple(...ids.map(() => fc.bigInt({ min: 1n, max: (1n << 256n) - 1n })))
      .map((amounts) => sortedUnique(ids).map((id, i) => ({ id, amount: amounts[i]! }))),
  );

/** Picks a sorted subset of optional entries (each generated or left out), keeping type order. */
function someOf<T>(...parts: fc.Arbitrary<T>[]): fc.Arbitrary<T[]> {
  return fc
    .tuple(...parts.map((p) => fc.option(p, { nil: undefined })))
    .map((xs) => xs.filter((x): x is T => x !== undefined));
}

const amount = fc.bigInt({ min: 1_000_000n, max: 1_000_000_000_000n });

const sdr = (max: bigint) =>
  fc
    .tuple(address, fc.bigInt({ min: 50_000n, max }))
    .map(([returnAddress, a]): UnlockCondition => ({ type: 1, returnAddress, amount: a }));
const timelock = u32pos.map((unixTime): UnlockCondition => ({ type: 2, unixTime }));
const expiration = fc
  .tuple(address, u32pos)
  .map(([returnAddress, unixTime]): UnlockCondition => ({ type: 3, returnAddress, unixTime }));
const sender = address.map((a): Feature => ({ type: 0, address: a }));
const issuer = address.map((a): Feature => ({ type: 1, address: a }));
const metadata = varBytes(1, 64).map((data): Feature => ({ type: 2, data }));
const tag = varBytes(1, 64).map((t): Feature => ({ type: 3, tag: t }));

const basicOutput: fc.Arbitrary<BasicOutput> = amount.chain((amt) =>
  fc.record({
    type: fc.constant(3 as const),
    amount: fc.constant(amt),
    nativeTokens,
    unlockConditions: fc
      .tuple(address, someOf(sdr(amt), timelock, expiration))
      .map(([a, rest]) => [{ type: 0 as const, address: a }, ...rest]),
    features: someOf(sender, metadata, tag),
  }),
);

const aliasOutput: fc.Arbitrary<AliasOutput> = fc
  .tuple(
    amount,
    nativeTokens,
    fc.option(bytes(32), { nil: undefined }),
    fc.nat(),
    varBytes(0, 64),
    fc.nat(),
    address,
    address,
    someOf(sender, metadata),
    someOf(issuer, metadata),
  )
  .map(([amt, nt, id, stateIndex, stateMetadata, foundryCounter, sc, gov, features, immutableFeatures]) => ({
    type: 4 as const,
    amount: amt,
    nativeTokens: nt,
    aliasId: id ?? new Uint8Array(32),
    stateIndex: id ? stateIndex : 0,
    stateMetadata,
    foundryCounter: id ? foundryCounter : 0,
    unlockConditions: [
      { type: 4 as const, address: sc },
      { type: 5 as const, address: gov },
    ],
    features,
    immutableFeatures,
  }));

const foundryOutput: fc.Arbitrary<FoundryOutput> = fc
  .tuple(
    amount,
    nativeTokens,
    fc.nat(),
    fc.bigInt({ min: 1n, max: (1n << 256n) - 1n }),
    fc.bigInt({ min: 0n, max: 1n << 255n }),
    fc.bigInt({ min: 0n, max: 1n << 255n }),
    bytes(32),
    someOf(metadata),
    someOf(metadata),
  )
  .map(([amt, nt, serialNumber, maximumSupply, a, b, aliasId, features, immutableFeatures]) => {
    // minted >= melted and minted - melted <= maximum supply
    // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min and Math.max do not take
    const melted = a < b ? a : b;
    // biome-ignore lint/complexity/useMathMinMax: bigints, which Math.min and Math.max do not take
    let minted = a < b ? b : a;
    if (minted - melted > maximumSupply) minted = melted + maximumSupply;
    return {
      type: 5 as const,
      amount: amt,
      nativeTokens: nt,
      serialNumber,
      tokenScheme: { type: 0 as const, mintedTokens: minted, meltedTokens: melted, maximumSupply },
      unlockConditions: [{ type: 6 as const, address: { type: 8 as const, aliasId } }],
      features,
      immutableFeatures,
    };
  });

const nftOutput: fc.Arbitrary<NftOutput> = amount.chain((amt) =>
  fc.record({
    type: fc.constant(6 as const),
    amount: fc.constant(amt),
    nativeTokens,
    nftId: fc.oneof(fc.constant(new Uint8Array(32)), bytes(32)),
    unlockConditions: fc
      .tuple(address, someOf(sdr(amt), timelock, expiration))
      .map(([a, rest]) => [{ type: 0 as const, address: a }, ...rest]),
    features: someOf(sender, metadata, tag),
    immutableFeatures: someOf(issuer, metadata),
  }),
);

export const output: fc.Arbitrary<CommonOutput> = fc.oneof(basicOutput, aliasOutput, foundryOutput, nftOutput);

const signature: fc.Arbitrary<Ed25519Signature> = fc.record({
  type: fc.constant(0 as const),
  publicKey: bytes(32),
  signature: bytes(64),
});

const utxoInputs: fc.Arbitrary<UtxoInput[]> = fc
  .uniqueArray(fc.tuple(bytes(32), fc.integer({ min: 0, max: 127 })), {
    minLength: 1,
    maxLength: 4,
    selector: ([id, i]) => Array.from(id).join(',') + ':' + i,
  })
  .map((xs) =>
    xs.map(([transactionId, transactionOutputIndex]) => ({ type: 0 as const, transactionId, transactionOutputIndex })),
  );

/** Unlocks for n inputs: the first is a signature; later ones a fresh signature or a reference/alias/NFT unlock. */
function unlocks(n: number): fc.Arbitrary<Unlock[]> {
  return fc
    .tuple(...Array.from({ length: n }, () => fc.tuple(fc.integer({ min: 0, max: 3 }), signature, fc.nat())))
    .map((choices) => {
      const out: Unlock[] = [];
      const sigIndexes: number[] = [];
      choices.forEach(([kind, sig, r], i) => {
        if (i === 0 || kind === 0) {
          out.push({ type: 0, signature: sig });
          sigIndexes.push(i);
        } else if (kind === 1) out.push({ type: 1, reference: sigIndexes[r % sigIndexes.length]! });
        else out.push({ type: kind as 2 | 3, reference: r % i });
      });
      return out;
    });
}

const taggedData: fc.Arbitrary<TaggedDataPayload> = fc.record({
  type: fc.constant(5 as const),
  tag: varBytes(0, 64),
  data: varBytes(0, 256),
});

export const transaction: fc.Arbitrary<TransactionPayload> = fc
  .tuple(
    utxoInputs,
    bytes(32),
    fc.array(output, { minLength: 1, maxLength: 4 }),
    fc.option(taggedData, { nil: undefined }),
  )
  .chain(([inputs, inputsCommitment, outputs, payload]) =>
    unlocks(inputs.length).map(
      (u): TransactionPayload => ({
        type: 6,
        essence: {
          type: 1,
          networkId: SHIMMER_NETWORK_ID,
          inputs,
          inputsCommitment,
          outputs,
          ...(payload ? { payload } : {}),
        },
        unlocks: u,
      }),
    ),
  );

const funds: fc.Arbitrary<MigratedFundsEntry[]> = fc
  .uniqueArray(bytes(49), { minLength: 1, maxLength: 3, comparator: (a, b) => compareBytes(a, b) === 0 })
  .chain((hashes) =>
    fc
      .tuple(...hashes.map(() => fc.tuple(ed25519Address, fc.bigInt({ min: 1_000_000n, max: 10_000_000_000n }))))
      .map((xs) =>
        sortedUnique(hashes).map((tailTransactionHash, i) => ({
          tailTransactionHash,
          address: xs[i]![0],
          deposit: xs[i]![1],
        })),
      ),
  );

function milestoneOptions(index: number): fc.Arbitrary<MilestoneOption[]> {
  const receipt = fc.tuple(fc.nat(), fc.boolean(), funds, bytes(32), amount).map(
    ([migratedAt, final, f, milestoneId, amt]): MilestoneOption => ({
      type: 0,
      migratedAt,
      final,
      funds: f,
      transaction: { type: 4, input: { type: 1, milestoneId }, output: { type: 2, amount: amt } },
    }),
  );
  const params = fc.tuple(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 0, max: 255 }), varBytes(0, 64)).map(
    ([d, protocolVersion, p]): MilestoneOption => ({
      type: 1,
      targetMilestoneIndex: index + d,
      protocolVersion,
      params: p,
    }),
  );
  return someOf(receipt, params);
}

function milestone(parents: Uint8Array[]): fc.Arbitrary<MilestonePayload> {
  return fc.integer({ min: 1, max: 0xffffffff - 31 }).chain((index) =>
    fc
      .tuple(
        u32pos,
        bytes(32),
        bytes(32),
        bytes(32),
        varBytes(0, 64),
        milestoneOptions(index),
        fc.uniqueArray(signature, { minLength: 1, maxLength: 3, selector: (s) => Array.from(s.publicKey).join(',') }),
      )
      .map(
        ([
          timestamp,
          previousMilestoneId,
          inclusionMerkleRoot,
          appliedMerkleRoot,
          metadata,
          options,
          sigs,
        ]): MilestonePayload => ({
          type: 7,
          index,
          timestamp,
          protocolVersion: 2,
          previousMilestoneId,
          parents,
          inclusionMerkleRoot,
          appliedMerkleRoot,
          metadata,
          options,
          signatures: sigs.slice().sort((a, b) => compareBytes(a.publicKey, b.publicKey)),
        }),
      ),
  );
}

export const parents: fc.Arbitrary<Uint8Array[]> = fc
  .uniqueArray(bytes(32), { minLength: 1, maxLength: 8, comparator: (a, b) => compareBytes(a, b) === 0 })
  .map(sortedUnique);

export type BlockKind = 'none' | 'taggedData' | 'transaction' | 'milestone';

/** A random valid block of the given kind (milestone blocks carry nonce 0). */
export function block(kind: BlockKind): fc.Arbitrary<Block> {
  return parents.chain((ps) => {
    const nonce = fc.bigInt({ min: 0n, max: (1n << 64n) - 1n });
    const withPayload = (p: fc.Arbitrary<BlockPayload>, n: fc.Arbitrary<bigint>) =>
      fc.tuple(p, n).map(([payload, nn]): Block => ({ protocolVersion: 2, parents: ps, payload, nonce: nn }));
    switch (kind) {
      case 'none':
        return nonce.map((n): Block => ({ protocolVersion: 2, parents: ps, nonce: n }));
      case 'taggedData':
        return withPayload(taggedData, nonce);
      case 'transaction':
        return withPayload(transaction, nonce);
      case 'milestone':
        return withPayload(milestone(ps), fc.constant(0n));
    }
  });
}

export const anyBlock: fc.Arbitrary<Block> = fc.oneof(
  block('none'),
  block('taggedData'),
  block('transaction'),
  block('milestone'),
);
