/**
 * Binary rejections per rule family: truncation, trailing bytes, unknown / disallowed types, order, limits, cross-field
 * rules.
 */
import { expect } from 'chai';
import { concatBytes } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import * as V3 from '../../../src/core/v3/index.ts';
import { encodeKind } from '../../../src/core/v3/codec/binary.ts';
import { FEATURE, UNLOCK_CONDITION } from '../../../src/core/v3/codec/layouts.ts';
import { blocks, h, hex, misc, outputs, params, protocolError, transactions, type Any } from './helpers.ts';

const taggedBlock = hex(blocks.vectors[0].bytes); // layout annotated in docs/protocol.md §V3.5
const txPayload = hex(transactions.vectors[0].bytes); // layout annotated in docs/protocol.md §V5.6
const decodeBlock = (b: Uint8Array) => V3.decodeBlockV3(b, params);

function patched(bytes: Uint8Array, at: number, ...values: number[]): Uint8Array {
  const out = bytes.slice();
  values.forEach((v, i) => {
    out[at + i] = v;
  });
  return out;
}
function spliced(bytes: Uint8Array, at: number, remove: number, insert: Uint8Array | number[]): Uint8Array {
  return concatBytes(bytes.subarray(0, at), Uint8Array.from(insert), bytes.subarray(at + remove));
}
const u32le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >>> 24];
const u64le = (n: bigint) => Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(8 * i)) & 0xffn));
const feature = (f: Any) => encodeKind({ k: 'union', family: FEATURE }, f, 'feature');
const condition = (c: Any) => encodeKind({ k: 'union', family: UNLOCK_CONDITION }, c, 'uc');
const ed25519 = { type: 0, pubKeyHash: new Uint8Array(32).fill(7) };
const addressUc = condition({ type: 0, address: ed25519 });
/** A basic output assembled by hand (so invalid combinations can be produced). */
function rawBasic(ucs: Uint8Array[], features: Uint8Array[]): Uint8Array {
  return concatBytes(
    Uint8Array.of(0),
    Uint8Array.from(u64le(1000n)),
    Uint8Array.from(u64le(0n)),
    Uint8Array.of(ucs.length),
    ...ucs,
    Uint8Array.of(features.length),
    ...features,
  );
}

function expectCode(fn: () => unknown, code: string, messagePart?: RegExp): ProtocolError {
  const e = protocolError(fn);
  expect(e.code, e.message).to.equal(code);
  if (messagePart) expect(e.message).to.match(messagePart);
  return e;
}

describe('v3 binary: truncation and trailing bytes', () => {
  const cases: [string, Uint8Array, (b: Uint8Array) => unknown][] = [
    ...(blocks.vectors as Any[]).map((v): [string, Uint8Array, (b: Uint8Array) => unknown] => [
      `block ${v.name}`,
      hex(v.bytes),
      decodeBlock,
    ]),
    ...(transactions.vectors as Any[]).map((v): [string, Uint8Array, (b: Uint8Array) => unknown] => [
      `signed transaction ${v.name}`,
      hex(v.bytes),
      V3.decodeSignedTransactionV3,
    ]),
    ...(outputs.vectors as Any[]).map((v): [string, Uint8Array, (b: Uint8Array) => unknown] => [
      `output ${v.name}`,
      hex(v.bytes),
      V3.decodeOutputV3,
    ]),
    ['protocol parameters', hex(misc.protocolParameters[0].bytes), V3.decodeProtocolParametersV3],
    ['slot commitment', hex(misc.slotCommitments[0].bytes), V3.decodeSlotCommitmentV3],
    ['output ID proof', hex(transactions.vectors[3].proofs[0].bytes), V3.decodeOutputIdProofV3],
  ];
  for (const [name, bytes, decode] of cases) {
    it(`${name}: every truncation throws a ProtocolError, one extra byte is TRAILING_BYTES`, () => {
      for (let n = 0; n < bytes.length; n++) {
        const e = protocolError(() => decode(bytes.subarray(0, n)));
        expect(
          ['TRUNCATED', 'PAYLOAD_LENGTH_MISMATCH', 'COUNT_OUT_OF_RANGE', 'LENGTH_OUT_OF_RANGE'],
          `${n}: ${e.message}`,
        ).to.include(e.code);
      }
      expectCode(
        () => decode(concatBytes(bytes, Uint8Array.of(0))),
        'TRAILING_BYTES',
        new RegExp(`at offset ${bytes.length}`),
      );
    });
  }

  it('a truncated block names the field and the offset', () => {
    const e = expectCode(() => decodeBlock(taggedBlock.subarray(0, 100)), 'TRUNCATED');
    expect(e.message).to.match(/strongParents\[0\], 9 left at offset 91/);
    expect(e.offset).to.equal(91);
    expect(e.field).to.equal('body.strongParents[0]');
  });

  const corruptions: [string, Uint8Array, (b: Uint8Array) => Uint8Array][] = [
    ['block', taggedBlock, (b) => V3.encodeBlockV3(decodeBlock(b))],
    ['signed transaction', txPayload, (b) => V3.encodeSignedTransactionV3(V3.decodeSignedTransactionV3(b))],
    ['account output', hex(outputs.vectors[1].bytes), (b) => V3.encodeOutputV3(V3.decodeOutputV3(b))],
  ];
  for (const [name, bytes, roundTrip] of corruptions) {
    it(`every single-byte corruption of a ${name} either decodes canonically or throws a ProtocolError`, () => {
      for (let i = 0; i < bytes.length; i++) {
        for (const v of [0x00, 0xff, bytes[i]! ^ 0x80, bytes[i]! ^ 0x01]) {
          const b = patched(bytes, i, v);
          try {
            expect(h(roundTrip(b)), `byte ${i} = ${v}`).to.equal(h(b));
          } catch (e) {
            expect(e, `byte ${i} = ${v}: ${String(e)}`).to.be.instanceOf(ProtocolError);
          }
        }
      }
    });
  }
});

