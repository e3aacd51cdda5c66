/**
 * The NodeService through a real grpc-js server and the generated client, over the memory store (support.ts):
 * submissions in the three forms with and without parents / nonce, the three read views, metadata, tips, info. Every
 * error is service-errors.test.ts.
 */
import { expect } from 'chai';
import { blake2b } from '@noble/hashes/blake2.js';
import { toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, encodeBlock } from '../../../src/core/codec/index.ts';
import { blockToJson } from '../../../src/core/json/index.ts';
import { powScore } from '../../../src/core/pow/index.ts';
import { BlockView, LedgerInclusionState } from '../../../src/grpc/gen/node.ts';
import { blockFromProto } from '../../../src/grpc/mapping.ts';
import { ZERO_BLOCK_ID } from '../../../src/node/genesis/genesis.ts';
import { startTestNode } from '../../../harness/node.ts';
import { api, defined, id, MIN_SCORE, nodeWithPow, tagged } from './support.ts';

describe('node service over gRPC', function () {
  this.timeout(20000);
  const served = nodeWithPow();
  const a = api(() => served.node.client);

  describe('submit and read back', () => {
    let first: Uint8Array;

    it('JSON without parents and nonce: the node selects the solid entry point and mines', async () => {
      first = await a.submitJson(
        JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x01', data: '0x02' } }),
      );
      const res = await a.get(first);
      expect(res.blockId).to.deep.equal(first);
      expect(toHex0x(blake2b(res.raw, { dkLen: 32 }))).to.equal(toHex0x(first));
      const block = decodeBlock(res.raw);
      expect(block.parents).to.deep.equal([ZERO_BLOCK_ID]);
      expect(block.nonce).to.not.equal(0n);
      expect(powScore(res.raw)).to.be.at.least(MIN_SCORE);
      const json = JSON.parse(res.json) as {
        protocolVersion: number;
        parents: string[];
        payload: { type: number; tag: string; data: string };
        nonce: string;
      };
      expect(json).to.deep.equal({
        protocolVersion: 2,
        parents: [toHex0x(ZERO_BLOCK_ID)],
        payload: { type: 5, tag: '0x01', data: '0x02' },
        nonce: block.nonce.toString(),
      });
      expect(blockFromProto(res.block)).to.deep.equal(block);
      expect(await a.tips()).to.deep.equal([toHex0x(first)]);
    });

    it('the views: raw only, JSON only, structured only', async () => {
      const raw = await a.get(first, BlockView.BLOCK_VIEW_RAW);
      expect(raw.raw.length).to.be.greaterThan(0);
      expect(raw.json).to.equal('');
      expect(raw.block).to.equal(undefined);
      const json = await a.get(first, BlockView.BLOCK_VIEW_JSON);
      expect(json.raw.length).to.equal(0);
      expect(JSON.parse(json.json)).to.deep.equal(blockToJson(decodeBlock(raw.raw)));
      const structured = await a.get(first, BlockView.BLOCK_VIEW_STRUCTURED);
      expect(structured.json).to.equal('');
      expect(blockFromProto(structured.block)).to.deep.equal(decodeBlock(raw.raw));
    });

    it('JSON with parents: [] and nonce "0" (what iota.js sends) is auto-filled too', async () => {
      const blockId = await a.submitJson(
        JSON.stringify({ protocolVersion: 2, parents: [], payload: { type: 5, tag: '0x03', data: '0x' }, nonce: '0' }),
      );
      const block = decodeBlock((await a.get(blockId, BlockView.BLOCK_VIEW_RAW)).raw);
      expect(block.parents.map(toHex0x)).to.deep.equal([toHex0x(first)]);
      expect(await a.tips()).to.deep.equal([toHex0x(blockId)]);
      first = blockId;
    });

    it('raw with client parents and nonce 0: the parents are kept and the node mines (hornet#1727)', async () => {
      const parents = [first, id(0xee)].sort((x, y) => (toHex0x(x) < toHex0x(y) ? -1 : 1));
      const blockId = await a.submitRaw(encodeBlock(tagged('keep my parents', parents)));
      const stored = decodeBlock((await a.get(blockId, BlockView.BLOCK_VIEW_RAW)).raw);
      expect(stored.parents).to.deep.equal(parents);
      expect(stored.nonce).to.not.equal(0n);
      // one parent is unknown: stored, but not solid, and not a tip; its known parent stays a tip
      const md = await a.meta(blockId);
      expect(md.isSolid).to.equal(false);
      expect(md.shouldPromote).to.equal(undefined);
      expect(await a.tips()).to.deep.equal([toHex0x(first)]);
    });

    it('structured without parents and nonce', async () => {
      const blockId = await a.submitBlock(tagged('structured'));
      const stored = decodeBlock((await a.get(blockId, BlockView.BLOCK_VIEW_RAW)).raw);
      expect(stored.parents).to.deep.equal([first]);
      expect(powScore(encodeBlock(stored))).to.be.at.least(MIN_SCORE);
      first = blockId;
    });

    it('raw with a mined nonce is stored byte for byte; submitting it again is idempotent', async () => {
      const source = await a.get(first, BlockView.BLOCK_VIEW_RAW);
      const other = await startTestNode({ minPowScore: MIN_SCORE }); // no PoW on this one: the nonce is already good
      try {
        const b = api(() => other.client);
        // its parent is unknown there: accepted, stored unsolid
        const again = await b.submitRaw(source.raw);
        expect(again).to.deep.equal(first);
        expect((await b.get(first, BlockView.BLOCK_VIEW_RAW)).raw).to.deep.equal(source.raw);
        expect(await b.submitRaw(source.raw)).to.deep.equal(first);
        expect((await b.meta(first)).isSolid).to.equal(false);
      } finally {
        await other.close();
      }
      expect(await a.submitRaw(source.raw)).to.deep.equal(first);
    });

    it('metadata of a solid, unreferenced block', async () => {
      const md = await a.meta(first);
      const parents = decodeBlock((await a.get(first, BlockView.BLOCK_VIEW_RAW)).raw).parents;
      expect(defined(md)).to.deep.equal({
        blockId: first,
        parents,
        isSolid: true,
        ledgerInclusionState: LedgerInclusionState.LEDGER_INCLUSION_STATE_UNSPECIFIED,
        shouldPromote: false,
        shouldReattach: false,
      });
    });

    it('GetTips returns the tip pool, sorted, at most 4', async () => {
      const tips = await a.tips();
      expect(tips).to.deep.equal([toHex0x(first)]);
    });
  });

  describe('info', () => {
    it('carries every TIP-25 InfoResponse field', async () => {
      const info = await a.info();
      expect(info.name).to.equal('ledger-node');
      expect(info.version).to.equal('9.9.9-test');
      // No milestone for years and no coordinator running: not healthy (Hornet's rule; see ledger tests for the healthy
      // case).
      const { healthReasons, ...status } = defined(info.status)!;
      expect(status).to.deep.equal({
        isHealthy: false,
        latestMilestone: { index: 0 },
        confirmedMilestone: { index: 0 },
        pruningIndex: 0,
      });
      expect(healthReasons).to.have.length(1);
      expect(healthReasons[0]).to.match(/^the latest milestone \(0\) is \d+ s old, more than the 300 s allowed$/);
      expect(info.supportedProtocolVersions).to.deep.equal([2]);
      expect(info.protocol).to.deep.equal({
        version: 2,
        networkName: 'ledger-dev',
        bech32Hrp: 'rms',
        minPowScore: MIN_SCORE,
        belowMaxDepth: 15,
        rentStructure: { vByteCost: 100, vByteFactorData: 1, vByteFactorKey: 10 },
        tokenSupply: 1813620509061365n,
      });
      expect(info.pendingProtocolParameters).to.deep.equal([]);
      expect(info.baseToken).to.deep.equal({
        name: 'Ledger Dev Token',
        tickerSymbol: 'LDT',
        unit: 'LDT',
        subunit: 'glow',
        decimals: 6,
        useMetricPrefix: false,
      });
      expect(info.metrics).to.have.keys(['blocksPerSecond', 'referencedBlocksPerSecond', 'referencedRate']);
      expect(info.metrics!.blocksPerSecond).to.be.a('number').and.at.least(0);
      expect(info.features).to.deep.equal(['pow']);
    });

    it('has no "pow" feature when PoW is off', async () => {
      const other = await startTestNode({ minPowScore: MIN_SCORE });
      try {
        expect((await api(() => other.client).info()).features).to.deep.equal([]);
      } finally {
        await other.close();
      }
    });
  });
});
