/**
 * The node as a ledger, in-process over a memory store (support.ts): milestone blocks confirmed in order once solid,
 * rejected milestones stored but never confirmed, the coordinator, block metadata before and after confirmation, info
 * health, and the processor resuming after a restart. The genesis file is genesis/ledger-genesis.test.ts, the tip
 * scores tangle/tip-scores.test.ts.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, encodeBlock } from '../../../src/core/codec/index.ts';
import { blockId as blockIdOf, merkleRoot } from '../../../src/core/ids/index.ts';
import { LedgerState } from '../../../src/core/ledger/index.ts';
import type { Block, MilestonePayload } from '../../../src/core/model/index.ts';
import type { ProtocolError } from '../../../src/core/errors.ts';
import { META, MemoryKeyValueStore } from '../../../src/core/store/index.ts';
import { genesisFromJson, ZERO_BLOCK_ID, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import { startTestNode } from '../../../harness/node.ts';
import { devGenesisJson, harness, harnessPerTest, signedMilestone, tagged } from './support.ts';

describe('node ledger', function () {
  this.timeout(30000);

  describe('milestones and the coordinator', () => {
    const h = harnessPerTest();

    it('metadata before and after confirmation; the coordinator confirms its milestone, /info is healthy', async () => {
      const x = await h.submit(tagged([ZERO_BLOCK_ID], 'x'));
      const before = await h.service.getBlockMetadata({ blockId: x });
      expect(before).to.deep.include({ isSolid: true, shouldPromote: false, shouldReattach: false });
      expect(before.referencedByMilestoneIndex).to.equal(undefined);
      const issued = await h.coordinator.issue();
      expect(issued.index).to.equal(1);
      const after = await h.service.getBlockMetadata({ blockId: x });
      expect(after).to.deep.include({ isSolid: true, referencedByMilestoneIndex: 1, whiteFlagIndex: 0 });
      expect(after.shouldPromote).to.equal(undefined);
      expect(after.conflictReason).to.equal(undefined);
      const msMeta = await h.service.getBlockMetadata({ blockId: issued.blockId });
      expect(msMeta.milestoneIndex).to.equal(1);
      const info = await h.service.getInfo();
      expect(info.status?.confirmedMilestone).to.deep.equal({
        index: 1,
        timestamp: info.status?.latestMilestone?.timestamp,
        milestoneId: issued.milestoneId,
      });
      expect(info.status?.isHealthy).to.equal(true); // a recent milestone
      expect(await new LedgerState(h.store).ledgerIndex()).to.equal(1);
    });

    it('reaches every tip without a child: directly up to 7, through chained checkpoints beyond', async () => {
      const m1 = await h.coordinator.issue();
      const xs: Uint8Array[] = [];
      for (let i = 0; i < 20; i++) xs.push(await h.submit(tagged([ZERO_BLOCK_ID], `aside ${i}`)));
      const m2 = await h.coordinator.issue();
      expect(m2.parents.length).to.be.at.most(8);
      // Milestone 1's block and all 20 blocks (21 childless tips) are referenced by milestone 2.
      for (const id of [m1.blockId, ...xs])
        expect((await h.service.getBlockMetadata({ blockId: id })).referencedByMilestoneIndex).to.equal(2);
      // ... through checkpoints: blocks without payload, each approving up to 8.
      const parents = await Promise.all(m2.parents.map(async (p) => decodeBlock((await h.store.getBlock(p))!)));
      expect(parents.some((b) => b.payload === undefined)).to.equal(true);
      // With nothing new, milestone 3 approves milestone 2's block.
      const m3 = await h.coordinator.issue();
      expect(m3.parents.map(toHex0x)).to.include(toHex0x(m2.blockId));
      expect(m3.parents.map(toHex0x)).to.not.include(toHex0x(m1.blockId));
    });

    it('a milestone with a wrong root is stored but never confirms; a right one for the same index does', async () => {
      const x = await h.submit(tagged([ZERO_BLOCK_ID], 'x'));
      const now = Math.floor(Date.now() / 1000);
      const bad = signedMilestone(h.genesis, {
        index: 1,
        timestamp: now,
        parents: [x],
        inclusion: new Uint8Array(32).fill(1),
      });
      const badId = await h.submit(bad);
      await h.testing.writeLock(async () => undefined); // let the processor run
      await h.testing.writeLock(async () => undefined);
      expect(await h.store.getBlock(badId)).to.not.equal(undefined);
      expect(await new LedgerState(h.store).ledgerIndex()).to.equal(0);
      expect(h.testing.milestones.rejection(badId)).to.match(/inclusionMerkleRoot .* differs from the recomputed/);
      expect(h.logger.lines.some((l) => l.startsWith('WARN milestone block') && l.includes('rejected'))).to.equal(true);
      const good = signedMilestone(h.genesis, {
        index: 1,
        timestamp: now,
        parents: [x],
      });
      const goodId = await h.submit(good);
      await h.testing.milestones.settled(goodId, 1);
      expect((await h.store.milestone(1))?.blockId).to.deep.equal(goodId);
      expect((await h.service.getBlockMetadata({ blockId: x })).referencedByMilestoneIndex).to.equal(1);
    });

    it('a milestone whose cone is missing waits, counts as latest, and confirms when the block arrives', async () => {
      const z = tagged([ZERO_BLOCK_ID], 'late');
      const zBytes = encodeBlock(z);
      const zId = blockIdOf(zBytes);
      const ms = signedMilestone(h.genesis, {
        index: 1,
        parents: [zId],
      });
      const msId = await h.submit(ms);
      await h.testing.writeLock(async () => undefined);
      await h.testing.writeLock(async () => undefined);
      expect(await new LedgerState(h.store).ledgerIndex()).to.equal(0);
      const info = await h.service.getInfo();
      expect([
        info.status?.latestMilestone?.index,
        info.status?.confirmedMilestone?.index,
        info.status?.isHealthy,
      ]).to.deep.equal([1, 0, false]);
      await h.submit(z);
      await h.testing.milestones.settled(msId, 1);
      expect((await h.service.getBlockMetadata({ blockId: zId })).referencedByMilestoneIndex).to.equal(1);
    });

    it('milestone blocks with bad signatures are refused from clients, not kept pending when stored', async () => {
      const x = await h.submit(tagged([ZERO_BLOCK_ID], 'x'));
      const now = Math.floor(Date.now() / 1000);
      const draft = (index: number) => ({
        index,
        timestamp: now,
        parents: [x],
      });
      const forge = (i: number): Block => {
        const ms = signedMilestone(h.genesis, draft(1_000_000 + i));
        const p = ms.payload as MilestonePayload;
        p.signatures = p.signatures.map((s) => ({ ...s, signature: new Uint8Array(64).fill(i + 1) }));
        return ms;
      };
      // A milestone block needs no PoW, so a client's forgery is refused at the door (peers' too).
      const refused = await h.submit(forge(99)).then(
        () => undefined,
        (e: unknown) => e as ProtocolError,
      );
      expect(refused?.code).to.equal('INVALID_SIGNATURE');
      // Forged ones a store already holds (stored before clients were checked): far above the ledger index.
      const forged: Uint8Array[] = [];
      for (let i = 0; i < 40; i++) {
        const ms = forge(i);
        const bytes = encodeBlock(ms);
        forged.push(blockIdOf(bytes));
        await h.testing.attacher.attach(blockIdOf(bytes), bytes, ms);
      }
      await h.testing.writeLock(async () => undefined);
      await h.testing.writeLock(async () => undefined);
      expect(h.testing.milestones.held.pending).to.equal(0);
      expect(h.testing.milestones.rejection(forged[0]!)).to.match(/signature at signatures\[0\] does not verify/);
      expect(await h.store.getBlock(forged[0]!)).to.not.equal(undefined); // stored all the same
      // A validly signed one ahead of the ledger is kept (and raises the latest milestone).
      await h.submit(signedMilestone(h.genesis, draft(5)));
      await h.testing.writeLock(async () => undefined);
      await h.testing.writeLock(async () => undefined);
      expect(h.testing.milestones.held.pending).to.equal(1);
      expect(h.testing.milestones.latest()?.index).to.equal(5);
    });
  });

  it('after a restart the processor finds the waiting milestone block in the store', async () => {
    const kv = new MemoryKeyValueStore();
    const genesis = genesisFromJson(devGenesisJson());
    const z = tagged([ZERO_BLOCK_ID], 'late');
    const zId = blockIdOf(encodeBlock(z));
    const first = await harness({ kv, genesis });
    const msId = await first.submit(
      signedMilestone(genesis, {
        index: 1,
        parents: [zId],
      }),
    );
    await first.close();
    const second = await harness({ kv, genesis });
    try {
      await second.submit(z);
      await second.testing.milestones.settled(msId, 1);
      expect(await second.store.getMeta(META.ledgerIndex)).to.equal(1);
    } finally {
      await second.close();
    }
  });

  it('a network without a ledger keeps no milestone block pending (nothing would ever confirm it)', async () => {
    const g = genesisFromJson(devGenesisJson());
    const bare: Genesis = { ...g, milestonePublicKeyCount: 0, milestoneKeyRanges: [], outputs: [] };
    delete bare.coordinator;
    delete bare.devWallet;
    const node = await startTestNode({ genesis: bare, tipPools: URTS_DEFAULTS });
    const { protocol, attacher, milestones } = node.testing;
    try {
      expect(protocol.hasLedger).to.equal(false);
      const now = Math.floor(Date.now() / 1000);
      for (let i = 1; i <= 20; i++) {
        const ms = signedMilestone(g, {
          index: i,
          timestamp: now,
          parents: [ZERO_BLOCK_ID],
          inclusion: merkleRoot([]),
        });
        // the intake's own verdict: stored, though no milestone can confirm (the part itself, not the service)
        expect((await node.parts.intake.accept({ block: ms }, { kind: 'client' })).result.stored).to.equal(true);
      }
      await attacher.idle();
      expect(milestones.held.pending).to.equal(0);
    } finally {
      await node.close();
    }
  });
});
