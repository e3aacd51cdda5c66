/**
 * A first start writes <data-dir>/genesis.json before anything goes into the store, and a first start that was
 * interrupted (the file is there, the store has no network yet) resumes from that file, so the dev keys in the file are
 * the ones the ledger was created with.
 */
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { GENESIS_FILE, type RunningNode } from '../../../src/node/node.ts';
import { CollectingLogger, startConfiguredNode } from '../../../harness/node.ts';
import { tempDir } from '../support.ts';

describe('node: first start and its genesis file', function () {
  this.timeout(30_000);
  const dir = tempDir('ledger-node-first-');

  /** The whole node on the folder, without PoW, coordinator and REST. */
  const start = async (logger = new CollectingLogger()): Promise<RunningNode> =>
    (await startConfiguredNode({ powWorkers: 0, coordinator: false }, { dataDir: dir.path, logger, rest: false })).node;

  it('resumes an interrupted first start from the genesis file it had written', async () => {
    mkdirSync(dir.path, { recursive: true });
    const written = devNetworkGenesis({ minPowScore: 7 });
    writeFileSync(join(dir.path, GENESIS_FILE), JSON.stringify(genesisToJson(written), null, 2));
    const logger = new CollectingLogger();
    const node = await start(logger);
    try {
      expect(node.testing.protocol.current.minPowScore).to.equal(7);
      expect(logger.lines.join('\n')).to.contain('dev genesis of an interrupted first start');
      // The file is kept as it was: its keys are the network's.
      expect(JSON.parse(readFileSync(join(dir.path, GENESIS_FILE), 'utf8'))).to.deep.equal(
        JSON.parse(JSON.stringify(genesisToJson(written))),
      );
    } finally {
      await node.stop();
    }
  });

  it('a fresh first start leaves a complete genesis file (with its v3 part) and no temporary file', async () => {
    const node = await start();
    await node.stop();
    const file = JSON.parse(readFileSync(join(dir.path, GENESIS_FILE), 'utf8'));
    expect(file).to.include.keys('protocol', 'coordinator', 'devWallet', 'v3');
    expect(existsSync(join(dir.path, `${GENESIS_FILE}.tmp`))).to.equal(false);
    // A restart reads the network from the store and leaves the file alone.
    const again = await start();
    await again.stop();
    expect(JSON.parse(readFileSync(join(dir.path, GENESIS_FILE), 'utf8'))).to.deep.equal(file);
  });
});
