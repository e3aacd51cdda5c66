/**
 * Every address, unlock condition, feature, unlock, context input and payload kind of the spec, including those no
 * vector carries: hand-checked bytes for a few, binary and JSON round trips for all, and the JSON side's own
 * rejections.
 */
import { expect } from 'chai';
import * as V3 from '../../../src/core/v3/index.ts';
import { blocks, h, hex, params, protocolError, type Any } from './helpers.ts';

const b32 = (n: number) => new Uint8Array(32).fill(n);
const ed = (n: number): V3.Ed25519AddressV3 => ({ type: 0, pubKeyHash: b32(n) });
const account = (n: number): V3.AccountAddressV3 => ({ type: 8, accountId: b32(n) });
const nft: V3.NftAddressV3 = { type: 16, nftId: b32(3) };
const anchor: V3.AnchorAddressV3 = { type: 24, anchorId: b32(4) };
const implicit: V3.ImplicitAccountCreationAddressV3 = { type: 32, pubKeyHash: b32(5) };
const multi: V3.MultiAddressV3 = {
  type: 40,
  addresses: [
    { address: ed(1), weight: 1 },
    { address: account(2), weight: 2 },
  ],
  threshold: 3,
};
const restricted: V3.RestrictedAddressV3 = { type: 48, address: multi, allowedCapabilities: Uint8Array.of(0x01) };
const addresses: V3.AddressV3[] = [ed(1), account(2), nft, anchor, implicit, multi, restricted];

const sig: V3.Ed25519SignatureV3 = { type: 0, publicKey: b32(9), signature: new Uint8Array(64).fill(8) };

function tx(outputs: V3.OutputV3[], extra: Partial<V3.TransactionV3> = {}): V3.TransactionV3 {
  return {
    networkId: 8342982141227064571n,
    creationSlot: 5,
    contextInputs: [],
    inputs: [
      { type: 0, transactionId: new Uint8Array(36).fill(1), transactionOutputIndex: 0 },
      { type: 0, transactionId: new Uint8Array(36).fill(1), transactionOutputIndex: 1 },
    ],
    allotments: [],
    capabilities: new Uint8Array(0),
    outputs,
    ...extra,
  };
}

describe('v3 kinds: addresses', () => {
  it('hand-checked bytes of the multi and restricted addresses', () => {
    const m = V3.encodeAddressV3(multi);
    expect(m.length).to.equal(1 + 1 + (33 + 1) * 2 + 2);
    expect(h(m.subarray(0, 2))).to.equal('0x2802');
    expect(h(m.subarray(m.length - 2))).to.equal('0x0300');
    const r = V3.encodeAddressV3(restricted);
    expect(r[0]).to.equal(48);
    expect(h(r.subarray(r.length - 2))).to.equal('0x0101');
  });
  for (const a of addresses) {
    it(`type ${a.type}: binary and JSON round trips`, () => {
      const bytes = V3.encodeAddressV3(a);
      expect(V3.decodeAddressV3(bytes)).to.deep.equal(a);
      const json = V3.addressToJsonV3(a);
      expect((json as Any).type).to.equal(a.type);
      expect(V3.addressFromJsonV3(json)).to.deep.equal(a);
    });
  }
  it('multi address rules: threshold ≤ sum of weights, no nested multi, sorted unique', () => {
    expect(protocolError(() => V3.encodeAddressV3({ ...multi, threshold: 4 })).code).to.equal('VALUE_OUT_OF_RANGE');
    const nested = {
      type: 40,
      addresses: [
        { address: multi, weight: 1 },
        { address: ed(1), weight: 1 },
      ],
      threshold: 1,
    } as Any;
    expect(protocolError(() => V3.encodeAddressV3(nested)).code).to.equal('TYPE_NOT_ALLOWED');
    const unsorted = { ...multi, addresses: [multi.addresses[1]!, multi.addresses[0]!] };
    expect(protocolError(() => V3.encodeAddressV3(unsorted)).code).to.equal('NOT_SORTED_UNIQUE');
    const bytes = V3.encodeAddressV3(multi);
    const swapped = Uint8Array.from([
      ...bytes.subarray(0, 2),
      ...bytes.subarray(36, 70),
      ...bytes.subarray(2, 36),
      ...bytes.subarray(70),
    ]);
    expect(protocolError(() => V3.decodeAddressV3(swapped)).code).to.equal('NOT_SORTED_UNIQUE');
    const zeroWeight = bytes.slice();
    zeroWeight[35] = 0;
    expect(protocolError(() => V3.decodeAddressV3(zeroWeight)).code).to.equal('VALUE_OUT_OF_RANGE');
  });
  it('restricted address: no trailing zero capability byte, no implicit inside', () => {
    expect(
      protocolError(() => V3.encodeAddressV3({ ...restricted, allowedCapabilities: Uint8Array.of(1, 0) })).code,
    ).to.equal('INVALID_FIELD');
    expect(protocolError(() => V3.encodeAddressV3({ ...restricted, address: implicit } as Any)).code).to.equal(
      'TYPE_NOT_ALLOWED',
    );
    const json = V3.addressToJsonV3({ ...restricted, allowedCapabilities: new Uint8Array(0) }) as Any;
    expect(json).not.to.have.property('allowedCapabilities');
  });
});

