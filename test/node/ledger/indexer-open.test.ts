/**
 * Opening a node's store indexes its ledger when the TIP-26 index is missing (a store from before the indexer) or of
 * another version, once, before the node runs; a store created now has it from the genesis batch.
 */
import { expect } from 'chai';
import {
  clearOutputIndex,
  INDEX_VERSION,
  INDEXER_META,
  LEDGER_TABLES,
  LedgerState,
  queryOutputs,
  verifyOutputIndex,
} from '../../../src/core/ledger/index.ts';
import { MemoryKeyValueStore, NodeStore, TABLES } from '../../../src/core/store/index.ts';
import { defaultConfig } from '../../../src/node/config.ts';
import { openNetwork } from '../../../src/node/genesis/open-network.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import { tempDir } from '../support.ts';

describe('node: the output index on open', () => {
  const dir = tempDir('indexer-open-', 'suite');

  it('a new network is indexed by its genesis batch; a store without index is indexed once on open', async () => {
    const store = await NodeStore.open(new MemoryKeyValueStore());
    const logger = new CollectingLogger();
    const config = { ...defaultConfig(), dataDir: dir.path };
    const network = await openNetwork(store, config, logger);
    expect(await store.getMeta(INDEXER_META.version)).to.equal(INDEX_VERSION);
    expect(logger.lines.filter((l) => l.includes('indexer:'))).to.deep.equal([]);
    let unspent = 0;
    for await (const _ of store.keys(LEDGER_TABLES.unspent)) unspent++;
    expect(unspent).to.be.greaterThan(0);
    const protocol = (await new LedgerState(store).protocolParameters(0))!;
    const all = async (): Promise<string[]> => (await queryOutputs(store, 'basic', {}, 0, protocol.bech32Hrp)).items;
    const indexed = await all();
    expect(indexed).to.have.length(unspent);

    await clearOutputIndex(store);
    await store.batch().del(TABLES.meta, INDEXER_META.version.name).commit();
    expect(await all()).to.deep.equal([]);
    expect((await openNetwork(store, config, logger)).networkName).to.equal(network.networkName);
    expect(logger.lines.filter((l) => l.includes('indexer:')))
      .to.have.length(1)
      .and.satisfy((ls: string[]) =>
        ls[0]!.startsWith(`INFO indexer: built the output index of ${unspent} unspent outputs in`),
      );
    expect(await all()).to.deep.equal(indexed);
    expect((await verifyOutputIndex(store)).differences).to.deep.equal([]);
    await openNetwork(store, config, logger);
    expect(logger.lines.filter((l) => l.includes('indexer:'))).to.have.length(1);
  });
});
