/** Binary rejections: limits, unlock rules and what the protocol parameters decide (version, network, timing). */
import { expect } from 'chai';
import { concatBytes } from '../../../src/core/bytes.ts';
import * as V3 from '../../../src/core/v3/index.ts';
import { blocks, hex, outputs, params, type Any } from './helpers.ts';
import {
  addressUc,
  condition,
  decodeBlock,
  expectCode,
  feature,
  patched,
  rawBasic,
  spliced,
  taggedBlock,
  txPayload,
  u32le,
} from './negative-support.ts';

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
