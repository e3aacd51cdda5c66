/** Binary rejections: what must be sorted and unique (parents, context inputs, allotments, features, keys). */
import { expect } from 'chai';
import { concatBytes } from '../../../src/core/bytes.ts';
import * as V3 from '../../../src/core/v3/index.ts';
import { h, hex, outputs, type Any } from './helpers.ts';
import {
  addressUc,
  decodeBlock,
  expectCode,
  feature,
  rawBasic,
  spliced,
  taggedBlock,
  txPayload,
} from './negative-support.ts';

describe('v3 binary: ordering and uniqueness', () => {
  it('strong parents must be sorted and unique', () => {
    const swapped = concatBytes(
      taggedBlock.subarray(0, 91),
      taggedBlock.subarray(127, 163),
      taggedBlock.subarray(91, 127),
      taggedBlock.subarray(163),
    );
    expectCode(
      () => decodeBlock(swapped),
      'NOT_SORTED_UNIQUE',
      /strongParents must be sorted ascending, unique: element 1/,
    );
    const dup = concatBytes(taggedBlock.subarray(0, 127), taggedBlock.subarray(91, 127), taggedBlock.subarray(163));
    expectCode(() => decodeBlock(dup), 'NOT_SORTED_UNIQUE', /at offset 127/);
  });
  it('a weak parent may not also be a strong parent', () => {
    const b = spliced(taggedBlock, 307, 1, concatBytes(Uint8Array.of(1), taggedBlock.subarray(91, 127)));
    expectCode(() => decodeBlock(b), 'DUPLICATE', /weak parent 0 is also a strong/);
  });
  it('context inputs sorted by type and key', () => {
    const b = concatBytes(
      txPayload.subarray(0, 15),
      txPayload.subarray(52, 85),
      txPayload.subarray(15, 52),
      txPayload.subarray(85),
    );
    expectCode(
      () => V3.decodeSignedTransactionV3(b),
      'NOT_SORTED_UNIQUE',
      /contextInputs must be sorted by type and key/,
    );
  });
  it('allotments sorted by account ID, unique', () => {
    const b = concatBytes(
      txPayload.subarray(0, 170),
      txPayload.subarray(210, 250),
      txPayload.subarray(170, 210),
      txPayload.subarray(250),
    );
    expectCode(() => V3.decodeSignedTransactionV3(b), 'NOT_SORTED_UNIQUE', /allotments must be sorted by account ID/);
  });
  it('inputs must be unique', () => {
    const b = concatBytes(txPayload.subarray(0, 129), txPayload.subarray(90, 129), txPayload.subarray(168));
    expectCode(() => V3.decodeSignedTransactionV3(b), 'DUPLICATE', /input 1 spends the same output/);
  });
  it('features sorted by type, one per type', () => {
    const tag = feature({ type: 4, tag: Uint8Array.of(1) });
    const meta = feature({ type: 2, entries: { a: Uint8Array.of(1) } });
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc], [tag, meta])),
      'NOT_SORTED_UNIQUE',
      /features must be sorted by type/,
    );
    expectCode(() => V3.decodeOutputV3(rawBasic([addressUc], [tag, tag])), 'NOT_SORTED_UNIQUE');
    expect(V3.decodeOutputV3(rawBasic([addressUc], [meta, tag])).type).to.equal(0);
  });
  it('metadata entries sorted by serialized bytes: "b" before "aa" (docs/protocol.md §V12.2 D6)', () => {
    const entry = (k: string) => [k.length, ...Array.from(k, (c) => c.charCodeAt(0)), 1, 0, 0x2a];
    const meta = (...keys: string[]) => Uint8Array.from([2, keys.length, ...keys.flatMap(entry)]);
    const ok = V3.decodeOutputV3(rawBasic([addressUc], [meta('b', 'aa')]));
    expect(Object.keys((ok as Any).features[0].entries)).to.have.members(['b', 'aa']);
    expect(h(V3.encodeOutputV3(ok))).to.equal(h(rawBasic([addressUc], [meta('b', 'aa')])));
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc], [meta('aa', 'b')])),
      'NOT_SORTED_UNIQUE',
      /key "b" breaks the order/,
    );
    expectCode(() => V3.decodeOutputV3(rawBasic([addressUc], [meta('b', 'b')])), 'NOT_SORTED_UNIQUE');
    expectCode(
      () => V3.decodeOutputV3(rawBasic([addressUc], [Uint8Array.from([2, 1, 2, 0x61, 0x20, 0, 0])])),
      'INVALID_FIELD',
      /not printable ASCII/,
    );
  });
  it('block issuer keys sorted', () => {
    const v = outputs.vectors.find((x: Any) => x.name === 'tip42-account-output');
    const out = V3.decodeOutputV3(hex(v.bytes)) as V3.AccountOutputV3;
    const bif = out.features.find((f) => f.type === 6) as V3.BlockIssuerFeatureV3;
    const good = feature(bif);
    const bad = concatBytes(good.subarray(0, 6), good.subarray(6 + 33, 6 + 66), good.subarray(6, 6 + 33));
    const b = h(V3.encodeOutputV3(out)).replace(h(good).slice(2), h(bad).slice(2));
    expectCode(() => V3.decodeOutputV3(hex(b)), 'NOT_SORTED_UNIQUE', /blockIssuerKeys/);
  });
});
