/** Semantic validation, steps 4-6: sender features, base token balance, storage deposit returns, native tokens. */
import { CONFLICT } from '../../../src/core/ledger/conflict.ts';
import {
  UC_EXPIRATION,
  UC_STORAGE_DEPOSIT_RETURN,
  UC_TIMELOCK,
  type NativeToken,
} from '../../../src/core/model/index.ts';
import {
  NOW,
  alias,
  aliasAddress,
  basic,
  expectApplies,
  expectConflict,
  foundry,
  id32,
  input,
  key,
  metadata,
  nft,
  nftAddress,
  sender,
  tokenId,
  tokens,
  validate,
} from './semantic/builder.ts';

const A = key(1);
const B = key(2);
const C = key(3);

describe('semantic validation: sender features (conflict 11)', () => {
  const i = input(basic(1000n, A.address), 1);
  it('a sender that signed an input is unlocked', () => {
    expectApplies(validate([i], [basic(1000n, B.address, { features: [sender(A.address)] })], [{ sig: A }]));
  });
  it('a sender that did not unlock anything is rejected, naming the output', () => {
    const r = validate(
      [i],
      [basic(400n, B.address), basic(600n, B.address, { features: [sender(C.address)] })],
      [{ sig: A }],
    );
    expectConflict(r, CONFLICT.senderNotUnlocked, 'output 1');
  });
  it('a state-transitioned alias and a consumed NFT are unlocked senders; a governance-transitioned one is not', () => {
    const aliasId = id32(0xa1);
    const nftId = id32(0xb1);
    const a = alias(1000n, aliasId, A.address, B.address, { stateIndex: 1 });
    const ins = [input(a, 1), input(nft(500n, nftId, C.address), 2)];
    const sent = basic(500n, C.address, { features: [sender(aliasAddress(aliasId))] });
    expectApplies(validate(ins, [{ ...a, stateIndex: 2 }, sent], [{ sig: A }, { sig: C }]));
    expectConflict(validate(ins, [a, sent], [{ sig: B }, { sig: C }]), CONFLICT.senderNotUnlocked);
    expectApplies(
      validate(ins, [a, basic(500n, C.address, { features: [sender(nftAddress(nftId))] })], [{ sig: B }, { sig: C }]),
    );
  });
  it('is checked before the base token balance', () => {
    expectConflict(
      validate([i], [basic(999n, B.address, { features: [sender(C.address)] })], [{ sig: A }]),
      CONFLICT.senderNotUnlocked,
    );
  });
});

describe('semantic validation: base token balance (conflict 4)', () => {
  const ins = [input(basic(1000n, A.address), 1), input(basic(234n, A.address), 2)];
  it('input and output sums must be equal', () => {
    expectApplies(validate(ins, [basic(1200n, B.address), basic(34n, A.address)], [{ sig: A }, { ref: 0 }]));
  });
  it('more or fewer base tokens on the output side is a mismatch', () => {
    expectConflict(validate(ins, [basic(1235n, B.address)], [{ sig: A }, { ref: 0 }]), CONFLICT.amountMismatch, '1234');
    expectConflict(validate(ins, [basic(1233n, B.address)], [{ sig: A }, { ref: 0 }]), CONFLICT.amountMismatch);
  });
});

describe('semantic validation: storage deposit return (conflict 8)', () => {
  const sdr = (amount: bigint) => ({ type: UC_STORAGE_DEPOSIT_RETURN, returnAddress: B.address, amount }) as const;
  const i = input(basic(1000n, A.address, { conditions: [sdr(400n)] }), 1);
  it('a simple transfer of at least the return amount to the return address fulfils it', () => {
    expectApplies(validate([i], [basic(400n, B.address), basic(600n, C.address)], [{ sig: A }]));
    expectApplies(validate([i], [basic(500n, B.address), basic(500n, C.address)], [{ sig: A }]));
  });
  it('several simple transfers to the return address add up', () => {
    expectApplies(
      validate([i], [basic(200n, B.address), basic(200n, B.address), basic(600n, C.address)], [{ sig: A }]),
    );
  });
  it('returning less is rejected', () => {
    expectConflict(
      validate([i], [basic(399n, B.address), basic(601n, C.address)], [{ sig: A }]),
      CONFLICT.returnAmountNotFulfilled,
      'return of 400',
    );
  });
  it('only simple transfers count: no features, no native tokens, no further unlock conditions', () => {
    const tid = tokenId(id32(0x77), 1);
    const i2 = input(basic(1000n, A.address, { conditions: [sdr(400n)], nativeTokens: tokens([tid, 5n]) }), 1);
    for (const notSimple of [
      basic(400n, B.address, { features: [metadata('x')] }),
      basic(400n, B.address, { conditions: [{ type: UC_TIMELOCK, unixTime: NOW + 10 }] }),
      basic(400n, B.address, { nativeTokens: tokens([tid, 5n]) }),
    ]) {
      const out = [
        notSimple,
        basic(600n, C.address, { nativeTokens: notSimple.nativeTokens.length ? [] : tokens([tid, 5n]) }),
      ];
      expectConflict(validate([i2], out, [{ sig: A }]), CONFLICT.returnAmountNotFulfilled);
    }
  });
  it('return amounts of several inputs to the same address are summed', () => {
    const ins = [i, input(basic(1000n, A.address, { conditions: [sdr(300n)] }), 2)];
    expectApplies(validate(ins, [basic(700n, B.address), basic(1300n, C.address)], [{ sig: A }, { ref: 0 }]));
    expectConflict(
      validate(ins, [basic(699n, B.address), basic(1301n, C.address)], [{ sig: A }, { ref: 0 }]),
      CONFLICT.returnAmountNotFulfilled,
    );
  });
  it('an expired input taken by the return address owes nothing, one taken by its owner still does', () => {
    const exp = input(
      basic(1000n, A.address, {
        conditions: [sdr(400n), { type: UC_EXPIRATION, returnAddress: B.address, unixTime: NOW + 100 }],
      }),
      1,
    );
    expectConflict(validate([exp], [basic(1000n, C.address)], [{ sig: A }]), CONFLICT.returnAmountNotFulfilled);
    const expired = input(
      basic(1000n, A.address, {
        conditions: [sdr(400n), { type: UC_EXPIRATION, returnAddress: B.address, unixTime: NOW }],
      }),
      1,
    );
    expectApplies(validate([expired], [basic(1000n, C.address)], [{ sig: B }]));
  });
  it('the base token balance is checked before the return amounts', () => {
    expectConflict(validate([i], [basic(100n, B.address)], [{ sig: A }]), CONFLICT.amountMismatch);
  });
});

