/**
 * Semantic validation, steps 1-3: timelocks, inputs commitment, unlocking every input (TIP-18/TIP-20, iota.go order).
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { CONFLICT } from '../../../src/core/ledger/conflict.ts';
import { validateTransactionSemantics } from '../../../src/core/ledger/semantic.ts';
import { UC_EXPIRATION, UC_STORAGE_DEPOSIT_RETURN, UC_TIMELOCK } from '../../../src/core/model/index.ts';
import {
  CTX,
  NOW,
  ZERO_ID,
  alias,
  aliasAddress,
  basic,
  expectApplies,
  expectConflict,
  id32,
  implicitAliasId,
  input,
  key,
  nft,
  nftAddress,
  transaction,
  validate,
} from './semantic/builder.ts';

const A = key(1);
const B = key(2);
const C = key(3);

describe('semantic validation: timelocks (conflict 6)', () => {
  it('an input whose timelock equals the milestone timestamp is spendable', () => {
    const i = input(basic(1000n, A.address, { conditions: [{ type: UC_TIMELOCK, unixTime: NOW }] }), 1);
    expectApplies(validate([i], [basic(1000n, B.address)], [{ sig: A }]));
  });
  it('an input whose timelock lies after the milestone timestamp is not', () => {
    const i = input(basic(1000n, A.address, { conditions: [{ type: UC_TIMELOCK, unixTime: NOW + 1 }] }), 1);
    expectConflict(validate([i], [basic(1000n, B.address)], [{ sig: A }]), CONFLICT.timelockNotExpired, 'input 0');
  });
  it('is checked before the inputs commitment and the unlocks', () => {
    const i = input(basic(1000n, A.address, { conditions: [{ type: UC_TIMELOCK, unixTime: NOW + 60 }] }), 1);
    const r = validate([i], [basic(1000n, B.address)], [{ sig: C }], { inputsCommitment: new Uint8Array(32) });
    expectConflict(r, CONFLICT.timelockNotExpired);
  });
});

describe('semantic validation: inputs commitment (conflict 10)', () => {
  const i = input(basic(1000n, A.address), 1);
  it('a commitment over the consumed outputs in input order is accepted', () => {
    expectApplies(validate([i], [basic(1000n, B.address)], [{ sig: A }]));
  });
  it('any other commitment is rejected before signatures are looked at', () => {
    const r = validate([i], [basic(1000n, B.address)], [{ badSig: A }], { inputsCommitment: id32(7) });
    expectConflict(r, CONFLICT.invalidInputsCommitment, toHex0x(id32(7)));
  });
  it('the commitment depends on the input order', () => {
    const j = input(basic(2000n, A.address), 2);
    const tx = transaction([i, j], [basic(3000n, B.address)], [{ sig: A }, { ref: 0 }]);
    const swapped = {
      ...tx,
      essence: { ...tx.essence, inputsCommitment: transaction([j, i], [], []).essence.inputsCommitment },
    };
    expectConflict(validateTransactionSemantics(swapped, [i, j], CTX), CONFLICT.invalidInputsCommitment);
  });
});

describe('semantic validation: signature and reference unlocks', () => {
  it('a valid Ed25519 signature over the essence hash unlocks the address (ZIP-215 verifier)', () => {
    expectApplies(validate([input(basic(1000n, A.address), 1)], [basic(1000n, B.address)], [{ sig: A }]));
  });
  it('a signature by another key does not (public key does not match the address: 5)', () => {
    const r = validate([input(basic(1000n, A.address), 1)], [basic(1000n, B.address)], [{ sig: B }]);
    expectConflict(r, CONFLICT.invalidSignature, 'input 0: public key');
  });
  it('a signature over another message does not verify (5)', () => {
    const r = validate([input(basic(1000n, A.address), 1)], [basic(1000n, B.address)], [{ badSig: A }]);
    expectConflict(
      r,
      CONFLICT.invalidSignature,
      `input 0: signature does not verify for Ed25519 address ${toHex0x(A.address.pubKeyHash)}`,
    );
  });
  it('a tampered essence invalidates the signature', () => {
    const i = input(basic(1000n, A.address), 1);
    const tx = transaction([i], [basic(1000n, B.address)], [{ sig: A }]);
    const tampered = { ...tx, essence: { ...tx.essence, outputs: [basic(1000n, C.address)] } };
    expectConflict(validateTransactionSemantics(tampered, [i], CTX), CONFLICT.invalidSignature);
  });
  it('a reference unlock to the signature that unlocked the same address is valid', () => {
    const ins = [input(basic(1000n, A.address), 1), input(basic(500n, B.address), 2), input(basic(700n, A.address), 3)];
    expectApplies(validate(ins, [basic(2200n, C.address)], [{ sig: A }, { sig: B }, { ref: 0 }]));
  });
  it('a reference unlock to a signature of another address is invalid (9)', () => {
    const ins = [input(basic(1000n, A.address), 1), input(basic(500n, B.address), 2), input(basic(700n, A.address), 3)];
    expectConflict(
      validate(ins, [basic(2200n, C.address)], [{ sig: A }, { sig: B }, { ref: 1 }]),
      CONFLICT.invalidInputUnlock,
      'input 2',
    );
  });
  it('a second signature unlock for an already unlocked address is invalid (9)', () => {
    const ins = [input(basic(1000n, A.address), 1), input(basic(700n, A.address), 3)];
    expectConflict(
      validate(ins, [basic(1700n, C.address)], [{ sig: A }, { sig: A }]),
      CONFLICT.invalidInputUnlock,
      'already unlocked by input 0',
    );
  });
  it('an alias or NFT unlock on an Ed25519-owned input is invalid (9)', () => {
    const ins = [input(basic(1000n, A.address), 1), input(basic(700n, A.address), 3)];
    expectConflict(validate(ins, [basic(1700n, C.address)], [{ sig: A }, { alias: 0 }]), CONFLICT.invalidInputUnlock);
    expectConflict(validate(ins, [basic(1700n, C.address)], [{ sig: A }, { nft: 0 }]), CONFLICT.invalidInputUnlock);
  });
  it('reports the first failing input in input order', () => {
    const ins = [input(basic(1000n, A.address), 1), input(basic(700n, B.address), 3)];
    expectConflict(
      validate(ins, [basic(1700n, C.address)], [{ sig: A }, { badSig: B }]),
      CONFLICT.invalidSignature,
      'input 1',
    );
  });
});

describe('semantic validation: expiration switches the owner to the return address', () => {
  const expiring = (t: number) =>
    input(basic(1000n, A.address, { conditions: [{ type: UC_EXPIRATION, returnAddress: B.address, unixTime: t }] }), 1);
  it('before expiration the address owner unlocks it', () => {
    expectApplies(validate([expiring(NOW + 1)], [basic(1000n, C.address)], [{ sig: A }]));
    expectConflict(validate([expiring(NOW + 1)], [basic(1000n, C.address)], [{ sig: B }]), CONFLICT.invalidSignature);
  });
  it('at and after the expiration time only the return address unlocks it', () => {
    for (const t of [NOW, NOW - 1]) {
      expectApplies(validate([expiring(t)], [basic(1000n, C.address)], [{ sig: B }]));
      expectConflict(validate([expiring(t)], [basic(1000n, C.address)], [{ sig: A }]), CONFLICT.invalidSignature);
    }
  });
  it('an expired output with a storage deposit return owes nothing when the return address takes it', () => {
    const i = input(
      basic(1000n, A.address, {
        conditions: [
          { type: UC_STORAGE_DEPOSIT_RETURN, returnAddress: B.address, amount: 600n },
          { type: UC_EXPIRATION, returnAddress: B.address, unixTime: NOW },
        ],
      }),
      1,
    );
    expectApplies(validate([i], [basic(1000n, C.address)], [{ sig: B }]));
  });
});

describe('semantic validation: alias and NFT unlocks', () => {
  const aliasId = id32(0xaa);
  const aliasIn = alias(1000n, aliasId, A.address, B.address, { stateIndex: 4 });
  const owned = basic(300n, aliasAddress(aliasId));

  it('the state controller unlocks a state transition, the governor a governance transition or destruction', () => {
    const i = input(aliasIn, 1);
    expectApplies(validate([i], [{ ...aliasIn, stateIndex: 5 }], [{ sig: A }]));
    expectConflict(validate([i], [{ ...aliasIn, stateIndex: 5 }], [{ sig: B }]), CONFLICT.invalidSignature);
    expectApplies(
      validate(
        [i],
        [{ ...aliasIn, unlockConditions: [aliasIn.unlockConditions[0]!, { type: 5, address: C.address }] }],
        [{ sig: B }],
      ),
    );
    expectConflict(validate([i], [{ ...aliasIn }], [{ sig: A }]), CONFLICT.invalidSignature);
    expectApplies(validate([i], [basic(1000n, C.address)], [{ sig: B }]));
    expectConflict(validate([i], [basic(1000n, C.address)], [{ sig: A }]), CONFLICT.invalidSignature);
  });
  it('a state index jump other than 0 or +1 is an invalid chain transition (12) found while unlocking', () => {
    const r = validate([input(aliasIn, 1)], [{ ...aliasIn, stateIndex: 6 }], [{ sig: A }]);
    expectConflict(r, CONFLICT.invalidChainStateTransition, 'state index 4 to 6');
  });
  it('an alias unlock works when the alias is state-transitioned in the same transaction', () => {
    const ins = [input(aliasIn, 1), input(owned, 2)];
    expectApplies(validate(ins, [{ ...aliasIn, stateIndex: 5, amount: 1300n }], [{ sig: A }, { alias: 0 }]));
  });
  it('an alias unlock fails when the alias is only governance-transitioned (9)', () => {
    const ins = [input(aliasIn, 1), input(owned, 2)];
    expectConflict(
      validate(ins, [aliasIn, basic(300n, C.address)], [{ sig: B }, { alias: 0 }]),
      CONFLICT.invalidInputUnlock,
      'input 1',
    );
  });
  it('an alias-owned input needs an alias unlock pointing at the alias input (9 otherwise)', () => {
    const ins = [input(basic(50n, C.address), 3), input(aliasIn, 1), input(owned, 2)];
    const out = [{ ...aliasIn, stateIndex: 5, amount: 1350n }];
    expectApplies(validate(ins, out, [{ sig: C }, { sig: A }, { alias: 1 }]));
    expectConflict(validate(ins, out, [{ sig: C }, { sig: A }, { alias: 0 }]), CONFLICT.invalidInputUnlock);
    expectConflict(validate(ins, out, [{ sig: C }, { sig: A }, { ref: 1 }]), CONFLICT.invalidInputUnlock);
    expectConflict(validate(ins, out, [{ sig: C }, { sig: A }, { nft: 1 }]), CONFLICT.invalidInputUnlock);
  });
  it('an alias with an implicit (zero) ID is addressed by the ID derived from its output ID', () => {
    const fresh = alias(1000n, ZERO_ID, A.address, B.address);
    const i = input(fresh, 9);
    const id = implicitAliasId(i);
    const ins = [i, input(basic(300n, aliasAddress(id)), 2)];
    expectApplies(validate(ins, [{ ...fresh, aliasId: id, stateIndex: 1, amount: 1300n }], [{ sig: A }, { alias: 0 }]));
  });
  it('an NFT unlock works for inputs owned by a consumed NFT, also when it is burned', () => {
    const nftId = id32(0xbb);
    const ins = [input(nft(1000n, nftId, A.address), 1), input(basic(300n, nftAddress(nftId)), 2)];
    expectApplies(validate(ins, [nft(1300n, nftId, C.address)], [{ sig: A }, { nft: 0 }]));
    expectApplies(validate(ins, [basic(1300n, C.address)], [{ sig: A }, { nft: 0 }]));
    expectConflict(validate(ins, [basic(1300n, C.address)], [{ sig: A }, { alias: 0 }]), CONFLICT.invalidInputUnlock);
  });
  it('an NFT unlock must point at the input that is the NFT (9)', () => {
    const nftId = id32(0xbb);
    const ins = [
      input(basic(10n, C.address), 5),
      input(nft(1000n, nftId, A.address), 1),
      input(basic(300n, nftAddress(nftId)), 2),
    ];
    expectConflict(
      validate(ins, [basic(1310n, C.address)], [{ sig: C }, { sig: A }, { nft: 0 }]),
      CONFLICT.invalidInputUnlock,
      'input 2',
    );
  });
  it('an input owned by a chain that is not consumed at all cannot be unlocked (9)', () => {
    const ins = [input(basic(10n, C.address), 5), input(basic(300n, nftAddress(id32(0xcc))), 2)];
    expectConflict(validate(ins, [basic(310n, C.address)], [{ sig: C }, { nft: 0 }]), CONFLICT.invalidInputUnlock);
  });
});

describe('semantic validation: inputs that do not match the essence', () => {
  it('throws RangeError (a caller mistake, not a conflict)', () => {
    const i = input(basic(1000n, A.address), 1);
    const tx = transaction([i], [basic(1000n, B.address)], [{ sig: A }]);
    expect(() => validateTransactionSemantics(tx, [], CTX)).to.throw(RangeError);
    expect(() => validateTransactionSemantics(tx, [input(basic(1000n, A.address), 2)], CTX)).to.throw(RangeError);
  });
});
