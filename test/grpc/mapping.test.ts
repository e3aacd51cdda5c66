import { expect } from 'chai';
import { ProtocolError } from '../../src/core/errors.ts';
import * as m from '../../src/core/model/index.ts';
import * as pb from '../../src/grpc/gen/stardust.ts';
import {
  blockFromProto,
  blockToProto,
  codecs,
  protocolParametersFromProto,
  protocolParametersToProto,
  protocolParamsOptionFromProto,
  protocolParamsOptionToProto,
  u256FromBytes,
  u256ToBytes,
} from '../../src/grpc/mapping.ts';
import * as fx from './fixtures.ts';

function rejects(fn: () => unknown, code: string, field?: string): ProtocolError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(ProtocolError);
    const pe = e as ProtocolError;
    expect(pe.code, pe.message).to.equal(code);
    if (field !== undefined) expect(pe.field).to.equal(field);
    expect(pe.message).to.match(/^Cannot convert /);
    return pe;
  }
  expect.fail(`expected a ProtocolError ${code}`);
}

/** Binary protobuf encoding of a block message and back. */
function viaWire(msg: pb.Block): pb.Block {
  return pb.Block.decode(pb.Block.encode(msg).finish());
}

describe('grpc mapping: model <-> proto', () => {
  describe('blocks round-trip (model -> proto -> model, deep equal)', () => {
    for (const [name, block] of Object.entries(fx.blocks)) {
      it(`${name}: in memory`, () => {
        expect(blockFromProto(blockToProto(block))).to.deep.equal(block);
      });
      it(`${name}: through the binary protobuf encoding`, () => {
        expect(blockFromProto(viaWire(blockToProto(block)))).to.deep.equal(block);
      });
      it(`${name}: proto -> model -> proto keeps every proto field`, () => {
        const msg = viaWire(blockToProto(block));
        expect(blockToProto(blockFromProto(msg))).to.deep.equal(msg);
      });
    }
  });

  it('a block without payload has no payload key in the model and no payload message in proto', () => {
    const msg = blockToProto(fx.blocks['no payload']!);
    expect(msg.payload).to.equal(undefined);
    const back = blockFromProto(viaWire(msg));
    expect(Object.keys(back)).to.have.members(['protocolVersion', 'parents', 'nonce']);
  });

  it('uses the oneof case names of the proto for every kind', () => {
    const tx = blockToProto(fx.blocks.transaction!);
    expect(tx.payload?.kind?.$case).to.equal('transaction');
    const essence = (tx.payload!.kind as { value: pb.TransactionPayload }).value.essence!;
    expect(essence.outputs.map((o) => o.kind?.$case)).to.deep.equal(['basic', 'alias', 'foundry', 'nft']);
    const ucs = (essence.outputs[0]!.kind as { value: pb.BasicOutput }).value.unlockConditions.map(
      (u) => u.kind?.$case,
    );
    expect(ucs).to.deep.equal(['address', 'storageDepositReturn', 'timelock', 'expiration']);
    const ms = blockToProto(fx.blocks.milestone!).payload!.kind as { $case: string; value: pb.MilestonePayload };
    expect(ms.$case).to.equal('milestone');
    expect(ms.value.options.map((o) => o.kind?.$case)).to.deep.equal(['receipt', 'protocolParams']);
  });

  describe('every object kind on its own', () => {
    const cases: [
      string,
      { toProto(v: never, p: string): unknown; fromProto(v: never, p: string): unknown },
      object[],
    ][] = [
      ['address', codecs.address, [fx.ed25519, fx.alias, fx.nft]],
      ['unlock condition', codecs.unlockCondition, fx.allUnlockConditions],
      ['feature', codecs.feature, fx.allFeatures],
      ['native token', codecs.nativeToken, fx.nativeTokens],
      ['token scheme', codecs.tokenScheme, [fx.foundry.tokenScheme]],
      ['output', codecs.output, [fx.basic, fx.aliasOutput, fx.foundry, fx.nftOutput]],
      ['treasury output', codecs.treasuryOutput, [fx.treasuryTransaction.output]],
      ['utxo input', codecs.utxoInput, fx.transaction.essence.inputs],
      ['treasury input', codecs.treasuryInput, [fx.treasuryTransaction.input]],
      ['signature', codecs.signature, [fx.signature]],
      ['unlock', codecs.unlock, fx.transaction.unlocks],
      ['payload', codecs.blockPayload, [fx.taggedData, fx.emptyTaggedData, fx.transaction, fx.milestone]],
      ['treasury transaction', codecs.treasuryTransactionPayload, [fx.treasuryTransaction]],
      ['milestone option', codecs.milestoneOption, fx.milestone.options],
      ['protocol parameters', codecs.protocolParameters, [m.SHIMMER_PROTOCOL]],
    ];
    for (const [name, codec, values] of cases) {
      it(`${name}: ${values.length} value(s) round-trip`, () => {
        for (const v of values) expect(codec.fromProto(codec.toProto(v as never, 'x') as never, 'x')).to.deep.equal(v);
      });
    }
  });

  describe('u64 and u256', () => {
    it('carries u64 max over the wire as uint64 (amount, nonce, networkId, deposit, SDR amount, token supply)', () => {
      const back = blockFromProto(viaWire(blockToProto(fx.blocks.transaction!)));
      const tx = back.payload as m.TransactionPayload;
      expect(tx.essence.networkId).to.equal(fx.U64_MAX);
      expect((tx.essence.outputs[0] as m.BasicOutput).amount).to.equal(fx.U64_MAX);
      expect(
        ((tx.essence.outputs[0] as m.BasicOutput).unlockConditions[1] as m.StorageDepositReturnUnlockCondition).amount,
      ).to.equal(fx.U64_MAX);
      expect(blockFromProto(viaWire(blockToProto(fx.blocks['no payload']!))).nonce).to.equal(fx.U64_MAX);
      const params = { ...m.SHIMMER_PROTOCOL, tokenSupply: fx.U64_MAX };
      expect(
        protocolParametersFromProto(
          pb.ProtocolParameters.decode(pb.ProtocolParameters.encode(protocolParametersToProto(params)).finish()),
        ),
      ).to.deep.equal(params);
    });

    it('represents u256 as exactly 32 bytes, big-endian', () => {
      expect(Array.from(u256ToBytes(1n))).to.deep.equal([...new Array(31).fill(0), 1]);
      expect(Array.from(u256ToBytes(0x0102n))).to.deep.equal([...new Array(30).fill(0), 1, 2]);
      expect(Array.from(u256ToBytes(0n))).to.deep.equal(new Array(32).fill(0));
      expect(Array.from(u256ToBytes(fx.U256_MAX))).to.deep.equal(new Array(32).fill(0xff));
      expect(Array.from(u256ToBytes(1n << 255n))).to.deep.equal([0x80, ...new Array(31).fill(0)]);
      expect(u256FromBytes(u256ToBytes(fx.nativeTokens[2]!.amount))).to.equal(fx.nativeTokens[2]!.amount);
      const msg = codecs.nativeToken.toProto(fx.nativeTokens[2]!, 'token');
      expect(Array.from(msg.amount)).to.deep.equal(Array.from({ length: 32 }, (_, i) => i));
    });

    it('rejects u256 outside 0..2^256-1 and byte strings that are not 32 bytes', () => {
      rejects(() => u256ToBytes(1n << 256n, 'amount'), 'VALUE_OUT_OF_RANGE', 'amount');
      rejects(() => u256ToBytes(-1n, 'amount'), 'VALUE_OUT_OF_RANGE', 'amount');
      rejects(() => u256FromBytes(new Uint8Array(33), 'amount'), 'LENGTH_OUT_OF_RANGE', 'amount');
      rejects(() => u256FromBytes(new Uint8Array(31), 'amount'), 'LENGTH_OUT_OF_RANGE', 'amount');
      // an unset u256 field decodes as empty bytes: rejected, never read as 0
      rejects(
        () => codecs.nativeToken.fromProto({ id: fx.bytesOf(38, 1), amount: new Uint8Array(0) }, 't'),
        'LENGTH_OUT_OF_RANGE',
        't.amount',
      );
    });

    it('rejects u64 outside 0..2^64-1', () => {
      rejects(
        () => blockToProto({ ...fx.blocks['no payload']!, nonce: 1n << 64n }),
        'VALUE_OUT_OF_RANGE',
        'block.nonce',
      );
      rejects(
        () => blockFromProto({ ...blockToProto(fx.blocks['no payload']!), nonce: -1n }),
        'VALUE_OUT_OF_RANGE',
        'block.nonce',
      );
    });
  });

  it('maps protocol parameters and a pending Protocol Parameters option both ways', () => {
    const msg = protocolParametersToProto(m.SHIMMER_PROTOCOL);
    expect(msg).to.deep.equal({
      version: 2,
      networkName: 'shimmer',
      bech32Hrp: 'smr',
      minPowScore: 1500,
      belowMaxDepth: 15,
      rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
      tokenSupply: 1813620509061365n,
    });
    expect(protocolParametersFromProto(msg)).to.deep.equal(m.SHIMMER_PROTOCOL);
    const opt = protocolParamsOptionToProto(fx.protocolParamsOption);
    const wire = pb.ProtocolParamsMilestoneOption.decode(pb.ProtocolParamsMilestoneOption.encode(opt).finish());
    expect(protocolParamsOptionFromProto(wire)).to.deep.equal(fx.protocolParamsOption);
  });

  describe('rejections name the field path and the value', () => {
    const good = () => blockToProto(fx.blocks.transaction!);
    const essenceOf = (msg: pb.Block) => (msg.payload!.kind as { value: pb.TransactionPayload }).value.essence!;

    it('integer wider than the protocol field (u8 protocol version, u16 unlock reference, u8 rent factor)', () => {
      const e = rejects(
        () => blockFromProto({ ...good(), protocolVersion: 256 }),
        'VALUE_OUT_OF_RANGE',
        'block.protocolVersion',
      );
      expect(e.value).to.equal('256');
      expect(e.message).to.equal('Cannot convert block.protocolVersion: expected an integer 0..255 (u8), got 256');
      const msg = good();
      (msg.payload!.kind as { value: pb.TransactionPayload }).value.unlocks[1] = {
        kind: { $case: 'reference', value: { reference: 65536 } },
      };
      rejects(() => blockFromProto(msg), 'VALUE_OUT_OF_RANGE', 'block.payload.unlocks[1].reference');
      const params = protocolParametersToProto(m.SHIMMER_PROTOCOL);
      params.rentStructure!.vByteFactorKey = 300;
      rejects(() => protocolParametersFromProto(params), 'VALUE_OUT_OF_RANGE', 'protocol.rentStructure.vByteFactorKey');
    });

    it('identifier of the wrong length', () => {
      const msg = good();
      msg.parents[1] = new Uint8Array(31);
      const e = rejects(() => blockFromProto(msg), 'LENGTH_OUT_OF_RANGE', 'block.parents[1]');
      expect(e.message).to.equal('Cannot convert block.parents[1]: expected 32 bytes, got 31');
      const msg2 = good();
      essenceOf(msg2).inputs[0]!.transactionId = new Uint8Array(0);
      rejects(() => blockFromProto(msg2), 'LENGTH_OUT_OF_RANGE', 'block.payload.essence.inputs[0].transactionId');
    });

    it('a oneof with no case set, and a required message that is absent', () => {
      const msg = good();
      essenceOf(msg).outputs[2] = { kind: undefined };
      const e = rejects(() => blockFromProto(msg), 'MISSING_FIELD', 'block.payload.essence.outputs[2]');
      expect(e.message).to.contain('one of basic, alias, foundry, nft');
      const msg2 = good();
      (msg2.payload!.kind as { value: pb.TransactionPayload }).value.essence = undefined;
      rejects(() => blockFromProto(msg2), 'MISSING_FIELD', 'block.payload.essence');
      // the same after a trip over the wire (an absent message decodes as undefined)
      rejects(() => blockFromProto(viaWire(msg2)), 'MISSING_FIELD', 'block.payload.essence');
    });

    it('a kind the place does not allow (model side)', () => {
      const treasuryInEssence = structuredClone(fx.transaction) as unknown as { essence: { outputs: unknown[] } };
      treasuryInEssence.essence.outputs[0] = fx.treasuryTransaction.output;
      const e = rejects(
        () =>
          blockToProto({ ...fx.blocks.transaction!, payload: treasuryInEssence as unknown as m.TransactionPayload }),
        'TYPE_NOT_ALLOWED',
        'block.payload.essence.outputs[0]',
      );
      expect(e.message).to.contain('output type 2 is not allowed here (one of 3, 4, 5, 6)');
      rejects(
        () =>
          blockToProto({ ...fx.blocks['no payload']!, payload: fx.treasuryTransaction as unknown as m.BlockPayload }),
        'TYPE_NOT_ALLOWED',
        'block.payload',
      );
      const immutable = { type: m.UC_IMMUTABLE_ALIAS, address: fx.ed25519 } as unknown as m.UnlockCondition;
      rejects(() => codecs.unlockCondition.toProto(immutable, 'uc'), 'TYPE_NOT_ALLOWED', 'uc.address');
    });

    it('a oneof case the place does not allow (proto side, e.g. from a hand-made message)', () => {
      const msg = { kind: { $case: 'receipt', value: {} } } as unknown as pb.Output;
      rejects(() => codecs.output.fromProto(msg, 'out'), 'TYPE_NOT_ALLOWED', 'out');
    });
  });
});