describe('v3 kinds: outputs with every unlock condition and feature', () => {
  const basic: V3.BasicOutputV3 = {
    type: 0,
    amount: 1000n,
    mana: 7n,
    unlockConditions: [
      { type: 0, address: { ...restricted, allowedCapabilities: Uint8Array.of(0x1f) } },
      { type: 1, returnAddress: ed(1), amount: 500n },
      { type: 2, slot: 10 },
      { type: 3, returnAddress: account(2), slot: 20 },
    ],
    features: [
      { type: 0, address: implicit },
      { type: 2, entries: { aa: Uint8Array.of(1), b: Uint8Array.of(2), ['__proto__']: Uint8Array.of(3) } },
      { type: 4, tag: Uint8Array.of(0xde, 0xad) },
      { type: 5, id: new Uint8Array(38).fill(6), amount: (1n << 255n) + 1n },
    ],
  };
  const anchorOut: V3.AnchorOutputV3 = {
    type: 2,
    amount: 1n,
    mana: 0n,
    anchorId: b32(7),
    stateIndex: 3,
    unlockConditions: [
      { type: 4, address: nft },
      { type: 5, address: anchor },
    ],
    features: [
      { type: 2, entries: { x: new Uint8Array(0) } },
      { type: 3, entries: { y: Uint8Array.of(1) } },
    ],
    immutableFeatures: [
      { type: 1, address: ed(1) },
      { type: 2, entries: { z: Uint8Array.of(2) } },
    ],
  };
  const nftOut: V3.NftOutputV3 = {
    type: 4,
    amount: 1n,
    mana: 0n,
    nftId: b32(1),
    unlockConditions: [
      { type: 0, address: ed(1) },
      { type: 2, slot: 1 },
    ],
    features: [
      { type: 0, address: ed(2) },
      { type: 4, tag: Uint8Array.of(1) },
    ],
    immutableFeatures: [{ type: 1, address: nft }],
  };
  const foundry: V3.FoundryOutputV3 = {
    type: 3,
    amount: 1n,
    serialNumber: 1,
    tokenScheme: { type: 0, mintedTokens: 10n, meltedTokens: 0n, maximumSupply: 10n },
    unlockConditions: [{ type: 6, address: account(1) }],
    features: [],
    immutableFeatures: [],
  };

  for (const o of [basic, anchorOut, nftOut, foundry] as V3.OutputV3[]) {
    it(`output type ${o.type}: binary and JSON round trips`, () => {
      const bytes = V3.encodeOutputV3(o);
      const back = V3.decodeOutputV3(bytes);
      expect(h(V3.encodeOutputV3(back))).to.equal(h(bytes));
      const json = JSON.parse(JSON.stringify(V3.outputToJsonV3(o)));
      expect(h(V3.encodeOutputV3(V3.outputFromJsonV3(json)))).to.equal(h(bytes));
    });
  }

  it('metadata keys such as "__proto__" stay own data and the binary order is by serialized entry', () => {
    const bytes = V3.encodeOutputV3(basic);
    const back = V3.decodeOutputV3(bytes) as V3.BasicOutputV3;
    const meta = back.features[1] as V3.MetadataFeatureV3;
    expect(Object.keys(meta.entries)).to.have.members(['aa', 'b', '__proto__']);
    expect(Object.getPrototypeOf(meta.entries)).to.equal(Object.prototype);
    const json = V3.outputToJsonV3(back) as Any;
    expect(Object.hasOwn(json.features[1].entries, '__proto__')).to.equal(true);
    const text = h(bytes);
    expect(text.indexOf('0162')).to.be.lessThan(text.indexOf('026161')); // "b" (len 1) before "aa" (len 2)
  });

  it('uint256 JSON is big-endian minimal hex; leading zeros are rejected', () => {
    const json = V3.outputToJsonV3(basic) as Any;
    expect(json.features[3].amount).to.equal('0x8000000000000000000000000000000000000000000000000000000000000001');
    json.features[3].amount = '0x01';
    expect(protocolError(() => V3.outputFromJsonV3(json)).code).to.equal('INVALID_JSON');
    json.features[3].amount = '0x0';
    expect(protocolError(() => V3.outputFromJsonV3(json)).code).to.equal('VALUE_OUT_OF_RANGE');
  });

  it('work score and storage score account for native tokens, foundries, staking and block issuers', () => {
    const w = params.workScoreParameters;
    expect(V3.outputWorkScoreV3(basic, w)).to.equal(w.output + w.nativeToken);
    expect(V3.outputWorkScoreV3(foundry, w)).to.equal(w.output + w.nativeToken);
    expect(V3.outputWorkScoreV3(nftOut, w)).to.equal(w.output);
  });
});