describe('v3 binary: unknown and disallowed types', () => {
  it('unknown block body type', () =>
    expectCode(() => decodeBlock(patched(taggedBlock, 89, 2)), 'UNKNOWN_TYPE', /block body type 2 .*at offset 89/));
  it('unknown payload type', () =>
    expectCode(() => decodeBlock(patched(taggedBlock, 313, 3)), 'UNKNOWN_TYPE', /payload type 3/));
  it('unknown signature type', () =>
    expectCode(() => decodeBlock(patched(taggedBlock, 345, 1)), 'UNKNOWN_TYPE', /signature type 1 .*at offset 345/));
  it('unknown context input type', () =>
    expectCode(() => V3.decodeSignedTransactionV3(patched(txPayload, 15, 3)), 'UNKNOWN_TYPE', /context input type 3/));
  it('unknown input type', () =>
    expectCode(() => V3.decodeSignedTransactionV3(patched(txPayload, 90, 1)), 'UNKNOWN_TYPE', /input type 1/));
  it('unknown output type', () =>
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, 258, 6)),
      'UNKNOWN_TYPE',
      /output type 6 .*at offset 258/,
    ));
  it('unknown unlock condition, feature and address types', () => {
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, 276, 7)),
      'UNKNOWN_TYPE',
      /unlock condition type 7/,
    );
    expectCode(() => V3.decodeSignedTransactionV3(patched(txPayload, 311, 8)), 'UNKNOWN_TYPE', /feature type 8/);
    expectCode(() => V3.decodeSignedTransactionV3(patched(txPayload, 277, 1)), 'UNKNOWN_TYPE', /address type 1/);
  });
  it('unknown unlock type', () => {
    const unlockAt = txPayload.length - (1 + 97) - 3; // [sig unlock 98][ref unlock 3]
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, unlockAt + 98, 7)),
      'UNKNOWN_TYPE',
      /unlock type 7/,
    );
  });
  it('a signed transaction inside a transaction is not allowed (only tagged data)', () => {
    const nested = concatBytes(Uint8Array.from(u32le(txPayload.length)), txPayload);
    const b = spliced(txPayload, 252, 4, nested);
    expectCode(
      () => V3.decodeSignedTransactionV3(b),
      'TYPE_NOT_ALLOWED',
      /signed transaction payload \(type 1\) is not allowed in transaction.payload/,
    );
  });
  it('an empty unlock at the top level is not allowed', () => {
    const b = spliced(txPayload, txPayload.length - 3, 3, [6]);
    expectCode(() => V3.decodeSignedTransactionV3(b), 'TYPE_NOT_ALLOWED', /empty unlock/);
  });
  it('features and unlock conditions not allowed in a basic output', () => {
    expectCode(
      () =>
        V3.decodeOutputV3(
          rawBasic([addressUc], [feature({ type: 7, stakedAmount: 1n, fixedCost: 0n, startEpoch: 0, endEpoch: 1 })]),
        ),
      'TYPE_NOT_ALLOWED',
      /staking feature/,
    );
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc, condition({ type: 4, address: ed25519 })], [])),
      'TYPE_NOT_ALLOWED',
      /state controller/,
    );
  });
  it('an implicit account creation address cannot be a return address', () => {
    const sdruc = condition({ type: 1, returnAddress: ed25519, amount: 5n });
    const bad = patched(sdruc, 1, 32);
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc, bad], [])),
      'TYPE_NOT_ALLOWED',
      /implicit account creation address/,
    );
  });
  it('a delegation validator must be an account address', () => {
    const v = outputs.vectors.find((x: Any) => x.name === 'tip40-delegation-output');
    const b = hex(v.bytes);
    expectCode(() => V3.decodeOutputV3(patched(b, 1 + 8 + 8 + 32, 0)), 'TYPE_NOT_ALLOWED', /validatorAddress/);
  });
});

