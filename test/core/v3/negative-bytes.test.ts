/** Binary rejections: truncation, trailing bytes, single-byte corruptions, unknown and disallowed types. */
import { expect } from 'chai';
import { concatBytes } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import * as V3 from '../../../src/core/v3/index.ts';
import { blocks, h, hex, misc, outputs, protocolError, transactions, type Any } from './helpers.ts';
import {
  addressUc,
  condition,
  decodeBlock,
  ed25519,
  expectCode,
  feature,
  patched,
  rawBasic,
  spliced,
  taggedBlock,
  txPayload,
  u32le,
} from './negative-support.ts';

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
