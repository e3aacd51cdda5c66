/**
 * The v3 retention on a node (compose.ts, `--prune-v3-epochs`; docs/decisions.md §46): a node without pruning keeps
 * every v3 block; started again with `pruneV3Epochs` it prunes the v3 blocks older than its epochs in the background
 * at once, with the v2 pruning off and its index untouched, and `tool check` accepts the store. The test drives the
 * node's clock and its v3 engine's validation rounds (`parts.v3`); 32-slot epochs keep it short.
 */
import { expect } from 'chai';
import { MemoryKeyValueStore } from '../../../src/core/store/index.ts';
import { checkStore } from '../../../src/node/check/consistency.ts';
import { parseRunArgs } from '../../../src/node/config.ts';
import { devProtocolParametersV3 } from '../../../src/node/v3/genesis-v3.ts';
import { V3_TABLES } from '../../../src/node/v3/tables.ts';
import { slotStartNs, testGenesisV3 } from '../../../harness/fixtures/v3.ts';
import { waitFor } from '../../../harness/wait.ts';
import { openNode, testGenesis } from '../pruning/support.ts';
import { collect, leftovers } from './support.ts';

describe('v3 retention (node)', function () {
  this.timeout(60_000);

  it('--prune-v3-epochs is a run flag: N epochs, 0 = off', () => {
    expect(parseRunArgs(['--prune-v3-epochs', '7']).pruneV3Epochs).to.equal(7);
    expect(parseRunArgs(['--prune-v3-epochs', '0']).pruneV3Epochs).to.equal(0);
    expect(() => parseRunArgs(['--prune-v3-epochs', '-1'])).to.throw(/expected/);
    expect(() => parseRunArgs(['--prune-v3-epochs', '2.5'])).to.throw(/expected/);
  });

  it('a node started with pruneV3Epochs prunes older v3 blocks at once, without the v2 pruning', async () => {
    const kv = new MemoryKeyValueStore();
    const g = testGenesis();
    const t0 = Math.floor(Date.now() / 1000) - 3600;
    g.v3 = testGenesisV3({ params: { ...devProtocolParametersV3(t0), slotsPerEpochExponent: 5 } });
    const params = g.v3.protocolParameters;
    let nowMs = Number(slotStartNs(params, 20) / 1_000_000n);
    let node = await openNode(kv, g, { validationInterval: 0, pruneV3Epochs: 0, now: () => nowMs });
    try {
      expect(node.logger.lines).to.include(
        'INFO v3 retention off (--prune-v3-epochs 0): v3 blocks go only with the v2 pruning',
      );
      // validation rounds every 2 s until the latest commitment is in epoch 5 (slots 160-191)
      const v3 = node.parts.v3!;
      while (v3.latestCommitment.commitment.slot < 165) {
        nowMs += 2000;
        await v3.issueValidationBlocks();
      }
      const slots = (await collect(node.testing.store.entries(V3_TABLES.blockState))).map(([, r]) => r.slot);
      expect(slots.length).to.be.above(70);
      expect(Math.min(...slots)).to.be.below(30);
      await node.close();

      node = await openNode(kv, g, { validationInterval: 0, pruneV3Epochs: 2, now: () => nowMs });
      expect(node.logger.lines).to.include(
        "INFO v3 retention: the confirmed blocks of the latest commitment's epoch and the 2 before it " +
          '(64 slots, 1 min) are kept, older ones pruned (--prune-v3-epochs)',
      );
      const pruned = await waitFor('the retention', async () => node.parts.v3!.pruned);
      expect(pruned).to.deep.equal({ slot: 96, keptEpochs: 2 });
      await waitFor('the run to end', async () =>
        node.logger.lines.some((l) => l.startsWith('INFO v3 retention: blocks of the slots before 96 pruned'))
          ? true
          : undefined,
      );
      expect(await leftovers(node.testing.store, 96, node.parts.v3!.genesisBlockId)).to.deep.equal([]);
      // exactly the blocks of slot 96 and later are kept
      const kept = (await collect(node.testing.store.keys(V3_TABLES.blockState))).length;
      expect(kept).to.equal(slots.filter((s) => s >= 96).length);
      expect(node.testing.protocol.pruningIndex ?? 0).to.equal(0);
      expect((await checkStore(node.testing.store)).differences).to.deep.equal([]);
      expect(node.logger.lines.filter((l) => l.startsWith('ERROR'))).to.deep.equal([]);
    } finally {
      await node.close();
    }
  });
});