describe('v3 binary: ordering and uniqueness', () => {
  it('strong parents must be sorted and unique', () => {
    const swapped = concatBytes(
      taggedBlock.subarray(0, 91),
      taggedBlock.subarray(127, 163),
      taggedBlock.subarray(91, 127),
      taggedBlock.subarray(163),
    );
    expectCode(
      () => decodeBlock(swapped),
      'NOT_SORTED_UNIQUE',
      /strongParents must be sorted ascending, unique: element 1/,
    );
    const dup = concatBytes(taggedBlock.subarray(0, 127), taggedBlock.subarray(91, 127), taggedBlock.subarray(163));
    expectCode(() => decodeBlock(dup), 'NOT_SORTED_UNIQUE', /at offset 127/);
  });
  it('a weak parent may not also be a strong parent', () => {
    const b = spliced(taggedBlock, 307, 1, concatBytes(Uint8Array.of(1), taggedBlock.subarray(91, 127)));
    expectCode(() => decodeBlock(b), 'DUPLICATE', /weak parent 0 is also a strong/);
  });
  it('context inputs sorted by type and key', () => {
    const b = concatBytes(
      txPayload.subarray(0, 15),
      txPayload.subarray(52, 85),
      txPayload.subarray(15, 52),
      txPayload.subarray(85),
    );
    expectCode(
      () => V3.decodeSignedTransactionV3(b),
      'NOT_SORTED_UNIQUE',
      /contextInputs must be sorted by type and key/,
    );
  });
  it('allotments sorted by account ID, unique', () => {
    const b = concatBytes(
      txPayload.subarray(0, 170),
      txPayload.subarray(210, 250),
      txPayload.subarray(170, 210),
      txPayload.subarray(250),
    );
    expectCode(() => V3.decodeSignedTransactionV3(b), 'NOT_SORTED_UNIQUE', /allotments must be sorted by account ID/);
  });
  it('inputs must be unique', () => {
    const b = concatBytes(txPayload.subarray(0, 129), txPayload.subarray(90, 129), txPayload.subarray(168));
    expectCode(() => V3.decodeSignedTransactionV3(b), 'DUPLICATE', /input 1 spends the same output/);
  });
  it('features sorted by type, one per type', () => {
    const tag = feature({ type: 4, tag: Uint8Array.of(1) });
    const meta = feature({ type: 2, entries: { a: Uint8Array.of(1) } });
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc], [tag, meta])),
      'NOT_SORTED_UNIQUE',
      /features must be sorted by type/,
    );
    expectCode(() => V3.decodeOutputV3(rawBasic([addressUc], [tag, tag])), 'NOT_SORTED_UNIQUE');
    expect(V3.decodeOutputV3(rawBasic([addressUc], [meta, tag])).type).to.equal(0);
  });
  it('metadata entries sorted by serialized bytes: "b" before "aa" (docs/protocol.md §V12.2 D6)', () => {
    const entry = (k: string) => [k.length, ...Array.from(k, (c) => c.charCodeAt(0)), 1, 0, 0x2a];
    const meta = (...keys: string[]) => Uint8Array.from([2, keys.length, ...keys.flatMap(entry)]);
    const ok = V3.decodeOutputV3(rawBasic([addressUc], [meta('b', 'aa')]));
    expect(Object.keys((ok as Any).features[0].entries)).to.have.members(['b', 'aa']);
    expect(h(V3.encodeOutputV3(ok))).to.equal(h(rawBasic([addressUc], [meta('b', 'aa')])));
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc], [meta('aa', 'b')])),
      'NOT_SORTED_UNIQUE',
      /key "b" breaks the order/,
    );
    expectCode(() => V3.decodeOutputV3(rawBasic([addressUc], [meta('b', 'b')])), 'NOT_SORTED_UNIQUE');
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc], [Uint8Array.from([2, 1, 2, 0x61, 0x20, 0, 0])])),
      'INVALID_FIELD',
      /not printable ASCII/,
    );
  });
  it('block issuer keys sorted', () => {
    const v = outputs.vectors.find((x: Any) => x.name === 'tip42-account-output');
    const out = V3.decodeOutputV3(hex(v.bytes)) as V3.AccountOutputV3;
    const bif = out.features.find((f) => f.type === 6) as V3.BlockIssuerFeatureV3;
    const good = feature(bif);
    const bad = concatBytes(good.subarray(0, 6), good.subarray(6 + 33, 6 + 66), good.subarray(6, 6 + 33));
    const b = h(V3.encodeOutputV3(out)).replace(h(good).slice(2), h(bad).slice(2));
    expectCode(() => V3.decodeOutputV3(hex(b)), 'NOT_SORTED_UNIQUE', /blockIssuerKeys/);
  });
});

