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
    const { parts } = await openNode(new MemoryKeyValueStore(), testGenesis());
    try {
      const early = await submit(parts, tagged('early'));
      await milestones(parts, 2, 2);
      // Unsolid: its one parent is a block nobody has.
      const missing = new Uint8Array(32).fill(0x5a);
      const unsolid: Block = { protocolVersion: 2, parents: [missing], payload: tagged('unsolid'), nonce: 0n };
      const bytes = encodeBlock(unsolid);
      expect(await parts.attacher.attach(blockId(bytes), bytes, unsolid)).to.include({ stored: true, solid: false });
      expect(parts.attacher.held.awaited).to.equal(1);
      await milestones(parts, 20, 1);
      // Lazy: its parent is far below max depth now, so tip selection never offers it and nothing approves it.
      const lazy: Block = { protocolVersion: 2, parents: [early], payload: tagged('lazy'), nonce: 0n };
      const lazyBytes = encodeBlock(lazy);
      expect(await parts.attacher.attach(blockId(lazyBytes), lazyBytes, lazy)).to.include({
        stored: true,
        solid: true,
      });
      const tipsBefore = parts.attacher.held.tips;
      await milestones(parts, 25, 1);
      const tipsHeld = parts.attacher.held.tips;
      expect(tipsHeld).to.be.at.least(tipsBefore); // the lazy one is still held
      expect(parts.attacher.held.awaited).to.equal(1);

      await parts.pruner.prune({ index: parts.pruner.maxIndex()! });
      expect(parts.attacher.held.awaited).to.equal(0);
      expect(parts.attacher.held.tips).to.equal((await parts.store.tips()).length);
      expect(parts.attacher.held.tips).to.be.below(tipsHeld);
    } finally {
      await parts.stop();
    }
  });
});
