/**
 * Opening a node's store builds the explorer history when it is missing (a store from before the history) or of
 * another version, once, before the node runs, and logs it; a store created now has it from the genesis batch.
 */
import { expect } from 'chai';
import {
  AGGREGATE_TABLES,
  clearHistory,
  HISTORY_META,
  HISTORY_VERSION,
  richestAddresses,
  verifyHistory,
} from '../../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { defaultConfig } from '../../../src/node/config.ts';
import { openNetwork } from '../../../src/node/genesis/open-network.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import { tempDir } from '../support.ts';

describe('node: the explorer history on open', () => {
  const dir = tempDir('history-open-', 'suite');

  it('a new network has it from its genesis batch; a store without it gets it built once on open', async () => {
    const store = await NodeStore.open(new MemoryKeyValueStore());
    const logger = new CollectingLogger();
    const config = { ...defaultConfig(), dataDir: dir.path };
    await openNetwork(store, config, logger);
    expect(await store.getMeta(HISTORY_META.version)).to.equal(HISTORY_VERSION);
    expect(logger.lines.filter((l) => l.includes('history:'))).to.deep.equal([]);
    const rich = await richestAddresses(store, 10);
    expect(rich.length).to.be.above(0);

    await clearHistory(store);
    expect(await store.get(AGGREGATE_TABLES.balances, rich[0]!.address)).to.equal(undefined);
    await openNetwork(store, config, logger);
    const lines = logger.lines.filter((l) => l.includes('history:'));
    expect(lines[0]).to.match(/^INFO history: milestones and their blocks up to 0 of 0$/);
    expect(lines.at(-1)).to.match(
      /^INFO history: built for explorers: 1 milestones, 0 blocks, \d+ ledger updates, \d+ unspent/,
    );
    expect(await richestAddresses(store, 10)).to.deep.equal(rich);
    expect((await verifyHistory(store)).differences).to.deep.equal([]);
    const count = logger.lines.length;
    await openNetwork(store, config, logger);
    expect(logger.lines.filter((l) => l.includes('history:')).length).to.equal(lines.length);
    expect(logger.lines.length).to.equal(count);
  });
});