describe('v3 binary: limits', () => {
  it('block size above 32768 is BLOCK_TOO_LARGE', () => {
    expectCode(() => decodeBlock(new Uint8Array(32769)), 'BLOCK_TOO_LARGE');
  });
  it('strong parents count 0 and 9 are out of range', () => {
    expectCode(
      () => decodeBlock(patched(taggedBlock, 90, 0)),
      'COUNT_OUT_OF_RANGE',
      /strongParents count 0 is outside 1..8 at offset 90/,
    );
    expectCode(() => decodeBlock(patched(taggedBlock, 90, 9)), 'COUNT_OUT_OF_RANGE');
  });
  it('tag of 65 bytes', () => {
    const b = spliced(taggedBlock, 309, 4 + 24, [...u32le(2 + 65 + 4), 0, 65, ...new Array(65).fill(1), 0, 0, 0, 0]);
    expectCode(() => decodeBlock(b), 'LENGTH_OUT_OF_RANGE', /tag length 65 is outside 0..64/);
  });
  it('payload length prefix that disagrees with the payload', () => {
    expectCode(() => decodeBlock(patched(taggedBlock, 309, 23)), 'PAYLOAD_LENGTH_MISMATCH');
    expectCode(() => decodeBlock(patched(taggedBlock, 309, 25)), 'PAYLOAD_LENGTH_MISMATCH');
    expectCode(() => decodeBlock(patched(taggedBlock, 309, 0xff, 0xff)), 'TRUNCATED', /exceeds/);
  });
  it('UTXO output index 128 and reward index ≥ input count', () => {
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, 90 + 37, 128)),
      'VALUE_OUT_OF_RANGE',
      /transactionOutputIndex 128/,
    );
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, 86, 2)),
      'VALUE_OUT_OF_RANGE',
      /reward input index 2 is not below the input count 2/,
    );
  });
  it('capabilities: at most one byte, no trailing zero', () => {
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, 251, 0)),
      'INVALID_FIELD',
      /capabilities must not end with a zero byte/,
    );
    expectCode(
      () => V3.decodeSignedTransactionV3(spliced(txPayload, 250, 2, [2, 1, 1])),
      'LENGTH_OUT_OF_RANGE',
      /capabilities length 2/,
    );
  });
  it('zero mana allotment', () => {
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, 202, 0, 0)),
      'VALUE_OUT_OF_RANGE',
      /mana must be > 0/,
    );
  });
  it('input count 0', () => {
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, 88, 0, 0)),
      'COUNT_OUT_OF_RANGE',
      /inputs count 0/,
    );
  });
  it('a basic output needs an address unlock condition', () => {
    expectCode(
      () => V3.decodeOutputV3(rawBasic([condition({ type: 2, slot: 5 })], [])),
      'MISSING_FIELD',
      /unlockConditions must contain type 0/,
    );
  });
  it('timelock slot 0 and native token amount 0', () => {
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc, Uint8Array.of(2, 0, 0, 0, 0)], [])),
      'VALUE_OUT_OF_RANGE',
      /slot must be > 0/,
    );
    const nt = feature({ type: 5, id: new Uint8Array(38), amount: 1n });
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc], [patched(nt, 39, 0)])),
      'VALUE_OUT_OF_RANGE',
      /amount must be > 0/,
    );
  });
  it('foundry token scheme: melted above minted', () => {
    const v = outputs.vectors.find((x: Any) => x.name === 'tip44-foundry-output');
    const b = hex(v.bytes);
    const meltedAt = 1 + 8 + 4 + 1 + 32;
    expectCode(
      () => V3.decodeOutputV3(patched(b, meltedAt + 2, 0xff)),
      'VALUE_OUT_OF_RANGE',
      /meltedTokens exceeds mintedTokens/,
    );
  });
});

