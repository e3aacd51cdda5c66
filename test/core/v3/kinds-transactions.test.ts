/**
 * Every context input, unlock and payload kind in a transaction: round trips, IDs, the unlock reference rules and the
 * transaction rules that need the protocol parameters.
 */
import { expect } from 'chai';
import * as V3 from '../../../src/core/v3/index.ts';
import { b32, basicOutput, ed, sig, tx } from './fixtures.ts';
import { blocks, h, hex, params, protocolError } from './helpers.ts';

describe('v3 kinds: transactions, unlocks, payloads', () => {
  const out = basicOutput(ed(1));

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

describe('v3 unlock reference rules (iota.go SignaturesUniqueAndReferenceUnlocksValidator)', () => {
  const out = basicOutput(ed(1));
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