describe('v3 kinds: transactions, unlocks, payloads', () => {
  const out: V3.BasicOutputV3 = {
    type: 0,
    amount: 1n,
    mana: 0n,
    unlockConditions: [{ type: 0, address: ed(1) }],
    features: [],
  };

  it('every context input and unlock kind, tagged data inside, round trips', () => {
    const t = tx([out], {
      contextInputs: [
        { type: 0, commitmentId: new Uint8Array(36) },
        { type: 1, accountId: b32(1) },
        { type: 1, accountId: b32(2) },
        { type: 2, index: 0 },
        { type: 2, index: 1 },
      ],
      allotments: [
        { accountId: b32(1), mana: 1n },
        { accountId: b32(2), mana: 2n },
      ],
      capabilities: Uint8Array.of(0x3f),
      payload: { type: 0, tag: new Uint8Array(0), data: Uint8Array.of(1) },
    });
    const unlocks: V3.UnlockV3[] = [
      { type: 5, unlocks: [{ type: 0, signature: sig }, { type: 6 }] },
      { type: 1, reference: 0 },
    ];
    const payload: V3.SignedTransactionPayloadV3 = { type: 1, transaction: t, unlocks };
    const bytes = V3.encodeSignedTransactionV3(payload);
    expect(h(V3.encodeSignedTransactionV3(V3.decodeSignedTransactionV3(bytes)))).to.equal(h(bytes));
    const json = JSON.parse(JSON.stringify(V3.payloadToJsonV3(payload)));
    expect(json.transaction.payload).to.deep.equal({ type: 0, data: '0x01' });
    expect(h(V3.encodePayloadV3(V3.payloadFromJsonV3(json)))).to.equal(h(bytes));
    const w = params.workScoreParameters;
    expect(V3.payloadWorkScoreV3(payload, w)).to.equal(
      bytes.length * w.dataByte + 5 * w.contextInput + 2 * w.input + 2 * w.allotment + w.output + w.signatureEd25519,
    );
    for (const u of [
      { type: 2, reference: 0 },
      { type: 3, reference: 0 },
      { type: 4, reference: 0 },
    ] as V3.UnlockV3[]) {
      const p2 = { ...payload, unlocks: [unlocks[0]!, u] };
      expect(V3.decodeSignedTransactionV3(V3.encodeSignedTransactionV3(p2)).unlocks[1]).to.deep.equal(u);
    }
  });

  it('candidacy announcement: the single byte 0x02, block payload length 1, JSON {"type":2}', () => {
    expect(h(V3.encodePayloadV3({ type: 2 }))).to.equal('0x02');
    expect(V3.payloadToJsonV3({ type: 2 })).to.deep.equal({ type: 2 });
    expect(V3.decodePayloadV3(hex('0x02'))).to.deep.equal({ type: 2 });
  });

  it('a BIC or reward input without a commitment input is rejected', () => {
    const t = tx([out], { contextInputs: [{ type: 1, accountId: b32(1) }] });
    const e = protocolError(() => V3.encodeTransactionV3(t));
    expect(e.code).to.equal('MISSING_FIELD');
    expect(e.message).to.match(/commitment input is required/);
  });

  it('IDs: the transaction ID ignores unlocks, the signed transaction ID does not', () => {
    const t = tx([out]);
    const a: V3.SignedTransactionPayloadV3 = {
      type: 1,
      transaction: t,
      unlocks: [
        { type: 0, signature: sig },
        { type: 1, reference: 0 },
      ],
    };
    const b: V3.SignedTransactionPayloadV3 = {
      ...a,
      unlocks: [
        { type: 0, signature: { ...sig, signature: new Uint8Array(64) } },
        { type: 1, reference: 0 },
      ],
    };
    expect(h(V3.transactionIdV3(a.transaction))).to.equal(h(V3.transactionIdV3(b.transaction)));
    expect(h(V3.signedTransactionIdV3(a))).not.to.equal(h(V3.signedTransactionIdV3(b)));
    expect(V3.slotOfId(V3.transactionIdV3(t))).to.equal(5);
    const outId = V3.outputIdV3(V3.transactionIdV3(t), 0);
    expect(V3.chainIdFromOutputIdV3(outId).length).to.equal(32);
    expect(h(V3.foundryIdV3(b32(0x17), 1))).to.equal('0x08' + '17'.repeat(32) + '0100000000');
  });
});

