import { expect } from 'chai';
import { MAX_MESSAGE_CHARS, QUOTED_BYTES, QUOTED_CHARS, quoteBytes, quoteText, safeText } from '../../src/core/text.ts';

/** What grpc-js does with a status's details (encodeURI throws on a lone surrogate). */
const carriedByGrpc = (text: string): boolean => {
  try {
    encodeURI(text);
    return true;
  } catch {
    return false;
  }
};

describe('core/text: error texts that quote client input', () => {
  it('replaces lone surrogates, keeps pairs, so grpc-js can encode the text', () => {
    const cut = 'x' + '\ud83d' + 'y' + '\ude00' + '😀';
    expect(carriedByGrpc(cut)).to.equal(false);
    const safe = safeText(cut);
    expect(safe).to.equal('x\ufffdy\ufffd😀');
    expect(carriedByGrpc(safe)).to.equal(true);
  });
  it('escapes control characters (C0, DEL, C1, line separators), keeps other text', () => {
    expect(safeText('a\u0000b\nc\u007fd\u0085e\u2028f é 中')).to.equal(
      'a\\u{0}b\\u{a}c\\u{7f}d\\u{85}e\\u{2028}f é 中',
    );
  });
  it('bounds the length and says how long the text was', () => {
    const long = 'a'.repeat(100_000);
    const safe = safeText(long);
    expect(safe.length).to.be.lessThan(MAX_MESSAGE_CHARS + 40);
    expect(safe.endsWith('… (100000 characters)')).to.equal(true);
    expect(safeText('short')).to.equal('short');
    expect(safe.length).to.be.at.most(MAX_MESSAGE_CHARS);
    for (const t of [long, 'a\u0000b', '\u0001'.repeat(5000), '😀'.repeat(3000), 'x'.repeat(MAX_MESSAGE_CHARS)]) {
      const once = safeText(t);
      expect(once.length, 'within the bound').to.be.at.most(MAX_MESSAGE_CHARS);
      expect(safeText(once), 'idempotent').to.equal(once);
      expect(() => encodeURI(once)).not.to.throw();
    }
  });
  it('quotes binary input as a hex prefix and its length', () => {
    expect(quoteBytes(new Uint8Array([1, 2]))).to.equal('0x0102');
    const q = quoteBytes(new Uint8Array(1 << 20).fill(0xab));
    expect(q).to.equal(`0x${'ab'.repeat(QUOTED_BYTES)}… (1048576 bytes)`);
  });
  it('quotes text input as a safe prefix in quotes and its length', () => {
    expect(quoteText('abc')).to.equal('"abc"');
    expect(quoteText('\ud83d')).to.equal('"\ufffd"');
    const q = quoteText('z'.repeat(20_000));
    expect(q).to.equal(`"${'z'.repeat(QUOTED_CHARS)}"… (20000 characters)`);
  });
});
