/** Semantic validation, step 7: alias, NFT and foundry chain transitions (conflict 12), TIP-18 as iota.go checks it. */
import { CONFLICT } from '../../../src/core/ledger/conflict.ts';
import {
  UC_GOVERNOR,
  UC_STATE_CONTROLLER,
  type AliasOutput,
  type CommonOutput,
  type FoundryOutput,
} from '../../../src/core/model/index.ts';
import {
  ZERO_ID,
  alias,
  basic,
  expectApplies,
  expectConflict,
  foundry,
  id32,
  implicitAliasId,
  implicitNftId,
  input,
  issuer,
  key,
  metadata,
  nft,
  sender,
  tokenId,
  tokens,
  validate,
  type UnlockSpec,
} from './semantic/builder.ts';

const A = key(1); // state controller
const B = key(2); // governor
const C = key(3);

describe('semantic validation: alias transitions', () => {
  const aliasId = id32(0xa0);
  const cur = alias(1000n, aliasId, A.address, B.address, {
    stateIndex: 7,
    foundryCounter: 2,
    features: [metadata('m')],
    immutableFeatures: [metadata('imm')],
  });
  const i = input(cur, 1);
  const state = (more: Partial<AliasOutput>): AliasOutput => ({ ...cur, stateIndex: 8, ...more });
  const extra = input(basic(500n, A.address), 2);

  it('a state transition may change amount and state metadata', () => {
    expectApplies(
      validate([i, extra], [state({ amount: 1500n, stateMetadata: new Uint8Array([1, 2]) })], [{ sig: A }, { ref: 0 }]),
    );
  });
  it('a state transition may not change the controllers, the metadata feature or lower the foundry counter', () => {
    const gov = { type: UC_GOVERNOR, address: C.address } as const;
    const ctl = { type: UC_STATE_CONTROLLER, address: C.address } as const;
    expectConflict(
      validate([i], [state({ unlockConditions: [ctl, cur.unlockConditions[1]!] })], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
      'state controller',
    );
    expectConflict(
      validate([i], [state({ unlockConditions: [cur.unlockConditions[0]!, gov] })], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
      'governor',
    );
    expectConflict(
      validate([i], [state({ features: [metadata('other')] })], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
      'metadata feature',
    );
    expectConflict(
      validate([i], [state({ features: [] })], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
      'metadata feature',
    );
    expectConflict(
      validate([i], [state({ foundryCounter: 1 })], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
      'lowers the foundry counter',
    );
    expectApplies(validate([i], [state({ features: [sender(A.address), metadata('m')] })], [{ sig: A }]));
  });
  it('the foundry counter may only grow by the number of new foundries of this alias', () => {
    expectConflict(
      validate([i], [state({ foundryCounter: 3 })], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
      'grows by 1 but 0',
    );
  });
  it('a governance transition may change controllers and features, nothing else', () => {
    const gov = { type: UC_GOVERNOR, address: C.address } as const;
    expectApplies(
      validate([i], [{ ...cur, unlockConditions: [cur.unlockConditions[0]!, gov], features: [] }], [{ sig: B }]),
    );
    const extraB = input(basic(500n, B.address), 2);
    expectConflict(
      validate([i, extraB], [{ ...cur, amount: 1500n }], [{ sig: B }, { ref: 0 }]),
      CONFLICT.invalidChainStateTransition,
      'amount',
    );
    expectConflict(
      validate([i], [{ ...cur, stateMetadata: new Uint8Array([9]) }], [{ sig: B }]),
      CONFLICT.invalidChainStateTransition,
      'state metadata',
    );
    expectConflict(
      validate([i], [{ ...cur, foundryCounter: 3 }], [{ sig: B }]),
      CONFLICT.invalidChainStateTransition,
      'foundry counter',
    );
    const held = input(basic(1n, B.address, { nativeTokens: tokens([tokenId(id32(5), 1), 4n]) }), 3);
    const r = validate(
      [i, held],
      [{ ...cur, nativeTokens: tokens([tokenId(id32(5), 1), 4n]) }, basic(1n, B.address)],
      [{ sig: B }, { ref: 0 }],
    );
    expectConflict(r, CONFLICT.invalidChainStateTransition, 'native tokens');
  });
  it('immutable features never change', () => {
    expectConflict(
      validate([i], [state({ immutableFeatures: [] })], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
      'immutable features',
    );
    expectConflict(
      validate([i], [{ ...cur, immutableFeatures: [metadata('x')] }], [{ sig: B }]),
      CONFLICT.invalidChainStateTransition,
      'immutable features',
    );
  });
  it('a new alias has a zero ID; its issuer must be unlocked', () => {
    const fund = input(basic(1000n, C.address), 4);
    expectApplies(
      validate(
        [fund],
        [alias(1000n, ZERO_ID, A.address, B.address, { immutableFeatures: [issuer(C.address)] })],
        [{ sig: C }],
      ),
    );
    expectConflict(
      validate(
        [fund],
        [alias(1000n, ZERO_ID, A.address, B.address, { immutableFeatures: [issuer(A.address)] })],
        [{ sig: C }],
      ),
      CONFLICT.invalidChainStateTransition,
      'issuer',
    );
    expectConflict(
      validate([fund], [alias(1000n, id32(0x5a), A.address, B.address)], [{ sig: C }]),
      CONFLICT.invalidChainStateTransition,
      'output 0',
    );
  });
  it('an alias created with a zero ID continues under its implicit ID, never under another one', () => {
    const fresh = input(alias(1000n, ZERO_ID, A.address, B.address), 6);
    const id = implicitAliasId(fresh);
    expectApplies(validate([fresh], [alias(1000n, id, A.address, B.address, { stateIndex: 1 })], [{ sig: A }]));
    expectConflict(
      validate([fresh], [alias(1000n, id32(0x99), A.address, B.address, { stateIndex: 1 })], [{ sig: B }]),
      CONFLICT.invalidChainStateTransition,
    );
  });
});

describe('semantic validation: NFT transitions', () => {
  const nftId = id32(0xb0);
  const cur = nft(1000n, nftId, A.address, { immutableFeatures: [issuer(C.address), metadata('art')] });
  const i = input(cur, 1);
  it('an NFT may change owner, features and amount, but never its immutable features', () => {
    expectApplies(
      validate(
        [i],
        [{ ...cur, unlockConditions: [{ type: 0, address: B.address }], features: [metadata('note')] }],
        [{ sig: A }],
      ),
    );
    expectConflict(
      validate([i], [{ ...cur, immutableFeatures: [issuer(C.address), metadata('fake')] }], [{ sig: A }]),
      CONFLICT.invalidChainStateTransition,
      'immutable features',
    );
  });
  it('an NFT may be burned', () => {
    expectApplies(validate([i], [basic(1000n, A.address)], [{ sig: A }]));
  });
  it('a new NFT has a zero ID and an unlocked issuer', () => {
    const fund = input(basic(1000n, C.address), 4);
    expectApplies(
      validate([fund], [nft(1000n, ZERO_ID, A.address, { immutableFeatures: [issuer(C.address)] })], [{ sig: C }]),
    );
    expectConflict(
      validate([fund], [nft(1000n, ZERO_ID, A.address, { immutableFeatures: [issuer(B.address)] })], [{ sig: C }]),
      CONFLICT.invalidChainStateTransition,
      'issuer',
    );
    expectConflict(
      validate([fund], [nft(1000n, id32(0x5b), A.address)], [{ sig: C }]),
      CONFLICT.invalidChainStateTransition,
      'not zero',
    );
  });
  it('an NFT minted with a zero ID continues under its implicit ID', () => {
    const fresh = input(nft(1000n, ZERO_ID, A.address), 6);
    expectApplies(validate([fresh], [nft(1000n, implicitNftId(fresh), B.address)], [{ sig: A }]));
  });
});

describe('semantic validation: foundries and the simple token scheme', () => {
  const aliasId = id32(0xf0);
  const ctrl = alias(1000n, aliasId, A.address, B.address, { stateIndex: 3, foundryCounter: 1 });
  const tid1 = tokenId(aliasId, 1);
  const next = (more: Partial<AliasOutput> = {}): AliasOutput => ({ ...ctrl, stateIndex: 4, ...more });

  describe('creation', () => {
    const create = (outs: CommonOutput[], counter = 2) =>
      validate([input(ctrl, 1)], [next({ amount: 500n, foundryCounter: counter }), ...outs], [{ sig: A }]);
    const tid2 = tokenId(aliasId, 2);
    it('a new foundry with the next serial number mints its initial supply', () => {
      expectApplies(
        create([
          foundry(400n, aliasId, 2, { minted: 50n }),
          basic(100n, C.address, { nativeTokens: tokens([tid2, 50n]) }),
        ]),
      );
      expectApplies(create([foundry(500n, aliasId, 2, { minted: 0n })]));
    });
    it('melted must be 0 and minted must equal the tokens on the output side', () => {
      expectConflict(
        create([
          foundry(400n, aliasId, 2, { minted: 50n, melted: 1n }),
          basic(100n, C.address, { nativeTokens: tokens([tid2, 50n]) }),
        ]),
        CONFLICT.invalidChainStateTransition,
        'melted',
      );
      expectConflict(
        create([
          foundry(400n, aliasId, 2, { minted: 51n }),
          basic(100n, C.address, { nativeTokens: tokens([tid2, 50n]) }),
        ]),
        CONFLICT.invalidChainStateTransition,
        'minted',
      );
    });
    it('the serial number must lie in (old counter, new counter]', () => {
      expectConflict(
        create([foundry(500n, aliasId, 1, { minted: 0n })]),
        CONFLICT.invalidChainStateTransition,
        'serial number 1',
      );
      expectConflict(
        create([foundry(500n, aliasId, 3, { minted: 0n })]),
        CONFLICT.invalidChainStateTransition,
        'serial number 3',
      );
    });
    it('several new foundries must appear in ascending serial order and match the counter growth', () => {
      expectApplies(create([foundry(250n, aliasId, 2, { minted: 0n }), foundry(250n, aliasId, 3, { minted: 0n })], 3));
      expectConflict(
        create([foundry(250n, aliasId, 3, { minted: 0n }), foundry(250n, aliasId, 2, { minted: 0n })], 3),
        CONFLICT.invalidChainStateTransition,
        'serial number',
      );
      expectConflict(
        create([foundry(500n, aliasId, 2, { minted: 0n })], 3),
        CONFLICT.invalidChainStateTransition,
        'grows by 2 but 1',
      );
    });
    it('the controlling alias must be state-transitioned in the same transaction', () => {
      const fund = input(basic(500n, C.address), 2);
      expectConflict(
        validate([fund], [foundry(500n, aliasId, 2, { minted: 0n })], [{ sig: C }]),
        CONFLICT.invalidChainStateTransition,
        'not consumed',
      );
      // governance transition: the counter cannot change, so the serial number cannot fit
      expectConflict(
        validate([input(ctrl, 1), fund], [ctrl, foundry(500n, aliasId, 2, { minted: 0n })], [{ sig: B }, { sig: C }]),
        CONFLICT.invalidChainStateTransition,
      );
    });
  });

  describe('transition, melting, burning and destruction', () => {
    const cur = foundry(
      500n,
      aliasId,
      1,
      { minted: 100n, melted: 10n, max: 1000n },
      { immutableFeatures: [metadata('f')] },
    );
    /** alias (state controller), the foundry (alias unlock), a basic output of A holding `held` tokens (reference). */
    const run = (
      held: bigint,
      outs: CommonOutput[],
      unlocks: UnlockSpec[] = [{ sig: A }, { alias: 0 }, { ref: 0 }],
    ) => {
      const ins = [
        input(ctrl, 1),
        input(cur, 2),
        input(basic(100n, A.address, held ? { nativeTokens: tokens([tid1, held]) } : {}), 3),
      ];
      return validate(ins, [next(), ...outs], unlocks);
    };
    const holder = (n: bigint) => basic(100n, C.address, n ? { nativeTokens: tokens([tid1, n]) } : {});
    const withScheme = (minted: bigint, melted: bigint, max = 1000n): FoundryOutput => ({
      ...cur,
      tokenScheme: { ...cur.tokenScheme, mintedTokens: minted, meltedTokens: melted, maximumSupply: max },
    });

    it('needs the controlling alias to be state-transitioned to unlock the foundry (9 otherwise)', () => {
      const ins = [input(ctrl, 1), input(cur, 2)];
      expectConflict(validate(ins, [ctrl, cur], [{ sig: B }, { alias: 0 }]), CONFLICT.invalidInputUnlock, 'input 1');
    });
    it('mint: the token increase equals the minted increase, melted unchanged', () => {
      expectApplies(run(90n, [withScheme(150n, 10n), holder(140n)]));
      expectConflict(
        run(90n, [withScheme(149n, 10n), holder(140n)]),
        CONFLICT.invalidChainStateTransition,
        'minted increase',
      );
      expectConflict(run(90n, [withScheme(150n, 11n), holder(140n)]), CONFLICT.invalidChainStateTransition, 'melted');
    });
    it('melt and burn: minted unchanged, melted grows by at most the tokens removed', () => {
      expectApplies(run(90n, [withScheme(100n, 50n), holder(50n)]));
      expectApplies(run(90n, [withScheme(100n, 30n), holder(50n)]));
      expectApplies(run(90n, [withScheme(100n, 10n), holder(0n)]));
      expectConflict(run(90n, [withScheme(100n, 51n), holder(50n)]), CONFLICT.invalidChainStateTransition, 'exceeds');
      expectConflict(run(90n, [withScheme(101n, 50n), holder(50n)]), CONFLICT.invalidChainStateTransition, 'minted');
    });
    it('without a token delta minted and melted stay as they are (iota.go)', () => {
      expectApplies(run(90n, [withScheme(100n, 10n), holder(90n)]));
      expectConflict(
        run(90n, [withScheme(100n, 20n), holder(90n)]),
        CONFLICT.invalidChainStateTransition,
        'without a token delta',
      );
    });
    it('maximum supply and immutable features are fixed; counters never decrease', () => {
      expectConflict(
        run(90n, [withScheme(100n, 10n, 999n), holder(90n)]),
        CONFLICT.invalidChainStateTransition,
        'maximum supply',
      );
      expectConflict(
        run(90n, [{ ...withScheme(100n, 10n), immutableFeatures: [] }, holder(90n)]),
        CONFLICT.invalidChainStateTransition,
        'immutable features',
      );
      expectConflict(
        run(90n, [withScheme(100n, 5n), holder(95n)]),
        CONFLICT.invalidChainStateTransition,
        'melted tokens decreased',
      );
    });
    it('destruction: minted plus the token delta must equal melted', () => {
      expectApplies(run(90n, [basic(600n, C.address)]));
      expectConflict(run(80n, [basic(600n, C.address)]), CONFLICT.invalidChainStateTransition, 'destroyed');
      expectConflict(run(90n, [basic(500n, C.address), holder(1n)]), CONFLICT.invalidChainStateTransition, 'destroyed');
    });
    it('native token rules come before the chain rules', () => {
      // tokens of another, absent foundry appear from nowhere (7) while the foundry transition is also wrong (12)
      const other = tokenId(id32(0x0e), 1);
      const r = run(90n, [
        withScheme(100n, 20n),
        basic(100n, C.address, { nativeTokens: tokens([tid1, 90n], [other, 1n]) }),
      ]);
      expectConflict(r, CONFLICT.invalidNativeTokens);
    });
  });
});