describe('v3 JSON rejections name the path', () => {
  const hexBlock: string = blocks.vectors[0].bytes;
  const base = (): Any => JSON.parse(JSON.stringify(V3.blockToJsonV3(V3.decodeBlockV3(hex(hexBlock), params))));

  it('missing field', () => {
    const j = base();
    delete j.header.issuerId;
    const e = protocolError(() => V3.blockFromJsonV3(j));
    expect(e.code).to.equal('MISSING_FIELD');
    expect(e.field).to.equal('header.issuerId');
  });
  it('u64 as a number, u8 as a string', () => {
    const j = base();
    j.body.maxBurnedMana = 26;
    expect(protocolError(() => V3.blockFromJsonV3(j)).message).to.match(
      /body.maxBurnedMana: expected a decimal string, got number 26/,
    );
    const k = base();
    k.header.protocolVersion = '3';
    expect(protocolError(() => V3.blockFromJsonV3(k)).code).to.equal('INVALID_JSON');
  });
  it('bad hex and wrong length', () => {
    const j = base();
    j.header.issuerId = '0xzz';
    expect(protocolError(() => V3.blockFromJsonV3(j)).code).to.equal('INVALID_HEX');
    const k = base();
    k.header.slotCommitmentId = '0x00';
    expect(protocolError(() => V3.blockFromJsonV3(k)).code).to.equal('LENGTH_OUT_OF_RANGE');
  });
  it('unknown and disallowed types', () => {
    const j = base();
    j.body.payload.type = 9;
    const e = protocolError(() => V3.blockFromJsonV3(j));
    expect(e.code).to.equal('UNKNOWN_TYPE');
    expect(e.field).to.equal('body.payload');
  });
  it('unsorted parents', () => {
    const j = base();
    j.body.strongParents.reverse();
    const e = protocolError(() => V3.blockFromJsonV3(j));
    expect(e.code).to.equal('NOT_SORTED_UNIQUE');
    expect(e.field).to.equal('body.strongParents[1]');
  });
  it('invalid JSON text', () => {
    expect(protocolError(() => V3.blockFromJsonV3('{')).code).to.equal('INVALID_JSON');
  });
  it('empty optional lists may be written or omitted', () => {
    const j = base();
    j.body.weakParents = [];
    expect(h(V3.encodeBlockV3(V3.blockFromJsonV3(j)))).to.equal(hexBlock);
  });
});

describe('v3 encoding rejects what decoding rejects', () => {
  it('wrong ID length, negative amount, unsorted parents', () => {
    const block = V3.decodeBlockV3(hex(blocks.vectors[1].bytes), params);
    expect(
      protocolError(() => V3.encodeBlockV3({ ...block, header: { ...block.header, issuerId: new Uint8Array(31) } }))
        .code,
    ).to.equal('LENGTH_OUT_OF_RANGE');
    expect(
      protocolError(() => V3.encodeBlockV3({ ...block, header: { ...block.header, networkId: -1n } })).code,
    ).to.equal('VALUE_OUT_OF_RANGE');
    const body = block.body as V3.BasicBlockBodyV3;
    expect(
      protocolError(() =>
        V3.encodeBlockV3({ ...block, body: { ...body, strongParents: [...body.strongParents].reverse() } }),
      ).code,
    ).to.equal('NOT_SORTED_UNIQUE');
  });
});

describe('v3 transaction rules that need the parameters', () => {
  const base = (): V3.SignedTransactionPayloadV3 =>
    V3.decodeSignedTransactionV3(hex(blocks.vectors[1].bytes).subarray(313, 313 + 687));
  it('the vector transaction passes', () => {
    expect(() => V3.checkTransactionParamsV3(base().transaction, params)).not.to.throw();
  });
  it('storage deposit, zero amount, supply, Mana bits, network', () => {
    const t = base().transaction;
    const o0 = t.outputs[0] as V3.BasicOutputV3;
    const min = V3.minimumStorageDepositV3(o0, params.storageScoreParameters);
    const withAmount = (amount: bigint): V3.TransactionV3 => ({ ...t, outputs: [{ ...o0, amount }, t.outputs[1]!] });
    expect(() => V3.checkTransactionParamsV3(withAmount(min), params)).not.to.throw();
    expect(protocolError(() => V3.checkTransactionParamsV3(withAmount(min - 1n), params)).code).to.equal(
      'INSUFFICIENT_STORAGE_DEPOSIT',
    );
    expect(protocolError(() => V3.checkTransactionParamsV3(withAmount(0n), params)).code).to.equal(
      'VALUE_OUT_OF_RANGE',
    );
    expect(protocolError(() => V3.checkTransactionParamsV3(withAmount(params.tokenSupply), params)).code).to.equal(
      'SUPPLY_EXCEEDED',
    );
    const mana = { ...t, outputs: [{ ...o0, mana: 1n << 63n }, t.outputs[1]!] };
    expect(protocolError(() => V3.checkTransactionParamsV3(mana, params)).code).to.equal('VALUE_OUT_OF_RANGE');
    const allot = { ...t, allotments: [t.allotments[0]!, { ...t.allotments[1]!, mana: (1n << 63n) - 2189n }] };
    expect(protocolError(() => V3.checkTransactionParamsV3(allot, params)).message).to.match(/allotted Mana exceeds/);
    expect(protocolError(() => V3.checkTransactionParamsV3(t, { ...params, networkName: 'shimmer' })).code).to.equal(
      'NETWORK_ID_MISMATCH',
    );
  });
});

