/**
 * Pruning of the v3 data by time (src/node/v3/pruning.ts, docs/decisions.md §27) on a node (pruning/support.ts): a v2
 * prune prunes the v3 data older than the pruning index's milestone, `tool check` accepts the store, and a start
 * finishes an interrupted v3 run. The test drives the node's v3 engine itself (`parts.v3`: its validation rounds and
 * an interrupted prune run); the rest through `testing`.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { ProtocolError } from '../../../src/core/errors.ts';
import { MemoryKeyValueStore } from '../../../src/core/store/index.ts';
import { outputIdV3, slotFromTime, type SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { checkStore } from '../../../src/node/check/consistency.ts';
import { devProtocolParametersV3, genesisBlockIdV3 } from '../../../src/node/v3/genesis-v3.ts';
import type { TestNode } from '../../../harness/node.ts';
import {
  basic,
  basicBlock,
  genesisOutputId,
  inputOf,
  key,
  signedTx,
  slotStartNs,
  testGenesisV3,
  txIdOf,
  USER,
  WALLET,
} from '../../../harness/fixtures/v3.ts';
import { milestones, openNode, testGenesis } from '../pruning/support.ts';
import { leftovers, rejection } from './support.ts';

describe('v3 pruning by time (node)', function () {
  this.timeout(60_000);

  it('a v2 prune prunes older v3 data; tool check accepts the store; a start ends an interrupted v3 run', async () => {
    const kv = new MemoryKeyValueStore();
    const g = testGenesis();
    const t0 = Math.floor(Date.now() / 1000) - 3600;
    g.v3 = testGenesisV3({ params: devProtocolParametersV3(t0) });
    const params = g.v3.protocolParameters;
    // one clock for the whole node (milestone timestamps, v3 commitments), set by the test: v3 blocks can only be
    // issued near the clock (slot commitments), so the test moves the clock instead of back-dating blocks
    let nowMs = 0;
    const at = (slot: number): void => {
      nowMs = Number(slotStartNs(params, slot) / 1_000_000n) + 100;
    };
    at(100);
    let node = await openNode(kv, g, { validationInterval: 0, now: () => nowMs });
    const nowNs = (): bigint => BigInt(nowMs) * 1_000_000n;
    const submit = async (
      p: TestNode,
      o: { time?: bigint; parents?: Uint8Array[]; payload?: SignedTransactionPayloadV3 },
    ): Promise<Uint8Array> => {
      const time = o.time ?? nowNs();
      const v3 = p.parts.v3!;
      const raw = await v3.read(() =>
        basicBlock(params, {
          issuer: USER,
          parents: o.parents ?? v3.selectTips(),
          issuingTime: time,
          commitmentId: v3.commitmentIdForSlot(slotFromTime(time, params)),
          ...(o.payload ? { payload: o.payload } : {}),
        }),
      );
      return (await p.testing.service.submitBlockV3({ block: { $case: 'raw', value: raw } })).blockId;
    };
    const confirm = async (p: TestNode): Promise<void> => {
      await p.parts.v3!.issueValidationBlocks();
      await p.parts.v3!.issueValidationBlocks();
    };
    const state = async (p: TestNode, id: Uint8Array): Promise<string> =>
      JSON.parse((await p.testing.service.getBlockMetadataV3({ blockId: id, view: 0 })).json).blockState;
    const genesisId = genesisBlockIdV3(params);
    try {
      // old v3 blocks (slots 100-101), confirmed; milestones at slot 200; newer v3 blocks at slot 320, confirmed
      const tx1 = signedTx(
        { creationSlot: 100, inputs: [inputOf(genesisOutputId(g.v3, 0))], outputs: [basic(1_000_000_000n, key(70))] },
        WALLET,
        params,
      );
      const b1 = await submit(node, { parents: [genesisId], payload: tx1 });
      const b2 = await submit(node, { time: slotStartNs(params, 101), parents: [b1] });
      await confirm(node);
      at(200);
      await milestones(node.testing, 25, 1);
      const P = node.testing.pruner.maxIndex()!;
      const milestoneP = (await node.testing.store.milestone(P))!;
      const boundary = milestoneP.timestamp - t0 + 1; // genesis slot 0, one-second slots
      expect(boundary).to.be.within(200, 230); // milestone timestamps: max(clock, previous + 1 s)
      const crash = new Error('simulated crash');
      /** A v3 prune run to milestone `m` that stops after its first batch. */
      const interruptedPrune = (m: { index: number; timestamp: number }) =>
        node.parts.v3!.prune(
          { milestoneIndex: m.index, timestamp: m.timestamp },
          {
            batch: 1,
            afterBatch: () => {
              throw crash;
            },
          },
        );
      at(320);
      const tx2 = signedTx(
        { creationSlot: 100, inputs: [inputOf(genesisOutputId(g.v3, 1))], outputs: [basic(1_000_000_000n, key(70))] },
        WALLET,
        params,
      );
      const n1 = await submit(node, { payload: tx2 });
      await confirm(node);
      expect(await state(node, n1)).to.equal('confirmed');
      expect(await leftovers(node.testing.store, boundary, genesisId)).to.have.length.above(0);

      // a v3 run interrupted after its first batch; the v2 prune after it finishes it
      expect(await rejection(interruptedPrune({ index: P, timestamp: milestoneP.timestamp }))).to.equal(crash);
      expect(await node.testing.pruner.prune({ index: P })).to.equal(P);
      expect(node.parts.v3!.pruned).to.deep.equal({ slot: boundary, milestoneIndex: P });
      expect(await leftovers(node.testing.store, boundary, genesisId)).to.deep.equal([]);
      expect(await node.testing.store.getBlock(b2)).to.equal(undefined);
      expect(await state(node, n1)).to.equal('confirmed');
      const included = await rejection(
        node.testing.service.getIncludedBlockV3({ transactionId: txIdOf(tx1), view: BlockView.BLOCK_VIEW_RAW }),
      );
      expect(included).to.include({ code: 'NOT_FOUND' });
      expect(included.message).to.match(
        new RegExp(
          `transaction not included: .* \\(unknown, or pruned: this node keeps no confirmed v3 block of a slot ` +
            `before ${boundary}, the slot of milestone ${P}, its pruning index\\)`,
        ),
      );
      expect(
        (await rejection(node.testing.service.getBlockV3({ blockId: b1, view: BlockView.BLOCK_VIEW_RAW }))).message,
      ).to.match(/block not found: .*or pruned/);
      expect(
        toHex0x(
          (
            await node.testing.service.getIncludedBlockV3({
              transactionId: txIdOf(tx2),
              view: BlockView.BLOCK_VIEW_RAW,
            })
          ).blockId,
        ),
      ).to.equal(toHex0x(n1));
      const refused = await rejection(submit(node, { time: nowNs() + 1n, parents: [b2] }));
      expect(refused).to.be.instanceOf(ProtocolError);
      expect(refused.message).to.match(/is not kept: .*pruned its confirmed v3 blocks/);
      const report = await checkStore(node.testing.store);
      expect(report.differences).to.deep.equal([]);
      expect(report.summary.pruningIndex).to.equal(P);

      // new blocks attach and confirm, one spending an output tx1 (pruned) created
      const tx3 = signedTx(
        { creationSlot: 100, inputs: [inputOf(outputIdV3(txIdOf(tx1), 0))], outputs: [basic(1_000_000_000n, key(71))] },
        key(70),
        params,
      );
      const n2 = await submit(node, { time: nowNs() + 1_000_000n, payload: tx3 }); // after the rounds
      await confirm(node);
      expect(await state(node, n2)).to.equal('confirmed');
      // a v3 run to a later milestone (its blocks of slot 320 are older), interrupted: a start finishes it
      at(400);
      await milestones(node.testing, 5, 1);
      const laterIndex = (await node.testing.store.lastMilestoneIndex())!;
      const later = (await node.testing.store.milestone(laterIndex))!;
      const boundary2 = later.timestamp - t0 + 1;
      expect(await rejection(interruptedPrune({ index: laterIndex, timestamp: later.timestamp }))).to.equal(crash);
      expect(await leftovers(node.testing.store, boundary2, genesisId)).to.have.length.above(0);
      await node.close();

      node = await openNode(kv, g, { validationInterval: 0, now: () => nowMs });
      await node.testing.pruner.idle();
      expect(await leftovers(node.testing.store, boundary2, genesisId)).to.deep.equal([]);
      expect((await checkStore(node.testing.store)).differences).to.deep.equal([]);
      expect((await rejection(state(node, n2))).message).to.match(/block not found: .*or pruned/);
      expect(node.parts.v3!.output(outputIdV3(txIdOf(tx3), 0))).to.deep.include({ spent: false });
    } finally {
      await node.close();
    }
  });
});
