/** Hand-made malformed inputs: every rule family of the strict decoder, each with its error code. */
import { expect } from 'chai';
import { loadVectors } from '../../../harness/vectors.ts';
import { concatBytes, fromHex } from '../../../src/core/bytes.ts';
import { isProtocolError, type ProtocolError } from '../../../src/core/errors.ts';
import {
  decodeAddress,
  decodeBlock,
  decodeFeature,
  decodeInput,
  decodeMilestoneOption,
  decodeOutput,
  decodePayload,
  decodeProtocolParameters,
  decodeSignature,
  decodeTokenScheme,
  decodeTransactionEssence,
  decodeUnlock,
  decodeUnlockCondition,
  encodeBlock,
  encodeOutput,
  encodePayload,
  encodeMilestoneOption,
  encodeProtocolParameters,
  encodeTransactionEssence,
} from '../../../src/core/codec/index.ts';
import {
  SHIMMER_PROTOCOL,
  type Block,
  type MilestonePayload,
  type TransactionPayload,
} from '../../../src/core/model/index.ts';
import {
  aliasOutput,
  basicOutput,
  clone,
  ed,
  fill,
  foundryOutput,
  milestoneBlock,
  nftOutput,
  receipt,
  taggedBlock,
  transaction,
  txBlock,
} from './fixtures.ts';

function err(f: () => unknown): ProtocolError {
  try {
    f();
  } catch (e) {
    if (isProtocolError(e)) return e;
    throw e;
  }
  throw new Error('expected a ProtocolError, the input was accepted');
}
const codeOf = (f: () => unknown): string => err(f).code;

const realBlocks = loadVectors('stardust/blocks.json').vectors.map((v: { bytes: string }) => fromHex(v.bytes));

