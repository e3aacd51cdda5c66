/**
 * Index entries of one output and the key codecs: one type entry, one address entry per distinct unlock address with
 * its roles, chain entries under explicit or implicit alias / NFT IDs and under the foundry ID; strict decoding.
 */
import { expect } from 'chai';
import { toHex } from '../../../../src/core/bytes.ts';
import { encodeAddress } from '../../../../src/core/codec/index.ts';
import { aliasIdFromOutputId, foundryId, nftIdFromOutputId } from '../../../../src/core/ids/index.ts';
import {
  addressEntryValue,
  FLAG,
  indexEntriesOf,
  INDEXER_TABLES,
  positionCreatedAt,
  positionOf,
  positionOutputId,
  ROLE,
} from '../../../../src/core/ledger/index.ts';
import { tableKey } from '../../../../src/core/store/index.ts';
import { alias, aliasAddress, basic, booked, bytes32, ed, foundry, nft } from './support.ts';

const A = ed('A');
const B = ed('B');

describe('indexer: entries and keys', () => {
  it('a position is createdAt (u32 big-endian) then the output ID, so keys sort by time first', () => {
    const o = booked('pos', 0x01020304, basic({ address: A }));
    const p = positionOf(0x01020304, o.outputId);
    expect(toHex(p.subarray(0, 4))).to.equal('01020304');
    expect(positionCreatedAt(p)).to.equal(0x01020304);
    expect(positionOutputId(p)).to.deep.equal(o.outputId);
    expect(toHex(positionOf(255, o.outputId)) < toHex(positionOf(256, new Uint8Array(34)))).to.equal(true);
    expect(() => positionOf(-1, o.outputId)).to.throw(RangeError);
    expect(() => positionOf(1, new Uint8Array(33))).to.throw(RangeError);
  });

  it('a basic output: the type entry and one address entry per distinct address, roles merged', () => {
    const o = booked(
      'basic',
      7,
      basic({ address: A, sdruc: B, timelock: 5, expiration: { address: A, time: 9 } }, { sender: B, tag: 'x' }),
    );
    const e = indexEntriesOf(o);
    const position = positionOf(7, o.outputId);
    // The output has a storage deposit return, an expiration and a timelock (no native tokens), whoever asks.
    const hasAll = FLAG.storageDepositReturn | FLAG.expiration | FLAG.timelock;
    expect(e.byType).to.deep.equal({ outputType: 3, position });
    expect(e.byAddress).to.deep.equal([
      [
        { address: encodeAddress(A), outputType: 3, position },
        addressEntryValue(ROLE.address | ROLE.expirationReturn, hasAll),
      ],
      [{ address: encodeAddress(B), outputType: 3, position }, addressEntryValue(ROLE.storageDepositReturn, hasAll)],
    ]);
    expect(e.byChainId).to.equal(undefined);
    expect(toHex(tableKey(INDEXER_TABLES.byAddress, e.byAddress[0]![0]))).to.equal(
      `31${toHex(encodeAddress(A))}03${toHex(position)}`,
    );
  });

  it(
    'aliases and NFTs under their ID, the implicit one from the creating output ID; ' +
      'foundries under their foundry ID',
    () => {
      const implicitAlias = booked('alias 0', 1, alias(A, B));
      expect(indexEntriesOf(implicitAlias).byChainId).to.deep.equal([
        { outputType: 4, chainId: aliasIdFromOutputId(implicitAlias.outputId) },
        implicitAlias.outputId,
      ]);
      const xId = bytes32('x');
      const explicitAlias = booked('alias x', 1, alias(A, A, {}, xId));
      expect(indexEntriesOf(explicitAlias).byChainId![0].chainId).to.deep.equal(xId);
      expect(indexEntriesOf(explicitAlias).byAddress).to.deep.equal([
        [
          { address: encodeAddress(A), outputType: 4, position: positionOf(1, explicitAlias.outputId) },
          ROLE.stateController | ROLE.governor,
        ],
      ]);
      const implicitNft = booked('nft 0', 1, nft({ address: B }));
      expect(indexEntriesOf(implicitNft).byChainId![0]).to.deep.equal({
        outputType: 6,
        chainId: nftIdFromOutputId(implicitNft.outputId),
      });
      const f = booked('foundry', 1, foundry(xId, 3));
      expect(indexEntriesOf(f).byChainId![0]).to.deep.equal({ outputType: 5, chainId: foundryId(xId, 3, 0) });
      expect(indexEntriesOf(f).byAddress).to.deep.equal([
        [
          { address: encodeAddress(aliasAddress(xId)), outputType: 5, position: positionOf(1, f.outputId) },
          ROLE.immutableAlias,
        ],
      ]);
    },
  );

  it('key and value codecs round-trip and reject what no entry can be', () => {
    const o = booked('codec', 3, nft({ address: A }));
    const e = indexEntriesOf(o);
    for (const [table, key] of [
      [INDEXER_TABLES.byType, e.byType],
      [INDEXER_TABLES.byAddress, e.byAddress[0]![0]],
      [INDEXER_TABLES.byChainId, e.byChainId![0]],
    ] as const) {
      const t = table as unknown as {
        key: { encode(k: unknown): Uint8Array; decode(b: Uint8Array, s: string): unknown };
      };
      expect(t.key.decode(t.key.encode(key), 'k')).to.deep.equal(key);
    }
    expect(() =>
      INDEXER_TABLES.byType.key.encode({ outputType: 2 as 3, position: positionOf(1, o.outputId) }),
    ).to.throw(RangeError, /output type/);
    expect(() => INDEXER_TABLES.byType.key.decode(Uint8Array.of(7, ...positionOf(1, o.outputId)), 'k')).to.throw(
      /output type 7 is not indexed/,
    );
    expect(() => INDEXER_TABLES.byChainId.key.decode(Uint8Array.of(5, ...new Uint8Array(32)), 'k')).to.throw(
      /need 38 bytes/,
    );
    expect(() => INDEXER_TABLES.byChainId.key.decode(Uint8Array.of(3, ...new Uint8Array(32)), 'k')).to.throw(
      /has no chain ID/,
    );
    expect(() => INDEXER_TABLES.byAddress.value.encode(0)).to.throw(RangeError);
    expect(() => INDEXER_TABLES.byAddress.value.decode(Uint8Array.of(0x40, 0), 'v')).to.throw(/roles 64/);
    expect(() => INDEXER_TABLES.byAddress.value.decode(Uint8Array.of(0x01, 0x10), 'v')).to.throw(/flags 16/);
    expect(() => INDEXER_TABLES.byAddress.value.decode(Uint8Array.of(0x01), 'v')).to.throw();
    expect(
      INDEXER_TABLES.byAddress.value.decode(INDEXER_TABLES.byAddress.value.encode(addressEntryValue(0x21, 0x0b)), 'v'),
    ).to.equal(addressEntryValue(0x21, 0x0b));
    expect(() => INDEXER_TABLES.byChainId.value.decode(new Uint8Array(35), 'v')).to.throw(/trailing|TRAILING|left/i);
  });
});
