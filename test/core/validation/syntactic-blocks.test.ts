/** validateBlockSyntax on blocks: real Shimmer blocks pass; version, parents, size, payload kinds and nonce fail. */
import { expect } from 'chai';
import fc from 'fast-check';
import { loadVectors } from '../../../harness/vectors.ts';
import { anyBlock } from '../../support/arbitrary-model.ts';
import { fromHex } from '../../../src/core/bytes.ts';
import { decodeBlock } from '../../../src/core/codec/index.ts';
import type { Block } from '../../../src/core/model/index.ts';
import { fill, milestoneBlock, taggedBlock, txBlock } from '../codec/fixtures.ts';
import { rejects, validate } from './syntactic-support.ts';

describe('validation: syntactic rules of blocks', () => {
  describe('valid blocks', () => {
    it('all 112 real Shimmer cone blocks pass (Shimmer parameters, network ID 14364762045254553490)', () => {
      const file = loadVectors('stardust/shimmer_mainnet_milestones_17339_17341.json');
      let n = 0;
      for (const m of file.milestones) {
        for (const b of m.coneInWhiteFlagOrder) {
          validate(decodeBlock(fromHex(b.bytes)));
          n++;
        }
      }
      expect(n).to.equal(112);
    });

    it('the real Shimmer blocks of blocks.json pass', () => {
      const file = loadVectors('stardust/blocks.json');
      for (const v of file.vectors.filter((x: { name: string }) => x.name.startsWith('shimmer-mainnet')))
        validate(decodeBlock(fromHex(v.bytes)));
    });

    it('hand-built transaction (all four output kinds), milestone (both options) and tagged data blocks pass', () => {
      validate(txBlock());
      validate(milestoneBlock());
      validate(taggedBlock());
      validate({ protocolVersion: 2, parents: [fill(32, 1)], nonce: 0n });
    });

    it('random valid blocks pass (property)', () => {
      fc.assert(
        fc.property(anyBlock, (b) => validate(b)),
        { numRuns: 200 },
      );
    });
  });

  describe('block', () => {
    it('protocol version must be the node’s (the iota.js version-1 vectors fail)', () => {
      rejects({ ...taggedBlock(), protocolVersion: 1 }, 'PROTOCOL_VERSION_MISMATCH', 'protocolVersion');
      const v = loadVectors('stardust/blocks.json').vectors.find(
        (x: { name: string }) => x.name === 'iotajs-tagged-data-block',
      );
      rejects(decodeBlock(fromHex(v.bytes)), 'PROTOCOL_VERSION_MISMATCH');
      rejects({ ...taggedBlock(), protocolVersion: 3 }, 'PROTOCOL_VERSION_MISMATCH');
    });

    it('parents: 0, 9, unsorted, duplicate, wrong length', () => {
      rejects({ ...taggedBlock(), parents: [] }, 'COUNT_OUT_OF_RANGE', 'parents');
      rejects(
        { ...taggedBlock(), parents: Array.from({ length: 9 }, (_, i) => fill(32, i)) },
        'COUNT_OUT_OF_RANGE',
        'parents',
      );
      rejects({ ...taggedBlock(), parents: [fill(32, 2), fill(32, 1)] }, 'NOT_SORTED_UNIQUE', 'parents[1]');
      rejects({ ...taggedBlock(), parents: [fill(32, 2), fill(32, 2)] }, 'NOT_SORTED_UNIQUE', 'parents[1]');
      rejects({ ...taggedBlock(), parents: [fill(31, 2)] }, 'INVALID_FIELD', 'parents[0]');
    });

    it('serialized length > 32768 is BLOCK_TOO_LARGE; exactly 32768 passes', () => {
      validate(taggedBlock(new Uint8Array(0), new Uint8Array(32768 - 55)));
      rejects(taggedBlock(new Uint8Array(0), new Uint8Array(32768 - 54)), 'BLOCK_TOO_LARGE', 'block');
    });

    it('payload kinds: treasury transaction not allowed, unknown type', () => {
      const b = { ...taggedBlock(), payload: { type: 4 } } as unknown as Block;
      rejects(b, 'TYPE_NOT_ALLOWED', 'payload.type');
      rejects({ ...taggedBlock(), payload: { type: 1 } } as unknown as Block, 'UNKNOWN_TYPE', 'payload.type');
    });

    it('tagged data tag of 65 bytes', () => {
      validate(taggedBlock(fill(64, 1)));
      rejects(taggedBlock(fill(65, 1)), 'LENGTH_OUT_OF_RANGE', 'payload.tag');
    });

    it('nonce must be a u64', () => {
      rejects({ ...taggedBlock(), nonce: 1n << 64n }, 'VALUE_OUT_OF_RANGE', 'nonce');
    });
  });
});