describe('semantic validation: native tokens (conflict 7)', () => {
  const t1 = tokenId(id32(0x71), 1);
  const t2 = tokenId(id32(0x72), 1);
  const holding = (...list: [Uint8Array, bigint][]) =>
    input(basic(1000n, A.address, { nativeTokens: tokens(...list) }), 1);

  it('tokens may be kept, split and burned without their foundry', () => {
    const i = holding([t1, 100n], [t2, 5n]);
    expectApplies(
      validate(
        [i],
        [
          basic(500n, B.address, { nativeTokens: tokens([t1, 60n]) }),
          basic(500n, A.address, { nativeTokens: tokens([t1, 40n]) }),
        ],
        [{ sig: A }],
      ),
    );
    expectApplies(validate([i], [basic(1000n, B.address, { nativeTokens: tokens([t1, 1n]) })], [{ sig: A }]));
  });
  it('more tokens on the output side without their foundry is rejected', () => {
    const r = validate(
      [holding([t1, 100n])],
      [basic(1000n, B.address, { nativeTokens: tokens([t1, 101n]) })],
      [{ sig: A }],
    );
    expectConflict(r, CONFLICT.invalidNativeTokens, 'foundry is not transitioning');
  });
  it('a token that appears only on the output side without its foundry is rejected', () => {
    const r = validate(
      [holding([t1, 100n])],
      [basic(1000n, B.address, { nativeTokens: tokens([t1, 100n], [t2, 1n]) })],
      [{ sig: A }],
    );
    expectConflict(r, CONFLICT.invalidNativeTokens, 'new on the output side');
  });
  const many = (n: number, from = 0): NativeToken[] =>
    Array.from({ length: n }, (_, k) => ({ id: tokenId(id32(0x10), from + k + 1), amount: 1n }));
  it('at most 64 distinct token IDs on the input side', () => {
    const ins = [input(basic(1000n, A.address, { nativeTokens: many(64) }), 1)];
    expectApplies(validate(ins, [basic(1000n, B.address)], [{ sig: A }]));
    const ins2 = [...ins, input(basic(1000n, A.address, { nativeTokens: many(1, 64) }), 2)];
    expectConflict(
      validate(ins2, [basic(2000n, B.address)], [{ sig: A }, { ref: 0 }]),
      CONFLICT.invalidNativeTokens,
      'inputs carry 65 distinct',
    );
  });
  it('at most 64 distinct token IDs over inputs and outputs together', () => {
    // 64 held tokens plus one minted by a new foundry (valid on its own): 65 distinct.
    const aliasId = id32(0x10);
    const a = alias(1000n, aliasId, A.address, B.address, { foundryCounter: 64 });
    const held = many(64);
    const ins = [input(a, 1), input(basic(1000n, A.address, { nativeTokens: held }), 2)];
    const minted = { id: tokenId(aliasId, 65), amount: 1n };
    const out = (keep: NativeToken[]) => [
      { ...a, amount: 500n, stateIndex: 1, foundryCounter: 65 },
      foundry(500n, aliasId, 65, { minted: 1n }),
      basic(1000n, B.address, { nativeTokens: [...keep, minted] }),
    ];
    expectConflict(
      validate(ins, out(held), [{ sig: A }, { ref: 0 }]),
      CONFLICT.invalidNativeTokens,
      'inputs and outputs carry 65 distinct',
    );
    const ins63 = [input(a, 1), input(basic(1000n, A.address, { nativeTokens: held.slice(0, 63) }), 2)];
    expectApplies(validate(ins63, out(held.slice(0, 63)), [{ sig: A }, { ref: 0 }]));
  });
  it('sums beyond 2^256-1 are rejected', () => {
    const max = (1n << 256n) - 1n;
    const ins = [holding([t1, max]), input(basic(1000n, A.address, { nativeTokens: tokens([t1, 1n]) }), 2)];
    expectConflict(
      validate(ins, [basic(2000n, B.address)], [{ sig: A }, { ref: 0 }]),
      CONFLICT.invalidNativeTokens,
      'exceeds',
    );
    expectApplies(
      validate([holding([t1, max])], [basic(1000n, B.address, { nativeTokens: tokens([t1, max]) })], [{ sig: A }]),
    );
  });
  it('the base token balance is checked before the native tokens', () => {
    expectConflict(
      validate([holding([t1, 1n])], [basic(999n, B.address, { nativeTokens: tokens([t1, 2n]) })], [{ sig: A }]),
      CONFLICT.amountMismatch,
    );
  });
});