describe('v3 binary: unlock rules', () => {
  const sigAt = txPayload.length - 98 - 3 - 2; // unlock count
  it('unlock count must equal input count', () => {
    const b = patched(txPayload.subarray(0, txPayload.length - 3), sigAt, 1, 0);
    expectCode(() => V3.decodeSignedTransactionV3(b), 'COUNT_OUT_OF_RANGE', /1 unlocks for 2 inputs/);
  });
  it('a reference unlock must point to an earlier signature unlock', () => {
    expectCode(
      () => V3.decodeSignedTransactionV3(patched(txPayload, txPayload.length - 2, 1)),
      'INVALID_UNLOCK',
      /references 1, which is not an earlier signature or multi unlock/,
    );
  });
  it('two signature unlocks with the same public key', () => {
    const sig = txPayload.subarray(sigAt + 2, sigAt + 2 + 98);
    const b = concatBytes(txPayload.subarray(0, sigAt + 2 + 98), sig);
    expectCode(
      () => V3.decodeSignedTransactionV3(b),
      'DUPLICATE',
      /signature unlock 1 repeats the public key of unlock 0/,
    );
  });
  it('an account unlock as first unlock cannot reference itself', () => {
    const b = concatBytes(txPayload.subarray(0, sigAt + 2), Uint8Array.of(2, 0, 0), Uint8Array.of(1, 0, 0));
    expectCode(() => V3.decodeSignedTransactionV3(b), 'INVALID_UNLOCK');
  });
});

describe('v3 block parameters', () => {
  it('protocol version and network ID must match the parameters', () => {
    expectCode(
      () => decodeBlock(patched(taggedBlock, 0, 2)),
      'PROTOCOL_VERSION_MISMATCH',
      /protocolVersion 2 at offset 0, expected 3/,
    );
    expectCode(() => decodeBlock(patched(taggedBlock, 1, 0)), 'NETWORK_ID_MISMATCH');
    expectCode(
      () => V3.decodeBlockV3(taggedBlock, { ...params, networkName: 'shimmer' }),
      'NETWORK_ID_MISMATCH',
      /shimmer/,
    );
  });
  it('a validation block may not support a version below its own', () => {
    const v = hex(blocks.vectors[2].bytes);
    const at = v.length - 97 - 32 - 1;
    expectCode(() => decodeBlock(patched(v, at, 2)), 'VALUE_OUT_OF_RANGE', /highestSupportedVersion 2/);
  });
  it('a transaction from another network', () => {
    const v = hex(blocks.vectors[1].bytes);
    const txNetworkAt = 313 + 1; // payload type at 313, networkId follows
    expectCode(
      () => decodeBlock(patched(v, txNetworkAt, 0)),
      'NETWORK_ID_MISMATCH',
      /body.payload.transaction: networkId/,
    );
  });
  it('timing: a commitment younger than minCommittableAge or older than maxCommittableAge', () => {
    const block = decodeBlock(taggedBlock);
    const at = (slot: number): V3.BlockV3 => ({
      ...block,
      header: { ...block.header, slotCommitmentId: concatBytes(new Uint8Array(32), Uint8Array.from(u32le(slot))) },
    });
    expect(() => V3.checkBlockTimingV3(at(4), params)).to.throw(/too recent/); // 4 + 10 > 13
    expect(() => V3.checkBlockTimingV3(at(3), params)).not.to.throw(); // 3 + 10 = 13
    expect(() => V3.checkBlockTimingV3(at(0), params)).not.to.throw(); // genesis
    const late = {
      ...block,
      header: { ...block.header, issuingTime: block.header.issuingTime + 300n * 1_000_000_000n },
    }; // slot 43
    expect(() => V3.checkBlockTimingV3(late, params)).to.throw(/too old/);
  });
});
