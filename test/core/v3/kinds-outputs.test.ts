/**
 * Outputs with every unlock condition and feature kind, including those no vector carries: round trips, the output
 * rules of iota.go, storage score beyond the vectors and chain uniqueness inside a transaction.
 */
import { expect } from 'chai';
import * as V3 from '../../../src/core/v3/index.ts';
import {
  account,
  accountOutput,
  anchor,
  b32,
  basicOutput,
  delegationOutput,
  ed,
  foundryOutput,
  implicit,
  nft,
  restricted,
  tx,
} from './fixtures.ts';
import { h, params, protocolError, type Any } from './helpers.ts';

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
  const foundry = foundryOutput({
    tokenScheme: { type: 0, mintedTokens: 10n, meltedTokens: 0n, maximumSupply: 10n },
  });

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

describe('v3 output rules (iota.go OutputsSyntactical*)', () => {
  const owner = { type: 0 as const, address: ed(1) };
  const enc = (o: Any) => () => V3.encodeOutputV3(o);
  const code = (o: Any) => protocolError(enc(o)).code;

  it('account: a new account has foundryCounter 0, an account cannot own itself, amount ≥ staked amount', () => {
    const acc = accountOutput({ amount: 100n, unlockConditions: [owner] });
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
    const d = delegationOutput({ validatorAddress: account(0), unlockConditions: [owner] });
    expect(code(d)).to.equal('INVALID_FIELD');
    expect(enc({ ...d, validatorAddress: account(1) })).not.to.throw();
  });
  it('foundry: the native token feature carries the foundry ID', () => {
    const f = foundryOutput({
      serialNumber: 2,
      tokenScheme: { type: 0, mintedTokens: 5n, meltedTokens: 0n, maximumSupply: 5n },
      features: [{ type: 5, id: V3.foundryIdV3(b32(1), 2), amount: 5n }],
    });
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
    expect(enc(basicOutput(r([])))).not.to.throw();
    expect(protocolError(enc(basicOutput(r([]), { mana: 1n }))).message).to.match(/cannot receive Mana/);
    expect(enc(basicOutput(r([0x02]), { mana: 1n }))).not.to.throw();
    const nt = { type: 5 as const, id: new Uint8Array(38), amount: 1n };
    expect(protocolError(enc(basicOutput(r([0x02]), { features: [nt] }))).message).to.match(/native tokens/);
    expect(protocolError(enc(basicOutput(implicit, { features: [nt] }))).message).to.match(
      /implicit account creation address cannot receive native tokens/,
    );
    expect(
      protocolError(
        enc(
          basicOutput(implicit, {
            unlockConditions: [
              { type: 0, address: implicit },
              { type: 2, slot: 1 },
            ],
          }),
        ),
      ).message,
    ).to.match(/timelock/);
    expect(enc(basicOutput(implicit, { mana: 5n }))).not.to.throw();
    const acc = accountOutput({ unlockConditions: [{ type: 0, address: r([0x01]) }] });
    expect(protocolError(enc(acc)).message).to.match(/cannot receive this output type/);
    expect(enc({ ...acc, unlockConditions: [{ type: 0, address: r([0x20]) }] })).not.to.throw();
    const del = delegationOutput({ unlockConditions: [{ type: 0, address: r([0, 0x01]) }] });
    expect(enc(del)).not.to.throw(); // bit 8 = byte 1, bit 0
    expect(code({ ...del, unlockConditions: [{ type: 0, address: r([0xff]) }] })).to.equal('INVALID_FIELD');
  });
});

describe('v3 storage score beyond the vectors', () => {
  const s = params.storageScoreParameters;
  it('an implicit account creation address scores what a minimal block issuer account needs', () => {
    // 317 (minimal block issuer account) - (141 - 33)
    expect(V3.implicitAccountCreationAddressOffsetV3(s)).to.equal(209n);
    const basic = basicOutput(implicit, { amount: 0n });
    const account = accountOutput({
      amount: 0n,
      unlockConditions: [{ type: 0, address: ed(0) }],
      features: [{ type: 6, expirySlot: 0, blockIssuerKeys: [{ type: 0, pubKeyHash: b32(0) }] }],
    });
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
  it('two outputs with the same non-zero account ID or foundry are rejected; new (zero) IDs may repeat', () => {
    const acc = (id: number) => accountOutput({ accountId: b32(id) });
    expect(() => V3.encodeTransactionV3(tx([acc(0), acc(0)]))).not.to.throw();
    expect(() => V3.encodeTransactionV3(tx([acc(1), acc(2)]))).not.to.throw();
    const e = protocolError(() => V3.encodeTransactionV3(tx([acc(1), acc(1)])));
    expect(e.code).to.equal('DUPLICATE');
    expect(e.field).to.equal('outputs[1]');
    const foundry = (serial: number) => foundryOutput({ serialNumber: serial });
    expect(() => V3.encodeTransactionV3(tx([foundry(1), foundry(2)]))).not.to.throw();
    expect(protocolError(() => V3.encodeTransactionV3(tx([foundry(1), foundry(1)]))).code).to.equal('DUPLICATE');
  });
});
