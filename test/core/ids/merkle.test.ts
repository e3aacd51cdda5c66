import { expect } from 'chai';
import { fromHex, toHex } from '../../../src/core/bytes.ts';
import { blake2b256 } from '../../../src/core/crypto/index.ts';
import { merkleLeafHash, merkleNodeHash, merkleRoot } from '../../../src/core/ids/index.ts';
import { loadVectors } from '../../../harness/vectors.ts';

const merkle = loadVectors('stardust/merkle.json');

describe('ids/merkle (TIP-4)', () => {
  const seven = merkle.vectors.find((v: { name: string }) => v.name === 'tip4-seven-leaves');
  const items: Uint8Array[] = seven.items.map((h: string) => fromHex(h));
  const mid = seven.intermediate;

  it('reproduces every leaf hash (0x00 prefix)', () => {
    for (let i = 0; i < 7; i++) expect(toHex(merkleLeafHash(items[i]!)), `leaf${i}`).to.equal(mid[`leaf${i}`]);
    for (let i = 0; i < 7; i++) expect(toHex(merkleRoot([items[i]!])), `MTH of leaf ${i}`).to.equal(mid[`leaf${i}`]);
  });

  it('reproduces every intermediate node (0x01 prefix) from its children and as the root of its sub-range', () => {
    const leaf = (i: number) => fromHex(mid[`leaf${i}`]);
    expect(toHex(merkleNodeHash(leaf(0), leaf(1)))).to.equal(mid.node_0_1);
    expect(toHex(merkleNodeHash(leaf(2), leaf(3)))).to.equal(mid.node_2_3);
    expect(toHex(merkleNodeHash(fromHex(mid.node_0_1), fromHex(mid.node_2_3)))).to.equal(mid.node_0_3);
    expect(toHex(merkleNodeHash(leaf(4), leaf(5)))).to.equal(mid.node_4_5);
    expect(toHex(merkleNodeHash(fromHex(mid.node_4_5), leaf(6)))).to.equal(mid.node_4_6);
    expect(toHex(merkleNodeHash(fromHex(mid.node_0_3), fromHex(mid.node_4_6)))).to.equal(seven.root);

    expect(toHex(merkleRoot(items.slice(0, 2)))).to.equal(mid.node_0_1);
    expect(toHex(merkleRoot(items.slice(2, 4)))).to.equal(mid.node_2_3);
    expect(toHex(merkleRoot(items.slice(0, 4)))).to.equal(mid.node_0_3);
    expect(toHex(merkleRoot(items.slice(4, 6)))).to.equal(mid.node_4_5);
    expect(toHex(merkleRoot(items.slice(4, 7)))).to.equal(mid.node_4_6);
  });

  it('reproduces the 7-leaf root', () => {
    expect(toHex(merkleRoot(items))).to.equal(seven.root);
  });

  it('MTH([]) = BLAKE2b-256 of the empty string', () => {
    const empty = merkle.vectors.find((v: { name: string }) => v.name === 'empty-list');
    expect(toHex(merkleRoot([]))).to.equal(empty.root);
    expect(toHex(merkleRoot([]))).to.equal(toHex(blake2b256(new Uint8Array(0))));
  });

  it('splits at the largest power of two strictly below n (n = 2..9 against a direct definition)', () => {
    const direct = (d: Uint8Array[]): Uint8Array => {
      if (d.length === 1) return merkleLeafHash(d[0]!);
      const k = 2 ** Math.ceil(Math.log2(d.length) - 1);
      return merkleNodeHash(direct(d.slice(0, k)), direct(d.slice(k)));
    };
    const many = Array.from({ length: 9 }, (_, i) => blake2b256(new Uint8Array([i])));
    for (let n = 2; n <= 9; n++)
      expect(toHex(merkleRoot(many.slice(0, n))), `n=${n}`).to.equal(toHex(direct(many.slice(0, n))));
  });

  it('depends on order', () => {
    expect(toHex(merkleRoot([items[1]!, items[0]!]))).to.not.equal(mid.node_0_1);
  });
});
