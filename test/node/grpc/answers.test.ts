import { expect } from 'chai';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import {
  blockResponse,
  blockV3Response,
  RenderedJson,
  requireId,
  V2_ID_LENGTH,
  V3_ID_LENGTH,
} from '../../../src/node/grpc/answers.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import * as fx from '../../grpc/fixtures.ts';

function nodeError(fn: () => unknown): NodeError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(NodeError);
    return e as NodeError;
  }
  expect.fail('expected a NodeError');
}

describe('grpc answers: IDs and block views', () => {
  const id = fx.bytesOf(32, 1);
  const calls: string[] = [];
  const sources = {
    block: () => {
      calls.push('block');
      return fx.blocks['tagged data']!;
    },
    raw: () => {
      calls.push('raw');
      return Uint8Array.of(1, 2);
    },
    json: () => {
      calls.push('json');
      return '{}';
    },
  };
  beforeEach(() => (calls.length = 0));

  it('checks identifier lengths (v2 32 bytes, v3 36 bytes)', () => {
    expect(requireId(id, V2_ID_LENGTH, 'block ID')).to.equal(id);
    expect(requireId(fx.bytesOf(36, 1), V3_ID_LENGTH, 'transaction ID')).to.have.length(36);
    const e = nodeError(() => requireId(fx.bytesOf(36, 1), V2_ID_LENGTH, 'block ID'));
    expect(e.code).to.equal('INVALID_REQUEST');
    expect(e.message).to.match(/^invalid block ID: 0x0102.*, expected 32 bytes, got 36$/);
    expect(nodeError(() => requireId(new Uint8Array(0), V3_ID_LENGTH, 'transaction ID')).message).to.equal(
      'invalid transaction ID: 0x, expected 36 bytes, got 0',
    );
  });

  it('UNSPECIFIED gives all three parts', () => {
    const r = blockResponse(id, BlockView.BLOCK_VIEW_UNSPECIFIED, sources);
    expect(r.block?.parents).to.have.length(3);
    expect(Array.from(r.raw)).to.deep.equal([1, 2]);
    expect(r.json).to.equal('{}');
    expect(calls.sort()).to.deep.equal(['block', 'json', 'raw']);
  });

  it('a single view produces only its part (the others are never computed)', () => {
    const raw = blockResponse(id, BlockView.BLOCK_VIEW_RAW, sources);
    expect(raw.block).to.equal(undefined);
    expect(raw.json).to.equal('');
    expect(calls).to.deep.equal(['raw']);
    calls.length = 0;
    expect(blockResponse(id, BlockView.BLOCK_VIEW_STRUCTURED, sources).raw).to.have.length(0);
    expect(calls).to.deep.equal(['block']);
  });

  it('rejects a view the enum does not know', () => {
    expect(nodeError(() => blockResponse(id, 7 as BlockView, sources)).code).to.equal('INVALID_REQUEST');
    expect(calls).to.deep.equal([]);
  });

  it('v3 answers carry bytes and JSON only; STRUCTURED is refused', () => {
    const v3id = fx.bytesOf(36, 2);
    expect(blockV3Response(v3id, BlockView.BLOCK_VIEW_UNSPECIFIED, sources)).to.deep.equal({
      blockId: v3id,
      raw: Uint8Array.of(1, 2),
      json: '{}',
    });
    expect(nodeError(() => blockV3Response(v3id, BlockView.BLOCK_VIEW_STRUCTURED, sources)).message).to.contain(
      'not offered for v3',
    );
  });
});

describe('grpc answers: rendered block JSON kept by block ID', () => {
  it('renders a block once, keeps at most maxChars characters (oldest out first), never a text over it', () => {
    const kept = new RenderedJson(10);
    let renders = 0;
    const render = (text: string) => () => {
      renders++;
      return text;
    };
    const a = fx.bytesOf(32, 1);
    expect(kept.of(a, render('aaaa'))).to.equal('aaaa');
    expect(kept.of(fx.bytesOf(32, 1), render('other'))).to.equal('aaaa'); // same ID, another array: no render
    expect(renders).to.equal(1);
    kept.of(fx.bytesOf(32, 2), render('bbbb'));
    kept.of(fx.bytesOf(32, 3), render('cccc')); // 12 characters: the oldest (a) goes
    expect(kept.size).to.equal(2);
    expect(kept.of(a, render('aaaa'))).to.equal('aaaa'); // rendered again; now b goes
    expect(renders).to.equal(4);
    expect(kept.of(fx.bytesOf(32, 4), render('x'.repeat(11)))).to.have.length(11);
    expect(kept.size).to.equal(2); // too large to keep; what was kept stays
    // a view of a larger buffer is keyed by its own bytes only
    const big = new Uint8Array(40);
    big.set(fx.bytesOf(32, 3), 8);
    expect(kept.of(big.subarray(8), render('never'))).to.equal('cccc');
  });
});
