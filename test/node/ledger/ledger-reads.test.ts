/**
 * The ledger reads end to end over REST (ledger-reads-support.ts: a node on a dev-network genesis plus a treasury, a
 * transfer confirmed by milestone 1, a receipt in milestone 2; the gateway in front of it over every transport).
 * Outputs (genesis, spent, created, migrated) with their metadata, milestones by index and by ID (JSON = the payload
 * inside the milestone's block; bytes decode with the node's codec), their UTXO changes, receipts, the treasury, and
 * the 400 / 404 answers. The indexer's routes are ledger-reads-indexer.test.ts.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, decodeOutput, decodePayload, encodeOutput } from '../../../src/core/codec/index.ts';
import { milestoneIdOf, outputId } from '../../../src/core/ids/index.ts';
import { blockToJson, milestoneOptionToJson, outputToJson } from '../../../src/core/json/index.ts';
import type { MilestonePayload } from '../../../src/core/model/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { NodeError } from '../../../src/node/support/errors.ts';
import { TRANSPORTS } from '../../gateway/harness.ts';
import { V1 } from '../../gateway/support.ts';
import { MIGRATED, restOver, scenarioSuite, TREASURY } from './ledger-reads-support.ts';

describe('ledger reads over REST: outputs, milestones, receipts, treasury (a composed dev-network node)', function () {
  this.timeout(30000);
  const s = scenarioSuite();

  it('the service: UNSPECIFIED view answers bytes and JSON; STRUCTURED or no milestone: INVALID_REQUEST', async () => {
    const both = await s.node.testing.service.getMilestone({
      milestone: { $case: 'index', value: 1 },
      view: BlockView.BLOCK_VIEW_UNSPECIFIED,
    });
    expect([both.index, toHex0x(both.milestoneId), both.raw.length > 0, both.json.length > 0]).to.deep.equal([
      1,
      toHex0x(s.ms1.milestoneId),
      true,
      true,
    ]);
    const output = await s.node.testing.service.getOutput({
      outputId: s.genesisOutputs[1]!.outputId,
      view: BlockView.BLOCK_VIEW_UNSPECIFIED,
    });
    expect([output.raw.length > 0, output.json.length > 0]).to.deep.equal([true, true]);
    const refused = [
      s.node.testing.service.getOutput({
        outputId: s.genesisOutputs[1]!.outputId,
        view: BlockView.BLOCK_VIEW_STRUCTURED,
      }),
      s.node.testing.service.getMilestone({
        milestone: { $case: 'index', value: 1 },
        view: BlockView.BLOCK_VIEW_STRUCTURED,
      }),
      s.node.testing.service.getMilestoneUtxoChanges({ milestone: undefined, view: BlockView.BLOCK_VIEW_UNSPECIFIED }),
    ];
    for (const p of refused) {
      const err: unknown = await p.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(NodeError);
      expect((err as NodeError).code).to.equal('INVALID_REQUEST');
    }
  });

  for (const transport of TRANSPORTS) {
    describe(`[over ${transport}]`, () => {
      const { v2, json, raw } = restOver(transport, s);

      it('a genesis output: unspent, booked at the genesis milestone, its output JSON and its bytes', async () => {
        const g = s.genesisOutputs[1]!;
        const res = await json(`/outputs/${toHex0x(g.outputId)}`);
        expect(res.status).to.equal(200);
        expect(Object.keys(res.body)).to.deep.equal(['metadata', 'output']);
        expect(res.body.metadata).to.deep.equal({
          blockId: toHex0x(new Uint8Array(32)),
          transactionId: toHex0x(g.outputId.slice(0, 32)),
          outputIndex: 1,
          isSpent: false,
          milestoneIndexBooked: s.genesis.milestone.index,
          milestoneTimestampBooked: g.milestoneTimestampBooked,
          ledgerIndex: 2,
        });
        expect(res.body.output).to.deep.equal(outputToJson(g.output));
        expect(decodeOutput(await raw(`/outputs/${toHex0x(g.outputId)}`))).to.deep.equal(g.output);
        expect((await json(`/outputs/${toHex0x(g.outputId)}/metadata`)).body).to.deep.equal(res.body.metadata);
      });

      it("the spent genesis output says which transaction spent it, at which milestone (Hornet's order)", async () => {
        const id = toHex0x(s.genesisOutputs[0]!.outputId);
        const md = (await json(`/outputs/${id}/metadata`)).body;
        expect(Object.keys(md)).to.deep.equal([
          'blockId',
          'transactionId',
          'outputIndex',
          'isSpent',
          'milestoneIndexSpent',
          'milestoneTimestampSpent',
          'transactionIdSpent',
          'milestoneIndexBooked',
          'milestoneTimestampBooked',
          'ledgerIndex',
        ]);
        const ms1 = decodeBlock((await s.node.testing.store.getBlock(s.ms1.blockId))!).payload as MilestonePayload;
        expect(md).to.deep.include({
          isSpent: true,
          milestoneIndexSpent: 1,
          milestoneTimestampSpent: ms1.timestamp,
          transactionIdSpent: toHex0x(s.txId),
          ledgerIndex: 2,
        });
        expect((await json(`/outputs/${id}`)).body.metadata).to.deep.equal(md);
      });

      it("a created output: booked by milestone 1 with its transaction's block; bytes decode to it", async () => {
        const id = toHex0x(outputId(s.txId, 1));
        const res = (await json(`/outputs/${id}`)).body;
        expect(res.metadata).to.deep.include({
          blockId: toHex0x(s.txBlockId),
          transactionId: toHex0x(s.txId),
          outputIndex: 1,
          isSpent: false,
          milestoneIndexBooked: 1,
        });
        expect(res.output).to.deep.equal(outputToJson(s.tx.essence.outputs[1]!));
        const bytes = await raw(`/outputs/${id}`);
        expect(bytes).to.deep.equal(encodeOutput(s.tx.essence.outputs[1]!));
        expect(decodeOutput(bytes)).to.deep.equal(s.tx.essence.outputs[1]);
      });

      it("milestone 1's UTXO changes by index and ID: the transfer's outputs made, the genesis one spent", async () => {
        const byIndex = await json('/milestones/by-index/1/utxo-changes');
        expect(byIndex.body).to.deep.equal({
          index: 1,
          createdOutputs: [toHex0x(outputId(s.txId, 0)), toHex0x(outputId(s.txId, 1))],
          consumedOutputs: [toHex0x(s.genesisOutputs[0]!.outputId)],
        });
        expect((await json(`/milestones/${toHex0x(s.ms1.milestoneId)}/utxo-changes`)).text).to.equal(byIndex.text);
      });

      it("a milestone by index and by ID: its block's payload JSON, and bytes decoding to that payload", async () => {
        for (const ms of [s.ms1, s.ms2]) {
          const inBlock = blockToJson(decodeBlock((await s.node.testing.store.getBlock(ms.blockId))!)).payload;
          const byIndex = await json(`/milestones/by-index/${ms.index}`);
          expect(byIndex.status).to.equal(200);
          expect(byIndex.body).to.deep.equal(JSON.parse(JSON.stringify(inBlock)));
          expect((await json(`/milestones/${toHex0x(ms.milestoneId)}`)).text).to.equal(byIndex.text);
          const bytes = await raw(`/milestones/by-index/${ms.index}`);
          expect(await raw(`/milestones/${toHex0x(ms.milestoneId)}`)).to.deep.equal(bytes);
          const payload = decodePayload(bytes) as MilestonePayload;
          expect(payload.index).to.equal(ms.index);
          expect(toHex0x(milestoneIdOf(payload))).to.equal(toHex0x(ms.milestoneId));
        }
      });

      it('the receipt: under receipts and its migratedAt, a new treasury, the migrated output booked', async () => {
        const listed = {
          receipts: [{ receipt: JSON.parse(JSON.stringify(milestoneOptionToJson(s.receipt))), milestoneIndex: 2 }],
        };
        expect((await json('/receipts')).body).to.deep.equal(listed);
        expect((await json('/receipts/5')).body).to.deep.equal(listed);
        expect((await json('/receipts/0005')).body).to.deep.equal(listed);
        expect((await json('/receipts/6')).body).to.deep.equal({ receipts: [] });
        expect((await json('/treasury')).body).to.deep.equal({
          milestoneId: toHex0x(s.ms2.milestoneId),
          amount: (TREASURY - MIGRATED).toString(),
        });
        const migrated = outputId(s.ms2.milestoneId, 0);
        const out = (await json(`/outputs/${toHex0x(migrated)}`)).body;
        expect(out.metadata).to.deep.include({
          blockId: toHex0x(s.ms2.milestoneId),
          isSpent: false,
          milestoneIndexBooked: 2,
        });
        const changes = (await json('/milestones/by-index/2/utxo-changes')).body;
        expect(changes).to.deep.equal({ index: 2, createdOutputs: [toHex0x(migrated)], consumedOutputs: [] });
      });

      const notFound: [string, string, RegExp][] = [
        [
          'an unknown output',
          `/outputs/0x${'ee'.repeat(32)}0000`,
          /^could not find data: output not found: 0x(ee){32}0000$/,
        ],
        [
          'the metadata of an unknown output',
          `/outputs/0x${'ee'.repeat(32)}0100/metadata`,
          /^could not find data: output not found/,
        ],
        [
          'an unknown milestone index',
          '/milestones/by-index/99',
          /^could not find data: milestone index not found: 99$/,
        ],
        [
          'the UTXO changes of an unknown milestone index',
          '/milestones/by-index/99/utxo-changes',
          /^could not find data: no UTXO changes stored for milestone index 99$/,
        ],
        [
          'an unknown milestone ID',
          `/milestones/0x${'ee'.repeat(32)}`,
          /^could not find data: milestone not found: 0x(ee){32}$/,
        ],
        [
          'the UTXO changes of an unknown milestone ID',
          `/milestones/0x${'ee'.repeat(32)}/utxo-changes`,
          /^could not find data: milestone not found/,
        ],
        [
          'the genesis milestone (its block is not held)',
          '/milestones/by-index/0',
          /^could not find data: milestone 0 .* has no stored block/,
        ],
        [
          'the UTXO changes of the genesis milestone',
          '/milestones/by-index/0/utxo-changes',
          /^could not find data: no UTXO changes stored for milestone index 0/,
        ],
      ];
      const invalid: [string, string, RegExp][] = [
        [
          'an output ID of 33 bytes',
          `/outputs/0x${'ab'.repeat(33)}`,
          /^invalid data provided: invalid output ID: 0x(ab){33}, expected 34 bytes, got 33$/,
        ],
        [
          'an output ID without 0x',
          `/outputs/${'ab'.repeat(34)}/metadata`,
          /^invalid data provided: invalid output ID: .*without 0x prefix/,
        ],
        [
          'an output index over 127',
          `/outputs/0x${'ab'.repeat(32)}8000`,
          /^invalid data provided: output ID: output index 128 is outside 0\.\.127/,
        ],
        [
          'a milestone index that is not a number',
          '/milestones/by-index/abc',
          /^invalid data provided: invalid milestone index: abc, expected a decimal number$/,
        ],
        [
          'a negative milestone index',
          '/milestones/by-index/-1/utxo-changes',
          /^invalid data provided: invalid milestone index: -1/,
        ],
        [
          'a milestone index over u32',
          '/milestones/by-index/4294967296',
          /^invalid data provided: invalid milestone index: 4294967296, out of range/,
        ],
        [
          'a milestone ID of 31 bytes',
          `/milestones/0x${'ab'.repeat(31)}`,
          /^invalid data provided: invalid milestone ID: .*expected 32 bytes, got 31/,
        ],
        ['a migratedAt that is not a number', '/receipts/1e3', /^invalid data provided: invalid migratedAt index: 1e3/],
      ];
      const cases = [
        ...notFound.map(([w, p, m]) => [w, p, m, 404] as const),
        ...invalid.map(([w, p, m]) => [w, p, m, 400] as const),
      ];
      for (const [what, path, message, code] of cases) {
        it(`${what}: ${code}`, async () => {
          const res = await json(path);
          expect([res.status, res.body.error.code]).to.deep.equal([code, code]);
          expect(res.body.error.message).to.match(message);
        });
      }

      it('the genesis milestone is 404 by ID too; the binary view is chosen by Accept as for blocks', async () => {
        expect((await json(`/milestones/${toHex0x(s.genesis.milestone.milestoneId)}`)).status).to.equal(404);
        const res = await fetch(v2(`/outputs/${toHex0x(s.genesisOutputs[1]!.outputId)}`), {
          headers: { accept: `${V1}, application/json` },
        });
        expect(res.headers.get('content-type')).to.equal(V1);
        expect(res.headers.get('vary')).to.match(/accept/i);
      });
    });
  }
});