describe('v3 Mana beyond the vectors', () => {
  const ctx = params;
  const epoch = 2 ** params.slotsPerEpochExponent;
  it('no generation within the same slot, none for a zero amount, errors when the creation is after the target', () => {
    expect(V3.potentialManaWithDecay(10n ** 9n, 100, 100, ctx)).to.equal(0n);
    expect(V3.potentialManaWithDecay(0n, 1, 10 * epoch, ctx)).to.equal(0n);
    expect(() => V3.potentialManaWithDecay(1n, 10, 9, ctx)).to.throw(RangeError);
    expect(() => V3.storedManaWithDecay(1n, epoch, 0, ctx)).to.throw(RangeError);
  });
  it('same epoch: amount × slots × 2^-17, truncated', () => {
    expect(V3.potentialManaWithDecay(10n ** 9n, 1, 101, ctx)).to.equal((10n ** 9n * 100n) >> 17n);
  });
  it('many epochs: the fixed-point result stays within TIP-39 error bounds of the exact geometric sum', () => {
    const amount = 10n ** 15n;
    for (const epochs of [2, 3, 10, 100, 383, 384, 385, 1000]) {
      const from = 5;
      const to = epochs * epoch + 17;
      const got = Number(V3.potentialManaWithDecay(amount, from, to, ctx));
      const d = 1 - params.manaParameters.decayFactors[0]! / 2 ** 32; // per-epoch decay (1 - factor)
      const rate = Number(amount) / 2 ** 17;
      const first = (epoch - from) * rate * (1 - d) ** epochs;
      let middle = 0;
      for (let k = 1; k < epochs; k++) middle += epoch * rate * (1 - d) ** k;
      const last = 17 * rate;
      const exact = first + middle + last;
      expect(Math.abs(got - exact) / exact, `${epochs} epochs`).to.be.lessThan(1e-4);
    }
  });
  it('potential Mana grows from epoch start to epoch start (it drops at each boundary by one decay step), decay applies the table in chunks', () => {
    let prev = -1n;
    for (const to of [epoch, 2 * epoch, 3 * epoch + 5, 50 * epoch]) {
      const m = V3.potentialManaWithDecay(10n ** 12n, 1, to, ctx);
      expect(m > prev).to.equal(true);
      prev = m;
    }
    expect(V3.decayMana(1000n, 0, params.manaParameters)).to.equal(1000n);
    expect(V3.decayMana(10n ** 12n, 1, params.manaParameters) < 10n ** 12n).to.equal(true);
    expect(V3.decayMana(10n ** 12n, 384, params.manaParameters)).to.equal(
      V3.multiplyAndShift(10n ** 12n, BigInt(params.manaParameters.decayFactors[383]!), 32),
    );
    expect(V3.decayMana(10n ** 12n, 385, params.manaParameters)).to.equal(
      V3.multiplyAndShift(
        V3.multiplyAndShift(10n ** 12n, BigInt(params.manaParameters.decayFactors[383]!), 32),
        BigInt(params.manaParameters.decayFactors[0]!),
        32,
      ),
    );
  });
});

describe('v3 block signature assertion', () => {
  it('throws INVALID_SIGNATURE naming the problem', () => {
    const bytes = hex(blocks.vectors[0].bytes);
    expect(protocolError(() => V3.assertBlockSignatureV3(bytes, [])).field).to.equal('signature.publicKey');
    const block = V3.decodeBlockV3(bytes, params);
    const keys: V3.BlockIssuerKeyV3[] = [{ type: 0, pubKeyHash: new Uint8Array(32) }];
    expect(V3.verifyBlockSignatureV3(block, keys)).to.equal(false);
  });
});