describe('codec: strict decoding rejects malformed data', () => {
  describe('truncation and trailing bytes', () => {
    it('every proper prefix of every real block throws a ProtocolError (never anything else)', () => {
      let n = 0;
      for (const bytes of realBlocks) {
        for (let len = 0; len < bytes.length; len++) {
          const e = err(() => decodeBlock(bytes.subarray(0, len)));
          expect(['TRUNCATED', 'PAYLOAD_LENGTH_MISMATCH', 'COUNT_OUT_OF_RANGE', 'LENGTH_OUT_OF_RANGE']).to.include(
            e.code,
          );
          n++;
        }
      }
      expect(n).to.be.greaterThan(3000);
    });

    it('a trailing byte after the nonce', () => {
      const e = err(() => decodeBlock(concatBytes(realBlocks[0], new Uint8Array([0]))));
      expect(e.code).to.equal('TRAILING_BYTES');
      expect(e.message).to.match(/^Cannot decode block: 1 trailing byte at offset 102$/);
      expect(e.offset).to.equal(102);
    });

    it('a trailing byte after a single object', () => {
      expect(codeOf(() => decodeOutput(concatBytes(encodeOutput(basicOutput()), new Uint8Array([0]))))).to.equal(
        'TRAILING_BYTES',
      );
      expect(codeOf(() => decodeAddress(fill(34, 0)))).to.equal('TRAILING_BYTES');
    });

    it('truncated single objects', () => {
      expect(codeOf(() => decodeAddress(fill(32, 0)))).to.equal('TRUNCATED');
      expect(codeOf(() => decodeSignature(fill(96, 0)))).to.equal('TRUNCATED');
      const e = err(() => decodeOutput(encodeOutput(aliasOutput()).subarray(0, 20)));
      expect(e.code).to.equal('TRUNCATED');
      expect(e.message).to.contain('at offset');
    });
  });

  describe('block', () => {
    it('oversize block (BLOCK_TOO_LARGE) before anything else', () => {
      expect(codeOf(() => decodeBlock(new Uint8Array(32769)))).to.equal('BLOCK_TOO_LARGE');
      // exactly 32768 bytes is fine
      const data = new Uint8Array(32768 - 46 - 4 - 1 - 4);
      const bytes = encodeBlock(taggedBlock(new Uint8Array(0), data));
      expect(bytes.length).to.equal(32768);
      expect(decodeBlock(bytes).payload).to.have.property('type', 5);
    });

    it('parents: 0 (unless allowNoParents), 9, unsorted, duplicate', () => {
      const b = taggedBlock();
      expect(codeOf(() => decodeBlock(encodeBlock({ ...b, parents: [] })))).to.equal('COUNT_OUT_OF_RANGE');
      expect(decodeBlock(encodeBlock({ ...b, parents: [] }), { allowNoParents: true }).parents).to.deep.equal([]);
      const nine = Array.from({ length: 9 }, (_, i) => fill(32, i + 1));
      expect(codeOf(() => decodeBlock(encodeBlock({ ...b, parents: nine })))).to.equal('COUNT_OUT_OF_RANGE');
      expect(codeOf(() => decodeBlock(encodeBlock({ ...b, parents: nine }), { allowNoParents: true }))).to.equal(
        'COUNT_OUT_OF_RANGE',
      );
      expect(decodeBlock(encodeBlock({ ...b, parents: nine.slice(0, 8) })).parents).to.have.length(8);
      const e = err(() => decodeBlock(encodeBlock({ ...b, parents: [fill(32, 2), fill(32, 1)] })));
      expect(e.code).to.equal('NOT_SORTED_UNIQUE');
      expect(e.offset).to.equal(34);
      expect(codeOf(() => decodeBlock(encodeBlock({ ...b, parents: [fill(32, 2), fill(32, 2)] })))).to.equal(
        'NOT_SORTED_UNIQUE',
      );
    });

    it('payload types: 4 not allowed, 0-3 and 8 unknown, 5/6/7 accepted', () => {
      const base = encodeBlock(taggedBlock());
      const typeAt = 1 + 1 + 32 + 4;
      for (const [t, code] of [
        [4, 'TYPE_NOT_ALLOWED'],
        [0, 'UNKNOWN_TYPE'],
        [1, 'UNKNOWN_TYPE'],
        [2, 'UNKNOWN_TYPE'],
        [3, 'UNKNOWN_TYPE'],
        [8, 'UNKNOWN_TYPE'],
        [0x100, 'UNKNOWN_TYPE'],
      ] as const) {
        const bytes = base.slice();
        new DataView(bytes.buffer).setUint32(typeAt, t, true);
        expect(
          codeOf(() => decodeBlock(bytes)),
          `type ${t}`,
        ).to.equal(code);
      }
      expect(decodeBlock(encodeBlock(txBlock())).payload?.type).to.equal(6);
      expect(decodeBlock(encodeBlock(milestoneBlock())).payload?.type).to.equal(7);
    });

    it('a treasury transaction as block payload is TYPE_NOT_ALLOWED', () => {
      const tt = receipt().transaction;
      const b = { protocolVersion: 2, parents: [fill(32, 1)], payload: tt, nonce: 0n } as unknown as Block;
      expect(codeOf(() => decodeBlock(encodeBlock(b)))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('payload length prefix too small, too large, beyond the end', () => {
      const base = encodeBlock(taggedBlock());
      const lenAt = 1 + 1 + 32;
      const dv = (b: Uint8Array) => new DataView(b.buffer);
      const len = dv(base).getUint32(lenAt, true);
      const small = base.slice();
      dv(small).setUint32(lenAt, len - 1, true);
      expect(codeOf(() => decodeBlock(small))).to.equal('PAYLOAD_LENGTH_MISMATCH');
      const large = base.slice();
      dv(large).setUint32(lenAt, len + 1, true);
      expect(codeOf(() => decodeBlock(large))).to.equal('PAYLOAD_LENGTH_MISMATCH');
      const huge = base.slice();
      dv(huge).setUint32(lenAt, 100000, true);
      expect(codeOf(() => decodeBlock(huge))).to.equal('TRUNCATED');
    });
  });

  describe('tagged data', () => {
    it('tag of 65 bytes is LENGTH_OUT_OF_RANGE; 64 is fine', () => {
      expect(decodeBlock(encodeBlock(taggedBlock(fill(64, 1)))).payload).to.have.property('type', 5);
      const e = err(() => decodeBlock(encodeBlock(taggedBlock(fill(65, 1)))));
      expect(e.code).to.equal('LENGTH_OUT_OF_RANGE');
      expect(e.message).to.contain('65');
    });
  });

  describe('transaction', () => {
    const tx = transaction();
    const essenceAt = 4;
    const firstOutputAt = 4 + 1 + 8 + 2 + 2 * 35 + 32 + 2;

    it('the fixture decodes back to itself', () => {
      expect(decodePayload(encodePayload(tx))).to.deep.equal(tx);
    });

    it('unknown essence type', () => {
      const b = encodePayload(tx);
      b[essenceAt] = 2;
      expect(codeOf(() => decodePayload(b))).to.equal('UNKNOWN_TYPE');
    });

    it('treasury input in an essence is TYPE_NOT_ALLOWED; unknown input type is UNKNOWN_TYPE', () => {
      const b = encodePayload(tx);
      b[essenceAt + 1 + 8 + 2] = 1;
      expect(codeOf(() => decodePayload(b))).to.equal('TYPE_NOT_ALLOWED');
      b[essenceAt + 1 + 8 + 2] = 7;
      expect(codeOf(() => decodePayload(b))).to.equal('UNKNOWN_TYPE');
    });

    it('input output index 128 is VALUE_OUT_OF_RANGE inside an essence (a standalone input takes any u16)', () => {
      const t = clone(tx);
      t.essence.inputs[1]!.transactionOutputIndex = 128;
      const e = err(() => decodePayload(encodePayload(t)));
      expect(e.code).to.equal('VALUE_OUT_OF_RANGE');
      expect(e.offset).to.equal(4 + 1 + 8 + 2 + 35 + 33);
      t.essence.inputs[1]!.transactionOutputIndex = 127;
      expect(decodePayload(encodePayload(t))).to.deep.equal(t);
    });

    it('duplicate inputs are DUPLICATE', () => {
      const t = clone(tx);
      t.essence.inputs[1]!.transactionOutputIndex = 0;
      expect(codeOf(() => decodePayload(encodePayload(t)))).to.equal('DUPLICATE');
    });

    it('input and output counts 0 and 129', () => {
      const t = clone(tx);
      t.essence.inputs = [];
      expect(codeOf(() => decodeTransactionEssence(encodeTransactionEssence(t.essence)))).to.equal(
        'COUNT_OUT_OF_RANGE',
      );
      const u = clone(tx);
      u.essence.outputs = Array.from({ length: 129 }, () => basicOutput());
      expect(codeOf(() => decodeTransactionEssence(encodeTransactionEssence(u.essence)))).to.equal(
        'COUNT_OUT_OF_RANGE',
      );
      u.essence.outputs = [];
      expect(codeOf(() => decodeTransactionEssence(encodeTransactionEssence(u.essence)))).to.equal(
        'COUNT_OUT_OF_RANGE',
      );
    });

    it('output types in an essence: 2 not allowed, 0/1/7 unknown', () => {
      for (const [t, code] of [
        [2, 'TYPE_NOT_ALLOWED'],
        [0, 'UNKNOWN_TYPE'],
        [1, 'UNKNOWN_TYPE'],
        [7, 'UNKNOWN_TYPE'],
      ] as const) {
        const b = encodePayload(tx);
        b[firstOutputAt] = t;
        const e = err(() => decodePayload(b));
        expect(e.code, `type ${t}`).to.equal(code);
        expect(e.offset).to.equal(firstOutputAt);
      }
    });

    it('essence payload: only tagged data (6, 7 and 4 not allowed)', () => {
      for (const t of [4, 6, 7]) {
        const b = encodeTransactionEssence(tx.essence);
        const payloadTypeAt = b.length - (4 + 1 + 1 + 4 + 1);
        new DataView(b.buffer).setUint32(payloadTypeAt, t, true);
        expect(
          codeOf(() => decodeTransactionEssence(b)),
          `type ${t}`,
        ).to.equal('TYPE_NOT_ALLOWED');
      }
    });

    it('unknown unlock and signature types; zero unlocks', () => {
      const b = encodePayload(tx);
      const unlocksAt = b.length - (2 + 98 + 3);
      b[unlocksAt + 2] = 4;
      expect(codeOf(() => decodePayload(b))).to.equal('UNKNOWN_TYPE');
      const c = encodePayload(tx);
      c[unlocksAt + 3] = 1;
      expect(codeOf(() => decodePayload(c))).to.equal('UNKNOWN_TYPE');
      const t = clone(tx);
      t.unlocks = [];
      expect(codeOf(() => decodePayload(encodePayload(t)))).to.equal('COUNT_OUT_OF_RANGE');
      expect(codeOf(() => decodeUnlock(new Uint8Array([9, 0, 0])))).to.equal('UNKNOWN_TYPE');
    });
  });

  describe('outputs', () => {
    it('unknown output type, treasury output accepted standalone', () => {
      expect(codeOf(() => decodeOutput(new Uint8Array([9, 0, 0, 0, 0, 0, 0, 0, 0])))).to.equal('UNKNOWN_TYPE');
      expect(decodeOutput(new Uint8Array([2, 1, 0, 0, 0, 0, 0, 0, 0]))).to.deep.equal({ type: 2, amount: 1n });
    });

    it('unsorted and duplicate native tokens; 65 native tokens', () => {
      const o = basicOutput();
      o.nativeTokens = [
        { id: fill(38, 2), amount: 1n },
        { id: fill(38, 1), amount: 1n },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.nativeTokens = [
        { id: fill(38, 1), amount: 1n },
        { id: fill(38, 1), amount: 2n },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.nativeTokens = Array.from({ length: 65 }, (_, i) => ({ id: fill(38, i), amount: 1n }));
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('COUNT_OUT_OF_RANGE');
      o.nativeTokens = o.nativeTokens.slice(0, 64);
      expect(decodeOutput(encodeOutput(o))).to.deep.equal(o);
    });

    it('unlock conditions: unknown type, not allowed per kind, unsorted, duplicate, missing mandatory', () => {
      const o = basicOutput();
      o.unlockConditions = [
        { type: 0, address: ed(1) },
        { type: 2, unixTime: 5 },
      ];
      const b = encodeOutput(o);
      const ucAt = 1 + 8 + 1 + 1 + 34;
      b[ucAt] = 7;
      expect(codeOf(() => decodeOutput(b))).to.equal('UNKNOWN_TYPE');
      b[ucAt] = 4;
      expect(codeOf(() => decodeOutput(b))).to.equal('TYPE_NOT_ALLOWED');
      o.unlockConditions = [
        { type: 2, unixTime: 5 },
        { type: 0, address: ed(1) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.unlockConditions = [
        { type: 0, address: ed(1) },
        { type: 0, address: ed(2) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.unlockConditions = [{ type: 2, unixTime: 5 }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('MISSING_FIELD');
      const a = aliasOutput();
      a.unlockConditions = [{ type: 4, address: ed(1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(a)))).to.equal('COUNT_OUT_OF_RANGE');
      a.unlockConditions = [
        { type: 4, address: ed(1) },
        { type: 0, address: ed(1) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(a)))).to.equal('TYPE_NOT_ALLOWED');
      const n = nftOutput();
      n.unlockConditions = [{ type: 6, address: { type: 8, aliasId: fill(32, 1) } }];
      expect(codeOf(() => decodeOutput(encodeOutput(n)))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('immutable alias address unlock condition must hold an alias address', () => {
      const f = foundryOutput();
      f.unlockConditions = [{ type: 6, address: ed(1) as never }];
      expect(codeOf(() => decodeOutput(encodeOutput(f)))).to.equal('TYPE_NOT_ALLOWED');
      expect(codeOf(() => decodeUnlockCondition(new Uint8Array([6, 0, ...fill(32, 1)])))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('unknown address type', () => {
      expect(codeOf(() => decodeAddress(new Uint8Array([1, ...fill(32, 1)])))).to.equal('UNKNOWN_TYPE');
      const o = basicOutput();
      const b = encodeOutput(o);
      b[1 + 8 + 1 + 1 + 1] = 9;
      expect(codeOf(() => decodeOutput(b))).to.equal('UNKNOWN_TYPE');
    });

    it('features: unknown, not allowed (issuer as mutable, tag on alias/foundry), duplicate, unsorted, too many', () => {
      expect(codeOf(() => decodeFeature(new Uint8Array([4, 1, 1])))).to.equal('UNKNOWN_TYPE');
      const o = basicOutput();
      o.features = [{ type: 1, address: ed(1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('TYPE_NOT_ALLOWED');
      o.features = [
        { type: 2, data: fill(1, 1) },
        { type: 2, data: fill(1, 2) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.features = [
        { type: 3, tag: fill(1, 1) },
        { type: 0, address: ed(1) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('NOT_SORTED_UNIQUE');
      o.features = [
        { type: 0, address: ed(1) },
        { type: 2, data: fill(1, 1) },
        { type: 3, tag: fill(1, 1) },
        { type: 3, tag: fill(1, 2) },
      ];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('COUNT_OUT_OF_RANGE');
      const a = aliasOutput();
      a.features = [{ type: 3, tag: fill(1, 1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(a)))).to.equal('TYPE_NOT_ALLOWED');
      const a2 = aliasOutput();
      a2.immutableFeatures = [{ type: 0, address: ed(1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(a2)))).to.equal('TYPE_NOT_ALLOWED');
      const f = foundryOutput();
      f.immutableFeatures = [{ type: 1, address: ed(1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(f)))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('metadata 0 and 8193 bytes, tag feature 0 and 65 bytes', () => {
      const o = basicOutput();
      o.features = [{ type: 2, data: fill(8193, 1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('LENGTH_OUT_OF_RANGE');
      o.features = [{ type: 2, data: new Uint8Array(0) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('LENGTH_OUT_OF_RANGE');
      o.features = [{ type: 2, data: fill(8192, 1) }];
      expect(decodeOutput(encodeOutput(o))).to.deep.equal(o);
      o.features = [{ type: 3, tag: fill(65, 1) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('LENGTH_OUT_OF_RANGE');
      o.features = [{ type: 3, tag: new Uint8Array(0) }];
      expect(codeOf(() => decodeOutput(encodeOutput(o)))).to.equal('LENGTH_OUT_OF_RANGE');
      const a = aliasOutput();
      a.stateMetadata = fill(8193, 1);
      expect(codeOf(() => decodeOutput(encodeOutput(a)))).to.equal('LENGTH_OUT_OF_RANGE');
    });

    it('token scheme: unknown type', () => {
      expect(codeOf(() => decodeTokenScheme(new Uint8Array([1, ...fill(96, 0)])))).to.equal('UNKNOWN_TYPE');
      const b = encodeOutput(foundryOutput());
      b[1 + 8 + 1 + 4] = 1;
      expect(codeOf(() => decodeOutput(b))).to.equal('UNKNOWN_TYPE');
    });

    it('every fixture output round-trips', () => {
      for (const o of [basicOutput(), aliasOutput(), foundryOutput(), nftOutput()])
        expect(decodeOutput(encodeOutput(o))).to.deep.equal(o);
    });
  });

  describe('milestone', () => {
    const block = milestoneBlock();
    const ms = block.payload as MilestonePayload;

    it('the fixture (receipt + protocol parameters options) round-trips', () => {
      expect(decodeBlock(encodeBlock(block))).to.deep.equal(block);
    });

    it('parents unsorted / 0 / 9', () => {
      const m = clone(ms);
      m.parents = [fill(32, 2), fill(32, 1)];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.parents = [];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('COUNT_OUT_OF_RANGE');
      m.parents = Array.from({ length: 9 }, (_, i) => fill(32, i));
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('COUNT_OUT_OF_RANGE');
    });

    it('metadata 8193 bytes', () => {
      const m = clone(ms);
      m.metadata = fill(8193, 1);
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('LENGTH_OUT_OF_RANGE');
    });

    it('options: unsorted, duplicate, 3 options, unknown type', () => {
      const m = clone(ms);
      m.options = [m.options[1]!, m.options[0]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.options = [ms.options[1]!, ms.options[1]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.options = [ms.options[0]!, ms.options[1]!, ms.options[1]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('COUNT_OUT_OF_RANGE');
      expect(codeOf(() => decodeMilestoneOption(new Uint8Array([2])))).to.equal('UNKNOWN_TYPE');
    });

    it('signatures: 0, unsorted, identical, same public key twice', () => {
      const m = clone(ms);
      m.signatures = [];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('COUNT_OUT_OF_RANGE');
      m.signatures = [ms.signatures[1]!, ms.signatures[0]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.signatures = [ms.signatures[0]!, ms.signatures[0]!];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('NOT_SORTED_UNIQUE');
      m.signatures = [ms.signatures[0]!, { ...ms.signatures[0]!, signature: fill(64, 0xff) }];
      expect(codeOf(() => decodePayload(encodePayload(m)))).to.equal('DUPLICATE');
    });

    it('receipt: final 2, funds 0/unsorted/duplicate tail hash, non-Ed25519 address, missing or wrong treasury transaction', () => {
      const good = encodeMilestoneOption(receipt());
      const finalAt = 1 + 4;
      const b = good.slice();
      b[finalAt] = 2;
      const e = err(() => decodeMilestoneOption(b));
      expect(e.code).to.equal('INVALID_FIELD');
      expect(e.offset).to.equal(finalAt);
      const r = receipt();
      r.funds = [];
      expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(r)))).to.equal('COUNT_OUT_OF_RANGE');
      const r2 = receipt();
      r2.funds = [r2.funds[1]!, r2.funds[0]!];
      expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(r2)))).to.equal('NOT_SORTED_UNIQUE');
      const r3 = receipt();
      r3.funds[1] = { ...r3.funds[1]!, tailTransactionHash: r3.funds[0]!.tailTransactionHash };
      expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(r3)))).to.equal('DUPLICATE');
      const r4 = receipt();
      r4.funds[0] = { ...r4.funds[0]!, address: { type: 8, aliasId: fill(32, 1) } };
      expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(r4)))).to.equal('TYPE_NOT_ALLOWED');
      // no treasury transaction: cut it off and write length 0
      const noTx = good.slice(0, good.length - 4 - 46 + 4);
      new DataView(noTx.buffer).setUint32(noTx.length - 4, 0, true);
      expect(codeOf(() => decodeMilestoneOption(noTx))).to.equal('MISSING_FIELD');
      // a tagged data payload instead of the treasury transaction
      const wrong = good.slice();
      new DataView(wrong.buffer).setUint32(good.length - 46, 5, true);
      expect(codeOf(() => decodeMilestoneOption(wrong))).to.equal('TYPE_NOT_ALLOWED');
      // treasury transaction with a UTXO input or a basic output
      const badIn = good.slice();
      badIn[good.length - 46 + 4] = 0;
      expect(codeOf(() => decodeMilestoneOption(badIn))).to.equal('TYPE_NOT_ALLOWED');
      const badOut = good.slice();
      badOut[good.length - 9] = 3;
      expect(codeOf(() => decodeMilestoneOption(badOut))).to.equal('TYPE_NOT_ALLOWED');
    });

    it('protocol parameters option params 8193 bytes', () => {
      const o = { type: 1 as const, targetMilestoneIndex: 110, protocolVersion: 2, params: fill(8193, 0) };
      expect(codeOf(() => decodeMilestoneOption(encodeMilestoneOption(o)))).to.equal('LENGTH_OUT_OF_RANGE');
    });
  });

  describe('protocol parameters', () => {
    it('round-trip of the Shimmer parameters, invalid UTF-8 rejected, BOM kept', () => {
      expect(decodeProtocolParameters(encodeProtocolParameters(SHIMMER_PROTOCOL))).to.deep.equal(SHIMMER_PROTOCOL);
      const b = encodeProtocolParameters(SHIMMER_PROTOCOL);
      b[2] = 0xff;
      expect(codeOf(() => decodeProtocolParameters(b))).to.equal('INVALID_FIELD');
      const bom = { ...SHIMMER_PROTOCOL, networkName: '\ufeffshimmer' };
      const bytes = encodeProtocolParameters(bom);
      expect(decodeProtocolParameters(bytes)).to.deep.equal(bom);
      expect(codeOf(() => decodeProtocolParameters(concatBytes(bytes, new Uint8Array([0]))))).to.equal(
        'TRAILING_BYTES',
      );
    });
  });

  describe('single objects', () => {
    it('unknown input type', () => {
      expect(codeOf(() => decodeInput(new Uint8Array([2, ...fill(34, 0)])))).to.equal('UNKNOWN_TYPE');
    });
    it('messages name the subject, the problem and the offset', () => {
      const e = err(() => decodeOutput(new Uint8Array([9, 0, 0, 0, 0, 0, 0, 0, 0])));
      expect(e.message).to.equal('Cannot decode output: unknown output type 9 at offset 0');
      expect(e.value).to.equal('9');
    });
  });

  it('encoders refuse malformed models with RangeError (programming mistakes), never silently', () => {
    const b: Block = { ...taggedBlock(), parents: [fill(31, 1)] };
    expect(() => encodeBlock(b)).to.throw(RangeError);
    const t = transaction() as TransactionPayload;
    (t.essence.outputs[0] as { type: number }).type = 9;
    expect(() => encodePayload(t)).to.throw(RangeError);
  });
});
