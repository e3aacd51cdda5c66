/** Property tests: decode(encode(x)) deep-equals x, encode(decode(b)) equals b, and mutated bytes never crash. */
import { expect } from 'chai';
import fc from 'fast-check';
import { anyBlock, output } from '../../support/arbitrary-model.ts';
import { isProtocolError } from '../../../src/core/errors.ts';
import { decodeBlock, decodeOutput, encodeBlock, encodeOutput } from '../../../src/core/codec/index.ts';

describe('codec: round trips (property)', () => {
  it('decode(encode(block)) = block and encode(decode(bytes)) = bytes for random valid blocks', () => {
    fc.assert(
      fc.property(anyBlock, (block) => {
        const bytes = encodeBlock(block);
        const back = decodeBlock(bytes);
        expect(back).to.deep.equal(block);
        expect(encodeBlock(back)).to.deep.equal(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('decode(encode(output)) = output for random valid outputs', () => {
    fc.assert(
      fc.property(output, (o) => {
        expect(decodeOutput(encodeOutput(o))).to.deep.equal(o);
      }),
      { numRuns: 300 },
    );
  });

  it('a flipped byte either decodes canonically (re-encodes to the same bytes) or throws a ProtocolError', () => {
    fc.assert(
      fc.property(anyBlock, fc.nat(), fc.integer({ min: 1, max: 255 }), (block, pos, x) => {
        const bytes = encodeBlock(block);
        const i = pos % bytes.length;
        const mutated = bytes.slice();
        mutated[i] = mutated[i]! ^ x;
        try {
          const b = decodeBlock(mutated);
          expect(encodeBlock(b)).to.deep.equal(mutated);
        } catch (e) {
          if (!isProtocolError(e)) throw e;
        }
      }),
      { numRuns: 1000 },
    );
  });
});