describe('v3 protocol parameters from /info', () => {
  it('picks the entry of the requested version', async () => {
    const { misc } = await import('./helpers.ts');
    const parameters = misc.protocolParameters[0].json;
    const info = {
      name: 'iota-core',
      protocolParameters: [
        { startEpoch: 0, parameters: { ...parameters, version: 2 } },
        { startEpoch: 7, parameters },
      ],
    };
    const p = V3.protocolParametersFromInfoV3(JSON.stringify(info), 3);
    expect(h(V3.protocolParametersHashV3(p))).to.equal(misc.protocolParameters[0].hash);
    expect(protocolError(() => V3.protocolParametersFromInfoV3(info, 4)).code).to.equal('MISSING_FIELD');
  });
});

describe('v3 unlock reference rules (iota.go SignaturesUniqueAndReferenceUnlocksValidator)', () => {
  const out: V3.BasicOutputV3 = {
    type: 0,
    amount: 1n,
    mana: 0n,
    unlockConditions: [{ type: 0, address: ed(1) }],
    features: [],
  };
  const sigB: V3.Ed25519SignatureV3 = { ...sig, publicKey: b32(10) };
  const signed = (unlocks: V3.UnlockV3[]): V3.SignedTransactionPayloadV3 => {
    const inputs = unlocks.map((_, i) => ({
      type: 0 as const,
      transactionId: new Uint8Array(36).fill(1),
      transactionOutputIndex: i,
    }));
    return { type: 1, transaction: tx([out], { inputs }), unlocks };
  };
  const ok = (unlocks: V3.UnlockV3[]) => expect(() => V3.encodeSignedTransactionV3(signed(unlocks))).not.to.throw();
  const fails = (unlocks: V3.UnlockV3[], code: string, re: RegExp) => {
    const e = protocolError(() => V3.encodeSignedTransactionV3(signed(unlocks)));
    expect(e.code).to.equal(code);
    expect(e.message).to.match(re);
  };
  const multiAB: V3.MultiUnlockV3 = { type: 5, unlocks: [{ type: 0, signature: sigB }, { type: 6 }] };

  it('account / anchor / NFT unlocks chain through each other; reference unlocks do not', () => {
    ok([
      { type: 0, signature: sig },
      { type: 2, reference: 0 },
      { type: 4, reference: 1 },
      { type: 3, reference: 2 },
    ]);
    fails(
      [
        { type: 0, signature: sig },
        { type: 2, reference: 0 },
        { type: 1, reference: 1 },
      ],
      'INVALID_UNLOCK',
      /cannot chain/,
    );
  });
  it('a top-level reference may point to a multi unlock, one inside a multi unlock may not', () => {
    ok([multiAB, { type: 1, reference: 0 }]);
    ok([
      { type: 0, signature: sig },
      { type: 5, unlocks: [{ type: 1, reference: 0 }, { type: 6 }] },
    ]);
    fails(
      [multiAB, { type: 5, unlocks: [{ type: 1, reference: 0 }, { type: 6 }] }],
      'INVALID_UNLOCK',
      /not an earlier signature unlock/,
    );
  });
  it('multi unlocks are unique, signatures are not repeated across multi and plain signature unlocks', () => {
    fails([multiAB, multiAB], 'DUPLICATE', /multi unlock 1 repeats multi unlock 0/);
    fails([multiAB, { type: 0, signature: sigB }], 'DUPLICATE', /repeats the public key of unlock 0/);
    fails([{ type: 0, signature: sigB }, multiAB], 'DUPLICATE', /signature 1.0 repeats/);
    // the same signer in two different multi unlocks
    ok([multiAB, { type: 5, unlocks: [{ type: 6 }, { type: 0, signature: sigB }] }]);
  });
  it('decoding enforces the same rules', () => {
    const good = V3.encodeSignedTransactionV3(signed([multiAB, { type: 1, reference: 0 }]));
    const u = good.length - 3; // the trailing reference unlock: 01 0000
    const bad = good.slice();
    bad[u + 1] = 1; // now references itself
    expect(protocolError(() => V3.decodeSignedTransactionV3(bad)).code).to.equal('INVALID_UNLOCK');
  });
});

