/**
 * Blocks beyond the vectors: the JSON side's own rejections naming the path, encoding rejecting what decoding rejects,
 * the block signature assertion and the protocol parameters read from /info.
 */
import { expect } from 'chai';
import * as V3 from '../../../src/core/v3/index.ts';
import { blocks, h, hex, params, protocolError, type Any } from './helpers.ts';

describe('v3 JSON rejections name the path', () => {
  const hexBlock: string = blocks.vectors[0].bytes;
  const base = (): Any => JSON.parse(JSON.stringify(V3.blockToJsonV3(V3.decodeBlockV3(hex(hexBlock), params))));

  it('missing field', () => {
    const j = base();
    delete j.header.issuerId;
    const e = protocolError(() => V3.blockFromJsonV3(j));
    expect(e.code).to.equal('MISSING_FIELD');
    expect(e.field).to.equal('header.issuerId');
  });
  it('u64 as a number, u8 as a string', () => {
    const j = base();
    j.body.maxBurnedMana = 26;
    expect(protocolError(() => V3.blockFromJsonV3(j)).message).to.match(
      /body.maxBurnedMana: expected a decimal string, got number 26/,
    );
    const k = base();
    k.header.protocolVersion = '3';
    expect(protocolError(() => V3.blockFromJsonV3(k)).code).to.equal('INVALID_JSON');
  });
  it('bad hex and wrong length', () => {
    const j = base();
    j.header.issuerId = '0xzz';
    expect(protocolError(() => V3.blockFromJsonV3(j)).code).to.equal('INVALID_HEX');
    const k = base();
    k.header.slotCommitmentId = '0x00';
    expect(protocolError(() => V3.blockFromJsonV3(k)).code).to.equal('LENGTH_OUT_OF_RANGE');
  });
  it('unknown and disallowed types', () => {
    const j = base();
    j.body.payload.type = 9;
    const e = protocolError(() => V3.blockFromJsonV3(j));
    expect(e.code).to.equal('UNKNOWN_TYPE');
    expect(e.field).to.equal('body.payload');
  });
  it('unsorted parents', () => {
    const j = base();
    j.body.strongParents.reverse();
    const e = protocolError(() => V3.blockFromJsonV3(j));
    expect(e.code).to.equal('NOT_SORTED_UNIQUE');
    expect(e.field).to.equal('body.strongParents[1]');
  });
  it('invalid JSON text', () => {
    expect(protocolError(() => V3.blockFromJsonV3('{')).code).to.equal('INVALID_JSON');
  });
  it('empty optional lists may be written or omitted', () => {
    const j = base();
    j.body.weakParents = [];
    expect(h(V3.encodeBlockV3(V3.blockFromJsonV3(j)))).to.equal(hexBlock);
  });
});

describe('v3 encoding rejects what decoding rejects', () => {
  it('wrong ID length, negative amount, unsorted parents', () => {
    const block = V3.decodeBlockV3(hex(blocks.vectors[1].bytes), params);
    expect(
      protocolError(() => V3.encodeBlockV3({ ...block, header: { ...block.header, issuerId: new Uint8Array(31) } }))
        .code,
    ).to.equal('LENGTH_OUT_OF_RANGE');
    expect(
      protocolError(() => V3.encodeBlockV3({ ...block, header: { ...block.header, networkId: -1n } })).code,
    ).to.equal('VALUE_OUT_OF_RANGE');
    const body = block.body as V3.BasicBlockBodyV3;
    expect(
      protocolError(() =>
        V3.encodeBlockV3({ ...block, body: { ...body, strongParents: [...body.strongParents].reverse() } }),
      ).code,
    ).to.equal('NOT_SORTED_UNIQUE');
  });
});

describe('v3 block signature assertion', () => {
  it('throws INVALID_SIGNATURE naming the problem', () => {
    const bytes = hex(blocks.vectors[0].bytes);
    expect(protocolError(() => V3.assertBlockSignatureV3(bytes, [])).field).to.equal('signature.publicKey');
    const block = V3.decodeBlockV3(bytes, params);
    const keys: V3.BlockIssuerKeyV3[] = [{ type: 0, pubKeyHash: new Uint8Array(32) }];
    expect(V3.verifyBlockSignatureV3(block, keys)).to.equal(false);
  });
});

describe('v3 protocol parameters from /info', () => {
  it('picks the entry of the requested version', async () => {
    const { misc } = await import('./helpers.ts');
    const parameters = misc.protocolParameters[0].json;
    const info = {
      name: 'iota-core',
      protocolParameters: [
        { startEpoch: 0, parameters: { ...parameters, version: 2 } },
        { startEpoch: 7, parameters },
      ],
    };
    const p = V3.protocolParametersFromInfoV3(JSON.stringify(info), 3);
    expect(h(V3.protocolParametersHashV3(p))).to.equal(misc.protocolParameters[0].hash);
    expect(protocolError(() => V3.protocolParametersFromInfoV3(info, 4)).code).to.equal('MISSING_FIELD');
  });
});
