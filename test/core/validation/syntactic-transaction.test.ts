/** validateBlockSyntax on transactions: every rule family fails with its code and names the field. */
import { expect } from 'chai';
import {
  SHIMMER_PROTOCOL,
  type AliasOutput,
  type BasicOutput,
  type FoundryOutput,
  type NftOutput,
} from '../../../src/core/model/index.ts';
import { SHIMMER_NETWORK_ID, aliasAddr, basicOutput, clone, ed, fill, nftAddr, txBlock } from '../codec/fixtures.ts';
import { outs, rejects, tx, validate } from './syntactic-support.ts';

describe('validation: syntactic rules of blocks', () => {
  describe('transaction', () => {
    it('network ID', () => {
      const b = txBlock();
      tx(b).essence.networkId = 1n;
      const e = rejects(b, 'NETWORK_ID_MISMATCH', 'payload.essence.networkId');
      expect(e.message).to.equal(
        `Invalid block: network ID differs from this node's ${SHIMMER_NETWORK_ID} ` +
          'at payload.essence.networkId (value 1)',
      );
    });

    it('inputs: 0, 129, duplicate, index 128, treasury input', () => {
      const b = txBlock();
      tx(b).essence.inputs = [];
      rejects(b, 'COUNT_OUT_OF_RANGE', 'payload.essence.inputs');
      const c = txBlock();
      tx(c).essence.inputs = Array.from({ length: 129 }, (_, i) => ({
        type: 0 as const,
        transactionId: fill(32, 1),
        transactionOutputIndex: i % 128,
      }));
      rejects(c, 'COUNT_OUT_OF_RANGE', 'payload.essence.inputs');
      const d = txBlock();
      tx(d).essence.inputs[1]!.transactionOutputIndex = 0;
      rejects(d, 'DUPLICATE', 'payload.essence.inputs[1]');
      const e = txBlock();
      tx(e).essence.inputs[1]!.transactionOutputIndex = 128;
      rejects(e, 'VALUE_OUT_OF_RANGE', 'payload.essence.inputs[1].transactionOutputIndex');
      const f = txBlock();
      (tx(f).essence.inputs as unknown[])[0] = { type: 1, milestoneId: fill(32, 1) };
      rejects(f, 'TYPE_NOT_ALLOWED', 'payload.essence.inputs[0].type');
    });

    it('outputs: 0, 129, treasury output in an essence', () => {
      const b = txBlock();
      tx(b).essence.outputs = [];
      rejects(b, 'COUNT_OUT_OF_RANGE', 'payload.essence.outputs');
      const c = txBlock();
      tx(c).essence.outputs = Array.from({ length: 129 }, () => basicOutput());
      rejects(c, 'COUNT_OUT_OF_RANGE', 'payload.essence.outputs');
      const d = txBlock();
      (outs(d) as unknown[])[0] = { type: 2, amount: 1_000_000n };
      rejects(d, 'TYPE_NOT_ALLOWED', 'payload.essence.outputs[0].type');
    });

    it('amount zero, above supply, below the storage deposit; running sum above supply', () => {
      const b = txBlock();
      outs(b)[1]!.amount = 0n;
      rejects(b, 'VALUE_OUT_OF_RANGE', 'payload.essence.outputs[1].amount');
      const c = txBlock();
      outs(c)[0]!.amount = SHIMMER_PROTOCOL.tokenSupply + 1n;
      rejects(c, 'SUPPLY_EXCEEDED', 'payload.essence.outputs[0].amount');
      const d = txBlock();
      outs(d)[0]!.amount = 42_599n; // a basic output with one Ed25519 address UC needs 42 600
      rejects(d, 'INSUFFICIENT_STORAGE_DEPOSIT', 'payload.essence.outputs[0].amount');
      outs(d)[0]!.amount = 42_600n;
      validate(d);
      const e = txBlock();
      outs(e)[0]!.amount = SHIMMER_PROTOCOL.tokenSupply;
      rejects(e, 'SUPPLY_EXCEEDED', 'payload.essence.outputs[1].amount');
    });

    it('storage deposit return bounds', () => {
      const b = txBlock();
      const o = outs(b)[0] as BasicOutput;
      o.amount = 100_000n;
      o.unlockConditions.push({ type: 1, returnAddress: ed(9), amount: 42_600n });
      validate(b);
      (o.unlockConditions[1] as { amount: bigint }).amount = 42_599n;
      rejects(b, 'INSUFFICIENT_STORAGE_DEPOSIT', 'payload.essence.outputs[0].unlockConditions[1].amount');
      (o.unlockConditions[1] as { amount: bigint }).amount = 100_001n;
      rejects(b, 'VALUE_OUT_OF_RANGE', 'payload.essence.outputs[0].unlockConditions[1].amount');
    });

    it('timelock and expiration unix time 0', () => {
      const b = txBlock();
      (outs(b)[0] as BasicOutput).unlockConditions.push({ type: 2, unixTime: 0 });
      rejects(b, 'VALUE_OUT_OF_RANGE', 'payload.essence.outputs[0].unlockConditions[1].unixTime');
      const c = txBlock();
      (outs(c)[3] as NftOutput).unlockConditions.push({ type: 3, returnAddress: ed(1), unixTime: 0 });
      rejects(c, 'VALUE_OUT_OF_RANGE', 'payload.essence.outputs[3].unlockConditions[1].unixTime');
    });

    it('native tokens: amount 0, unsorted, more than 64 distinct IDs over the outputs', () => {
      const b = txBlock();
      outs(b)[0]!.nativeTokens = [{ id: fill(38, 1), amount: 0n }];
      rejects(b, 'VALUE_OUT_OF_RANGE', 'payload.essence.outputs[0].nativeTokens[0].amount');
      const c = txBlock();
      outs(c)[0]!.nativeTokens = [
        { id: fill(38, 2), amount: 1n },
        { id: fill(38, 1), amount: 1n },
      ];
      rejects(c, 'NOT_SORTED_UNIQUE', 'payload.essence.outputs[0].nativeTokens[1].id');
      const d = txBlock();
      const ids = (from: number) => Array.from({ length: 40 }, (_, i) => ({ id: fill(38, from + i), amount: 1n }));
      outs(d)[0]!.amount = 10_000_000n;
      outs(d)[1]!.amount = 10_000_000n;
      outs(d)[0]!.nativeTokens = ids(0);
      outs(d)[1]!.nativeTokens = ids(20); // 60 distinct: fine
      validate(d);
      outs(d)[1]!.nativeTokens = ids(30); // 70 distinct
      rejects(d, 'COUNT_OUT_OF_RANGE', 'payload.essence.outputs[1].nativeTokens');
    });

    it('chain IDs unique among outputs (alias, NFT, foundry); zero IDs may repeat', () => {
      const b = txBlock();
      outs(b).push(clone(outs(b)[1]!));
      rejects(b, 'DUPLICATE', 'payload.essence.outputs[4]');
      const c = txBlock();
      outs(c).push(clone(outs(c)[3]!));
      rejects(c, 'DUPLICATE', 'payload.essence.outputs[4]');
      const d = txBlock();
      outs(d).push(clone(outs(d)[2]!));
      rejects(d, 'DUPLICATE', 'payload.essence.outputs[4]');
      const e = txBlock();
      const n1 = outs(e)[3] as NftOutput;
      n1.nftId = fill(32, 0);
      outs(e).push(clone(n1));
      validate(e);
    });

    it('alias: zero ID needs state index 0 and foundry counter 0; controllers must not be itself', () => {
      const b = txBlock();
      const a = outs(b)[1] as AliasOutput;
      a.aliasId = fill(32, 0);
      rejects(b, 'INVALID_FIELD', 'payload.essence.outputs[1].stateIndex');
      a.stateIndex = 0;
      rejects(b, 'INVALID_FIELD', 'payload.essence.outputs[1].foundryCounter');
      a.foundryCounter = 0;
      validate(b);
      const c = txBlock();
      const a2 = outs(c)[1] as AliasOutput;
      a2.unlockConditions[1] = { type: 5, address: aliasAddr(0xa1) };
      rejects(c, 'INVALID_FIELD', 'payload.essence.outputs[1].unlockConditions[1].address');
      a2.unlockConditions[1] = { type: 5, address: ed(1) };
      a2.unlockConditions[0] = { type: 4, address: aliasAddr(0xa1) };
      rejects(c, 'INVALID_FIELD', 'payload.essence.outputs[1].unlockConditions[0].address');
    });

    it('NFT address unlock condition must not be the NFT itself', () => {
      const b = txBlock();
      (outs(b)[3] as NftOutput).unlockConditions[0] = { type: 0, address: nftAddr(0xb1) };
      rejects(b, 'INVALID_FIELD', 'payload.essence.outputs[3].unlockConditions[0].address');
    });

    it('simple token scheme invariants', () => {
      const set = (f: (s: FoundryOutput['tokenScheme']) => void) => {
        const b = txBlock();
        f((outs(b)[2] as FoundryOutput).tokenScheme);
        return b;
      };
      rejects(
        set((s) => (s.maximumSupply = 0n)),
        'INVALID_FIELD',
        'payload.essence.outputs[2].tokenScheme.maximumSupply',
      );
      rejects(
        set((s) => (s.meltedTokens = 101n)),
        'INVALID_FIELD',
        'payload.essence.outputs[2].tokenScheme.meltedTokens',
      );
      rejects(
        set((s) => {
          s.mintedTokens = 2000n;
          s.meltedTokens = 999n;
        }),
        'INVALID_FIELD',
        'payload.essence.outputs[2].tokenScheme.mintedTokens',
      );
      validate(
        set((s) => {
          s.mintedTokens = 2000n;
          s.meltedTokens = 1000n;
        }),
      );
    });

    it('output shape re-checked on a model: kinds, order, mandatory UC, lengths', () => {
      const b = txBlock();
      (outs(b)[0] as BasicOutput).unlockConditions = [{ type: 2, unixTime: 5 }];
      rejects(b, 'MISSING_FIELD', 'payload.essence.outputs[0].unlockConditions');
      const c = txBlock();
      (outs(c)[0] as BasicOutput).features = [{ type: 1, address: ed(1) }];
      rejects(c, 'TYPE_NOT_ALLOWED', 'payload.essence.outputs[0].features[0].type');
      const d = txBlock();
      (outs(d)[0] as BasicOutput).features = [
        { type: 3, tag: fill(1, 1) },
        { type: 2, data: fill(1, 1) },
      ];
      rejects(d, 'NOT_SORTED_UNIQUE', 'payload.essence.outputs[0].features[1].type');
      const e = txBlock();
      (outs(e)[0] as BasicOutput).features = [{ type: 2, data: fill(8193, 1) }];
      rejects(e, 'LENGTH_OUT_OF_RANGE', 'payload.essence.outputs[0].features[0].data');
      const f = txBlock();
      (outs(f)[2] as FoundryOutput).unlockConditions = [{ type: 6, address: ed(1) as never }];
      rejects(f, 'TYPE_NOT_ALLOWED', 'payload.essence.outputs[2].unlockConditions[0].address.type');
      const g = txBlock();
      (outs(g)[1] as AliasOutput).stateIndex = 2 ** 32;
      rejects(g, 'VALUE_OUT_OF_RANGE', 'payload.essence.outputs[1].stateIndex');
      const h = txBlock();
      (outs(h)[0] as BasicOutput).unlockConditions[0] = {
        type: 0,
        address: { type: 9, pubKeyHash: fill(32, 1) } as never,
      };
      rejects(h, 'UNKNOWN_TYPE', 'payload.essence.outputs[0].unlockConditions[0].address.type');
    });

    it('essence payload: only tagged data, tag <= 64', () => {
      const b = txBlock();
      tx(b).essence.payload!.tag = fill(65, 1);
      rejects(b, 'LENGTH_OUT_OF_RANGE', 'payload.essence.payload.tag');
      const c = txBlock();
      (tx(c).essence as { payload: unknown }).payload = { type: 6 };
      rejects(c, 'TYPE_NOT_ALLOWED', 'payload.essence.payload.type');
    });

    it('unlocks: count must equal inputs', () => {
      const b = txBlock();
      tx(b).unlocks.pop();
      rejects(b, 'COUNT_OUT_OF_RANGE', 'payload.unlocks');
    });

    it(
      'unlocks: references point backwards; reference unlocks to signature unlocks; ' +
        'no identical signature unlocks',
      () => {
        const b = txBlock();
        tx(b).unlocks[1] = { type: 1, reference: 1 };
        rejects(b, 'INVALID_UNLOCK', 'payload.unlocks[1].reference');
        const c = txBlock();
        tx(c).unlocks[0] = { type: 2, reference: 0 };
        rejects(c, 'INVALID_UNLOCK', 'payload.unlocks[0].reference');
        const d = txBlock();
        tx(d).unlocks[1] = clone(tx(d).unlocks[0]!);
        rejects(d, 'INVALID_UNLOCK', 'payload.unlocks[1]');
        // a different signature unlock is fine
        const e = txBlock();
        tx(e).unlocks[1] = { type: 0, signature: { type: 0, publicKey: fill(32, 0x43), signature: fill(64, 0x44) } };
        validate(e);
        // reference -> alias unlock is not allowed; alias/NFT unlock -> any earlier unlock is
        const f = txBlock();
        tx(f).essence.inputs.push({ type: 0, transactionId: fill(32, 0x22), transactionOutputIndex: 0 });
        tx(f).unlocks = [tx(f).unlocks[0]!, { type: 2, reference: 0 }, { type: 1, reference: 1 }];
        rejects(f, 'INVALID_UNLOCK', 'payload.unlocks[2].reference');
        tx(f).unlocks[2] = { type: 3, reference: 1 };
        validate(f);
        const g = txBlock();
        tx(g).unlocks[1] = { type: 7, reference: 0 } as never;
        rejects(g, 'UNKNOWN_TYPE', 'payload.unlocks[1].type');
      },
    );
  });
});