describe('v3 output rules (iota.go OutputsSyntactical*)', () => {
  const owner = { type: 0 as const, address: ed(1) };
  const enc = (o: Any) => () => V3.encodeOutputV3(o);
  const code = (o: Any) => protocolError(enc(o)).code;

  it('account: a new account has foundryCounter 0, an account cannot own itself, amount ≥ staked amount', () => {
    const acc: V3.AccountOutputV3 = {
      type: 1,
      amount: 100n,
      mana: 0n,
      accountId: b32(0),
      foundryCounter: 0,
      unlockConditions: [owner],
      features: [],
      immutableFeatures: [],
    };
    expect(enc(acc)).not.to.throw();
    expect(code({ ...acc, foundryCounter: 1 })).to.equal('INVALID_FIELD');
    expect(code({ ...acc, accountId: b32(2), unlockConditions: [{ type: 0, address: account(2) }] })).to.equal(
      'INVALID_FIELD',
    );
    expect(enc({ ...acc, accountId: b32(2), unlockConditions: [{ type: 0, address: account(3) }] })).not.to.throw();
    expect(
      code({ ...acc, features: [{ type: 7, stakedAmount: 101n, fixedCost: 0n, startEpoch: 0, endEpoch: 1 }] }),
    ).to.equal('VALUE_OUT_OF_RANGE');
    expect(code({ ...acc, unlockConditions: [{ type: 0, address: implicit }] })).to.equal('TYPE_NOT_ALLOWED');
  });
  it('anchor: a new anchor has stateIndex 0; an anchor cannot control itself', () => {
    const anc: V3.AnchorOutputV3 = {
      type: 2,
      amount: 1n,
      mana: 0n,
      anchorId: b32(0),
      stateIndex: 0,
      unlockConditions: [
        { type: 4, address: ed(1) },
        { type: 5, address: ed(2) },
      ],
      features: [],
      immutableFeatures: [],
    };
    expect(enc(anc)).not.to.throw();
    expect(code({ ...anc, stateIndex: 1 })).to.equal('INVALID_FIELD');
    expect(
      code({
        ...anc,
        anchorId: b32(4),
        unlockConditions: [
          { type: 4, address: anchor },
          { type: 5, address: ed(2) },
        ],
      }),
    ).to.equal('INVALID_FIELD');
    expect(
      code({
        ...anc,
        unlockConditions: [
          { type: 4, address: implicit },
          { type: 5, address: ed(2) },
        ],
      }),
    ).to.equal('TYPE_NOT_ALLOWED');
  });
  it('NFT cannot own itself; delegation needs a validator', () => {
    const n: V3.NftOutputV3 = {
      type: 4,
      amount: 1n,
      mana: 0n,
      nftId: b32(3),
      unlockConditions: [{ type: 0, address: nft }],
      features: [],
      immutableFeatures: [],
    };
    expect(code(n)).to.equal('INVALID_FIELD');
    expect(enc({ ...n, nftId: b32(0) })).not.to.throw();
    const d: V3.DelegationOutputV3 = {
      type: 5,
      amount: 1n,
      delegatedAmount: 0n,
      delegationId: b32(0),
      validatorAddress: account(0),
      startEpoch: 0,
      endEpoch: 0,
      unlockConditions: [owner],
    };
    expect(code(d)).to.equal('INVALID_FIELD');
    expect(enc({ ...d, validatorAddress: account(1) })).not.to.throw();
  });
  it('foundry: the native token feature carries the foundry ID', () => {
    const f: V3.FoundryOutputV3 = {
      type: 3,
      amount: 1n,
      serialNumber: 2,
      tokenScheme: { type: 0, mintedTokens: 5n, meltedTokens: 0n, maximumSupply: 5n },
      unlockConditions: [{ type: 6, address: account(1) }],
      features: [{ type: 5, id: V3.foundryIdV3(b32(1), 2), amount: 5n }],
      immutableFeatures: [],
    };
    expect(enc(f)).not.to.throw();
    expect(code({ ...f, features: [{ type: 5, id: V3.foundryIdV3(b32(1), 3), amount: 5n }] })).to.equal(
      'INVALID_FIELD',
    );
  });
  it('restricted addresses and implicit account creation addresses limit what an output may hold', () => {
    const r = (caps: number[]): V3.RestrictedAddressV3 => ({
      type: 48,
      address: ed(1),
      allowedCapabilities: Uint8Array.from(caps),
    });
    const basic = (address: V3.AddressV3, extra: Partial<V3.BasicOutputV3> = {}): V3.BasicOutputV3 => ({
      type: 0,
      amount: 1n,
      mana: 0n,
      unlockConditions: [{ type: 0, address }],
      features: [],
      ...extra,
    });
    expect(enc(basic(r([])))).not.to.throw();
    expect(protocolError(enc(basic(r([]), { mana: 1n }))).message).to.match(/cannot receive Mana/);
    expect(enc(basic(r([0x02]), { mana: 1n }))).not.to.throw();
    const nt = { type: 5 as const, id: new Uint8Array(38), amount: 1n };
    expect(protocolError(enc(basic(r([0x02]), { features: [nt] }))).message).to.match(/native tokens/);
    expect(protocolError(enc(basic(implicit, { features: [nt] }))).message).to.match(
      /implicit account creation address cannot receive native tokens/,
    );
    expect(
      protocolError(
        enc(
          basic(implicit, {
            unlockConditions: [
              { type: 0, address: implicit },
              { type: 2, slot: 1 },
            ],
          }),
        ),
      ).message,
    ).to.match(/timelock/);
    expect(enc(basic(implicit, { mana: 5n }))).not.to.throw();
    const acc: V3.AccountOutputV3 = {
      type: 1,
      amount: 1n,
      mana: 0n,
      accountId: b32(0),
      foundryCounter: 0,
      unlockConditions: [{ type: 0, address: r([0x01]) }],
      features: [],
      immutableFeatures: [],
    };
    expect(protocolError(enc(acc)).message).to.match(/cannot receive this output type/);
    expect(enc({ ...acc, unlockConditions: [{ type: 0, address: r([0x20]) }] })).not.to.throw();
    const del: V3.DelegationOutputV3 = {
      type: 5,
      amount: 1n,
      delegatedAmount: 0n,
      delegationId: b32(0),
      validatorAddress: account(1),
      startEpoch: 0,
      endEpoch: 0,
      unlockConditions: [{ type: 0, address: r([0, 0x01]) }],
    };
    expect(enc(del)).not.to.throw(); // bit 8 = byte 1, bit 0
    expect(code({ ...del, unlockConditions: [{ type: 0, address: r([0xff]) }] })).to.equal('INVALID_FIELD');
  });
});

