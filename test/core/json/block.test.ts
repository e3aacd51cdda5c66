/**
 * Block JSON: required keys, the submission auto-fill triggers (docs/decisions.md §4) and the nonce forms
 * (docs/decisions.md §3).
 */
import { expect } from 'chai';
import { blockFromJson, blockToJson } from '../../../src/core/json/index.ts';
import { expectReject } from './helpers.ts';
import { tip24 } from './fixtures.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
const without = (key: string): any => Object.fromEntries(Object.entries(tip24).filter(([k]) => k !== key));

describe('core/json: block', () => {
  describe('submission (a block POSTed to a node that fills what is missing)', () => {
    it('parents missing, null or [] give parents: []', () => {
      expect(blockFromJson(without('parents'), { submission: true }).parents).to.deep.equal([]);
      expect(blockFromJson({ ...tip24, parents: null }, { submission: true }).parents).to.deep.equal([]);
      expect(blockFromJson({ ...tip24, parents: [] }, { submission: true }).parents).to.deep.equal([]);
    });
    it('client-given parents are kept', () => {
      expect(blockToJson(blockFromJson(tip24, { submission: true })).parents).to.deep.equal(tip24.parents);
    });
    it('nonce missing, null, "", "0" or 0 give nonce 0n', () => {
      expect(blockFromJson(without('nonce'), { submission: true }).nonce).to.equal(0n);
      for (const nonce of [null, '', '0', 0]) {
        expect(blockFromJson({ ...tip24, nonce }, { submission: true }).nonce, String(nonce)).to.equal(0n);
      }
    });
    it('a given nonce is kept; a non-zero number is still INVALID_JSON', () => {
      expect(blockFromJson(tip24, { submission: true }).nonce).to.equal(28110n);
      expectReject(() => blockFromJson({ ...tip24, nonce: 5 }, { submission: true }), 'INVALID_JSON', 'nonce');
      expectReject(() => blockFromJson({ ...tip24, nonce: 'abc' }, { submission: true }), 'INVALID_JSON', 'nonce');
    });
    it('protocolVersion is always required', () => {
      expectReject(
        () => blockFromJson(without('protocolVersion'), { submission: true }),
        'MISSING_FIELD',
        'protocolVersion',
      );
      expectReject(
        () => blockFromJson({ ...tip24, protocolVersion: null }, { submission: true }),
        'INVALID_JSON',
        'protocolVersion',
      );
    });
    it('parents of the wrong shape are still rejected', () => {
      expectReject(() => blockFromJson({ ...tip24, parents: 'none' }, { submission: true }), 'INVALID_JSON', 'parents');
      expectReject(
        () => blockFromJson({ ...tip24, parents: ['0x01'] }, { submission: true }),
        'LENGTH_OUT_OF_RANGE',
        'parents[0]',
      );
    });
  });

  describe('without submission both parents and nonce are required', () => {
    it('missing → MISSING_FIELD, null / "" / 0 → INVALID_JSON', () => {
      expectReject(() => blockFromJson(without('parents')), 'MISSING_FIELD', 'parents');
      expectReject(() => blockFromJson({ ...tip24, parents: null }), 'INVALID_JSON', 'parents');
      expectReject(() => blockFromJson(without('nonce')), 'MISSING_FIELD', 'nonce');
      expectReject(() => blockFromJson({ ...tip24, nonce: null }), 'INVALID_JSON', 'nonce');
      expectReject(() => blockFromJson({ ...tip24, nonce: '' }), 'INVALID_JSON', 'nonce');
      expectReject(() => blockFromJson({ ...tip24, nonce: 0 }), 'INVALID_JSON', 'nonce');
      expect(blockFromJson({ ...tip24, nonce: '0' }).nonce).to.equal(0n);
    });
  });

  describe('nonce: decimal or 0x hex string on input, decimal on output', () => {
    it('0x hex is read and emitted as decimal', () => {
      const b = blockFromJson({ ...tip24, nonce: '0x6dce' });
      expect(b.nonce).to.equal(28110n);
      expect(blockToJson(b).nonce).to.equal('28110');
      expect(blockFromJson({ ...tip24, nonce: '0xffffffffffffffff' }).nonce).to.equal(2n ** 64n - 1n);
      expect(blockFromJson({ ...tip24, nonce: '0x0000000000006dce' }).nonce).to.equal(28110n);
    });
    it('the largest u64 in both forms; above it → VALUE_OUT_OF_RANGE', () => {
      expect(blockToJson(blockFromJson({ ...tip24, nonce: '18446744073709551615' })).nonce).to.equal(
        '18446744073709551615',
      );
      expectReject(() => blockFromJson({ ...tip24, nonce: '18446744073709551616' }), 'VALUE_OUT_OF_RANGE', 'nonce');
      expectReject(() => blockFromJson({ ...tip24, nonce: '0x10000000000000000' }), 'VALUE_OUT_OF_RANGE', 'nonce');
    });
    it('"0x" alone or bad hex digits → INVALID_HEX', () => {
      expectReject(() => blockFromJson({ ...tip24, nonce: '0x' }), 'INVALID_HEX', 'nonce');
      expectReject(() => blockFromJson({ ...tip24, nonce: '0x12g4' }), 'INVALID_HEX', 'nonce');
    });
  });

  describe('payload', () => {
    it('payload: null and an absent payload both mean no payload; output omits the key', () => {
      const a = blockFromJson({ ...tip24, payload: null });
      const b = blockFromJson(without('payload'));
      expect(a).to.deep.equal(b);
      expect(a).to.not.have.property('payload');
      expect(Object.keys(blockToJson(a))).to.deep.equal(['protocolVersion', 'parents', 'nonce']);
    });
  });
});
