/** Random valid models (fast-check): model → JSON text → model gives the same model and the same bytes. */
import { expect } from 'chai';
import fc from 'fast-check';
import { toHex } from '../../../src/core/bytes.ts';
import { encodeBlock, encodeOutput } from '../../../src/core/codec/index.ts';
import { blockFromJson, blockToJson, outputFromJson, outputToJson } from '../../../src/core/json/index.ts';
import { anyBlock, output } from '../../support/arbitrary-model.ts';

const viaText = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe('core/json: random models survive model → JSON → model', () => {
  it('blocks of every payload kind', () => {
    fc.assert(
      fc.property(anyBlock, (b) => {
        const json = viaText(blockToJson(b));
        const back = blockFromJson(json);
        expect(back).to.deep.equal(b);
        expect(toHex(encodeBlock(back))).to.equal(toHex(encodeBlock(b)));
        expect(blockToJson(back)).to.deep.equal(json);
      }),
      { numRuns: 300 },
    );
  });

  it('outputs of every kind', () => {
    fc.assert(
      fc.property(output, (o) => {
        const back = outputFromJson(viaText(outputToJson(o)));
        expect(back).to.deep.equal(o);
        expect(toHex(encodeOutput(back))).to.equal(toHex(encodeOutput(o)));
      }),
      { numRuns: 300 },
    );
  });
});