describe('v3 storage score beyond the vectors', () => {
  const s = params.storageScoreParameters;
  it('an implicit account creation address scores what a minimal block issuer account needs', () => {
    // 317 (minimal block issuer account) - (141 - 33)
    expect(V3.implicitAccountCreationAddressOffsetV3(s)).to.equal(209n);
    const basic: V3.BasicOutputV3 = {
      type: 0,
      amount: 0n,
      mana: 0n,
      unlockConditions: [{ type: 0, address: implicit }],
      features: [],
    };
    const account: V3.AccountOutputV3 = {
      type: 1,
      amount: 0n,
      mana: 0n,
      accountId: b32(0),
      foundryCounter: 0,
      unlockConditions: [{ type: 0, address: ed(0) }],
      features: [{ type: 6, expirySlot: 0, blockIssuerKeys: [{ type: 0, pubKeyHash: b32(0) }] }],
      immutableFeatures: [],
    };
    expect(V3.storageScoreV3(basic, s)).to.equal(V3.storageScoreV3(account, s));
    expect(V3.storageScoreV3(basic, s)).to.equal(317n);
  });
  it('storage deposit return amounts are checked against the return output deposit and the amount', () => {
    const minReturn = V3.minimumReturnDepositV3(ed(1), s);
    expect(minReturn).to.equal(14100n); // (88 + 53) × 100
    const out = (ret: bigint, amount = 10n ** 6n): V3.BasicOutputV3 => ({
      type: 0,
      amount,
      mana: 0n,
      unlockConditions: [
        { type: 0, address: ed(2) },
        { type: 1, returnAddress: ed(1), amount: ret },
      ],
      features: [],
    });
    const t = (o: V3.OutputV3) => tx([o]);
    expect(() => V3.checkTransactionParamsV3(t(out(minReturn)), params)).not.to.throw();
    expect(protocolError(() => V3.checkTransactionParamsV3(t(out(minReturn - 1n)), params)).code).to.equal(
      'INSUFFICIENT_STORAGE_DEPOSIT',
    );
    expect(protocolError(() => V3.checkTransactionParamsV3(t(out(10n ** 6n + 1n)), params)).code).to.equal(
      'VALUE_OUT_OF_RANGE',
    );
  });
});

describe('v3 chain uniqueness inside a transaction', () => {
  it('two outputs with the same non-zero account ID, or the same foundry, are rejected; new (zero) IDs may repeat', () => {
    const acc = (id: number): V3.AccountOutputV3 => ({
      type: 1,
      amount: 1n,
      mana: 0n,
      accountId: b32(id),
      foundryCounter: 0,
      unlockConditions: [{ type: 0, address: ed(1) }],
      features: [],
      immutableFeatures: [],
    });
    expect(() => V3.encodeTransactionV3(tx([acc(0), acc(0)]))).not.to.throw();
    expect(() => V3.encodeTransactionV3(tx([acc(1), acc(2)]))).not.to.throw();
    const e = protocolError(() => V3.encodeTransactionV3(tx([acc(1), acc(1)])));
    expect(e.code).to.equal('DUPLICATE');
    expect(e.field).to.equal('outputs[1]');
    const foundry = (serial: number): V3.FoundryOutputV3 => ({
      type: 3,
      amount: 1n,
      serialNumber: serial,
      tokenScheme: { type: 0, mintedTokens: 0n, meltedTokens: 0n, maximumSupply: 1n },
      unlockConditions: [{ type: 6, address: account(1) }],
      features: [],
      immutableFeatures: [],
    });
    expect(() => V3.encodeTransactionV3(tx([foundry(1), foundry(2)]))).not.to.throw();
    expect(protocolError(() => V3.encodeTransactionV3(tx([foundry(1), foundry(1)]))).code).to.equal('DUPLICATE');
  });
});
