/**
 * URTS tip scores (src/node/tangle/urts.ts, cone-roots.ts): Hornet's thresholds, cone root indexes through
 * unreferenced blocks, tip selection skipping lazy tips, and the metadata flags that follow the score, on a node over a
 * memory store (ledger/support.ts).
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockId as blockIdOf } from '../../../src/core/ids/index.ts';
import type { Block } from '../../../src/core/model/index.ts';
import { META } from '../../../src/core/store/index.ts';
import { ZERO_BLOCK_ID } from '../../../src/node/genesis/genesis.ts';
import { ConeRoots } from '../../../src/node/tangle/cone-roots.ts';
import { promoteReattach, TipSelector, tipScore } from '../../../src/node/tangle/urts.ts';
import { harness, tagged } from '../ledger/support.ts';

describe('node ledger: URTS tip scores', function () {
  this.timeout(30000);

  it('Hornet thresholds: below max depth, YCRI delta 8, OCRI delta 13', () => {
    expect(tipScore({ ycri: 20, ocri: 5 }, 21, 15)).to.equal('belowMaxDepth');
    expect(tipScore({ ycri: 20, ocri: 5 }, 20, 15)).to.equal('semiLazyOcri');
    expect(tipScore({ ycri: 20, ocri: 20 }, 29, 15)).to.equal('lazyYcri');
    expect(tipScore({ ycri: 20, ocri: 20 }, 28, 15)).to.equal('healthy');
    expect(promoteReattach('belowMaxDepth')).to.deep.equal({ shouldPromote: false, shouldReattach: true });
    expect(promoteReattach('lazyYcri')).to.deep.equal({ shouldPromote: true, shouldReattach: false });
    expect(promoteReattach('semiLazyOcri')).to.deep.equal({ shouldPromote: true, shouldReattach: false });
    expect(promoteReattach('healthy')).to.deep.equal({ shouldPromote: false, shouldReattach: false });
  });

  it('cone root indexes through unreferenced blocks; selection skips lazy tips; flags follow the score', async () => {
    const h = await harness();
    try {
      const { store } = h;
      const add = async (block: Block, referencedBy?: number): Promise<Uint8Array> => {
        const bytes = encodeBlock(block);
        const id = blockIdOf(bytes);
        const md = {
          protocolVersion: 2 as const,
          solid: true,
          arrivalTime: 1,
          ...(referencedBy !== undefined
            ? {
                referenced: {
                  milestoneIndex: referencedBy,
                  whiteFlagIndex: 0,
                  ledgerInclusionState: 'noTransaction' as const,
                  conflictReason: 0,
                },
              }
            : {}),
        };
        await store.batch().addBlock({ blockId: id, bytes, parents: block.parents, metadata: md }).commit();
        return id;
      };
      const a = await add(tagged([ZERO_BLOCK_ID], 'a'), 5);
      const b = await add(tagged([ZERO_BLOCK_ID], 'b'), 20);
      const c = await add(tagged([a, b], 'c'));
      const d = await add(tagged([c], 'd'));
      const e = await add(tagged([b], 'e'));
      const batch = store.batch();
      for (const t of await store.tips()) batch.removeTip(t);
      batch.addTip(d).addTip(e).putMeta(META.confirmedMilestoneIndex, 20).putMeta(META.ledgerIndex, 20);
      await batch.commit();
      // What a restart at confirmed index 20 sees: cone root indexes by a walk (no stored values), pools from the
      // tips table.
      const { protocol, network } = h.testing;
      const confirmedAt = async (index: number): Promise<void> => {
        await store.batch().putMeta(META.confirmedMilestoneIndex, index).putMeta(META.ledgerIndex, index).commit();
        await protocol.refresh();
      };
      await protocol.refresh();
      const coneRoots = new ConeRoots(store, network, protocol);
      const tips = new TipSelector(store, protocol, coneRoots);
      await tips.load();
      expect(await coneRoots.get(d)).to.deep.equal({ ycri: 20, ocri: 5 });
      expect(await coneRoots.get(e)).to.deep.equal({ ycri: 20, ocri: 20 });
      expect(await coneRoots.get(ZERO_BLOCK_ID)).to.deep.equal({ ycri: 0, ocri: 0 });
      const pools = tips.pools();
      expect([pools.nonLazy.map(toHex0x), pools.semiLazy.map(toHex0x)]).to.deep.equal([[toHex0x(e)], [toHex0x(d)]]);
      expect((await tips.select()).map(toHex0x)).to.deep.equal([toHex0x(e)]);
      expect(await h.service.getBlockMetadata({ blockId: d })).to.deep.include({
        shouldPromote: true,
        shouldReattach: false,
      });
      await confirmedAt(21);
      expect(await h.service.getBlockMetadata({ blockId: d })).to.deep.include({
        shouldPromote: false,
        shouldReattach: true,
      });
      await confirmedAt(29);
      expect(await tips.score(e)).to.equal('lazyYcri');
      tips.rescore(new Map());
      expect(tips.pools()).to.deep.equal({ nonLazy: [], semiLazy: [] });
      const err = await tips.select().then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(err).to.have.property('code', 'NO_TIPS');
    } finally {
      await h.close();
    }
  });
});
