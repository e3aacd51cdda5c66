import { expect } from 'chai';
import { BlockMetadata, InfoResponse, LedgerInclusionState } from '../../src/grpc/gen/node.ts';
import { SHIMMER_PROTOCOL } from '../../src/core/model/index.ts';
import { protocolParametersToProto, protocolParamsOptionToProto } from '../../src/grpc/mapping.ts';
import { hex0x } from '../../gateway/ids.ts';
import { blockMetadataToJson, infoToJson, submitBlockToJson, tipsToJson } from '../../gateway/render.ts';
import * as fx from '../grpc/fixtures.ts';
import { SHIMMER_BASE_TOKEN } from './support.ts';

const wire = <T>(fns: { encode(m: T): { finish(): Uint8Array }; decode(b: Uint8Array): T }, msg: T): T =>
  fns.decode(fns.encode(msg).finish());

describe('grpc rest-json: TIP-25 bodies from gRPC messages', () => {
  it('renders block metadata of a referenced transaction block, optionals present', () => {
    const md = wire(BlockMetadata, {
      blockId: fx.bytesOf(32, 1),
      parents: [fx.bytesOf(32, 2)],
      isSolid: true,
      referencedByMilestoneIndex: 17,
      ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_CONFLICTING,
      conflictReason: 1,
      whiteFlagIndex: 0,
    });
    const json = blockMetadataToJson(md);
    expect(json).to.deep.equal({
      blockId: hex0x(fx.bytesOf(32, 1)),
      parents: [hex0x(fx.bytesOf(32, 2))],
      isSolid: true,
      referencedByMilestoneIndex: 17,
      ledgerInclusionState: 'conflicting',
      conflictReason: 1,
      whiteFlagIndex: 0,
    });
    expect(Object.keys(json)).to.deep.equal([
      'blockId',
      'parents',
      'isSolid',
      'referencedByMilestoneIndex',
      'ledgerInclusionState',
      'conflictReason',
      'whiteFlagIndex',
    ]);
  });

  it('renders an unreferenced solid block: no inclusion state, promote/reattach advice (false is kept)', () => {
    const md = wire(BlockMetadata, {
      blockId: fx.bytesOf(32, 1),
      parents: [],
      isSolid: true,
      ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_UNSPECIFIED,
      shouldPromote: false,
      shouldReattach: false,
    });
    expect(blockMetadataToJson(md)).to.deep.equal({
      blockId: hex0x(fx.bytesOf(32, 1)),
      parents: [],
      isSolid: true,
      shouldPromote: false,
      shouldReattach: false,
    });
    const ms = wire(BlockMetadata, {
      ...md,
      milestoneIndex: 9,
      referencedByMilestoneIndex: 9,
      ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_NO_TRANSACTION,
      shouldPromote: undefined,
      shouldReattach: undefined,
    });
    expect(blockMetadataToJson(ms)).to.include({ milestoneIndex: 9, ledgerInclusionState: 'noTransaction' });
  });

  it('renders every InfoResponse field', () => {
    const info = wire(InfoResponse, {
      name: 'ledger-node',
      version: '0.1.0',
      status: {
        isHealthy: true,
        latestMilestone: { index: 100, timestamp: 1_700_000_000, milestoneId: fx.bytesOf(32, 3) },
        confirmedMilestone: { index: 99 },
        pruningIndex: 5,
        healthReasons: [],
      },
      supportedProtocolVersions: [2],
      protocol: protocolParametersToProto({ ...SHIMMER_PROTOCOL, tokenSupply: fx.U64_MAX }),
      pendingProtocolParameters: [protocolParamsOptionToProto(fx.protocolParamsOption)],
      baseToken: { ...SHIMMER_BASE_TOKEN },
      metrics: { blocksPerSecond: 1.5, referencedBlocksPerSecond: 1.25, referencedRate: 83.3 },
      features: ['pow'],
      identity: { publicKey: fx.bytesOf(32, 7), nodeId: fx.bytesOf(16, 8) },
      storage: {
        databaseSizeBytes: 12_345_678n,
        diskFreeBytes: fx.U64_MAX,
        diskSizeBytes: fx.U64_MAX,
        growthBytesPerHour: -5n,
        pruningIndexTimestamp: 1_699_999_000,
      },
    });
    expect(infoToJson(info)).to.deep.equal({
      name: 'ledger-node',
      version: '0.1.0',
      status: {
        isHealthy: true,
        latestMilestone: { index: 100, timestamp: 1_700_000_000, milestoneId: hex0x(fx.bytesOf(32, 3)) },
        confirmedMilestone: { index: 99 },
        pruningIndex: 5,
      },
      supportedProtocolVersions: [2],
      protocol: {
        version: 2,
        networkName: 'shimmer',
        bech32Hrp: 'smr',
        minPowScore: 1500,
        belowMaxDepth: 15,
        rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
        tokenSupply: '18446744073709551615',
      },
      pendingProtocolParameters: [
        {
          type: 1,
          targetMilestoneIndex: 0xffffffff,
          protocolVersion: 255,
          params: hex0x(fx.protocolParamsOption.params),
        },
      ],
      baseToken: { ...SHIMMER_BASE_TOKEN },
      metrics: { blocksPerSecond: 1.5, referencedBlocksPerSecond: 1.25, referencedRate: 83.3 },
      features: ['pow'],
      identity: { publicKey: hex0x(fx.bytesOf(32, 7)), nodeId: Buffer.from(fx.bytesOf(16, 8)).toString('hex') },
      // u64 sizes as decimal strings; a shrinking store has a negative growth and no time left
      storage: {
        databaseSizeBytes: '12345678',
        diskFreeBytes: '18446744073709551615',
        diskSizeBytes: '18446744073709551615',
        growthBytesPerHour: '-5',
        pruningIndexTimestamp: 1_699_999_000,
      },
    });
  });

  it('keeps always-present arrays and omits an absent subunit', () => {
    const json = infoToJson(
      wire(
        InfoResponse,
        InfoResponse.fromPartial({
          name: 'n',
          baseToken: { name: 'IOTA', tickerSymbol: 'MIOTA', unit: 'i', decimals: 0 },
        }),
      ),
    );
    expect(json.pendingProtocolParameters).to.deep.equal([]);
    expect(json.features).to.deep.equal([]);
    expect(json.baseToken).to.deep.equal({
      name: 'IOTA',
      tickerSymbol: 'MIOTA',
      unit: 'i',
      decimals: 0,
      useMetricPrefix: false,
    });
  });

  it('renders tips and the submit answer', () => {
    expect(tipsToJson({ tips: [Uint8Array.of(0, 0xab), fx.bytesOf(32, 250)] })).to.deep.equal({
      tips: ['0x00ab', hex0x(fx.bytesOf(32, 250))],
    });
    expect(hex0x(fx.bytesOf(32, 250))).to.match(/^0xfafbfcfdfeff0001/);
    expect(submitBlockToJson({ blockId: Uint8Array.of(0xde, 0xad) })).to.deep.equal({ blockId: '0xdead' });
  });
});
