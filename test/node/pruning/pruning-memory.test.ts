/**
 * What the attacher holds in memory across groups forgets what pruning deleted: a lazy tip that no block ever approves
 * (its parent lies below max depth) leaves the tip set, and the missing parent of an unsolid block is no longer awaited
 * once that block is pruned.
 */
import { expect } from 'chai';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockId } from '../../../src/core/ids/index.ts';
import type { Block } from '../../../src/core/model/index.ts';
import { MemoryKeyValueStore } from '../../../src/core/store/index.ts';
import { milestones, openNode, submit, tagged, testGenesis } from './support.ts';

describe('pruning: the attacher forgets pruned tips and waits', function () {
  this.timeout(60000);

  it("a pruned lazy tip leaves the tip set; a pruned unsolid block's missing parent is no longer awaited", async () => {
    const node = await openNode(new MemoryKeyValueStore(), testGenesis());
    try {
      const early = await submit(node.testing, tagged('early'));
      await milestones(node.testing, 2, 2);
      // Unsolid: its one parent is a block nobody has.
      const missing = new Uint8Array(32).fill(0x5a);
      const unsolid: Block = { protocolVersion: 2, parents: [missing], payload: tagged('unsolid'), nonce: 0n };
      const bytes = encodeBlock(unsolid);
      expect(await node.testing.attacher.attach(blockId(bytes), bytes, unsolid)).to.include({
        stored: true,
        solid: false,
      });
      expect(node.testing.attacher.held.awaited).to.equal(1);
      await milestones(node.testing, 20, 1);
      // Lazy: its parent is far below max depth now, so tip selection never offers it and nothing approves it.
      const lazy: Block = { protocolVersion: 2, parents: [early], payload: tagged('lazy'), nonce: 0n };
      const lazyBytes = encodeBlock(lazy);
      expect(await node.testing.attacher.attach(blockId(lazyBytes), lazyBytes, lazy)).to.include({
        stored: true,
        solid: true,
      });
      const tipsBefore = node.testing.attacher.held.tips;
      await milestones(node.testing, 25, 1);
      const tipsHeld = node.testing.attacher.held.tips;
      expect(tipsHeld).to.be.at.least(tipsBefore); // the lazy one is still held
      expect(node.testing.attacher.held.awaited).to.equal(1);

      await node.testing.pruner.prune({ index: node.testing.pruner.maxIndex()! });
      expect(node.testing.attacher.held.awaited).to.equal(0);
      expect(node.testing.attacher.held.tips).to.equal((await node.testing.store.tips()).length);
      expect(node.testing.attacher.held.tips).to.be.below(tipsHeld);
    } finally {
      await node.close();
    }
  });
});
