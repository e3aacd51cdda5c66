/**
 * The composition root on the default storage engine: first start creates the dev network and genesis.json, gRPC and
 * REST answer, a restart on the same folder serves every block identically, a foreign genesis and a locked folder are
 * refused; a data folder keeps its storage engine.
 */
import { expect } from 'chai';
import { credentials } from '@grpc/grpc-js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toHex0x } from '../../src/core/bytes.ts';
import { BlockView, NodeServiceClient } from '../../src/grpc/gen/node.ts';
import { ConfigError, type NodeConfig } from '../../src/node/config.ts';
import { devGenesis, genesisFromJson, genesisToJson } from '../../src/node/genesis/genesis.ts';
import { packageVersion, type RunningNode, type StartOptions } from '../../src/node/node.ts';
import { CollectingLogger, startConfiguredNode } from '../../harness/node.ts';
import { call, failure, tempDir } from './support.ts';

/** The whole node on `dataDir` (min PoW score 10, one PoW worker, then `extra`); the folder stays on stop. */
async function startOn(
  dataDir: string,
  extra: Partial<NodeConfig> = {},
  options: StartOptions = {},
): Promise<RunningNode> {
  return (await startConfiguredNode({ minPowScore: 10, powWorkers: 1, ...extra }, { dataDir, ...options })).node;
}

function clientOf(node: RunningNode): NodeServiceClient {
  return new NodeServiceClient(`127.0.0.1:${node.grpcPort}`, credentials.createInsecure());
}

const json = (text: string) => ({
  block: {
    $case: 'json' as const,
    value: JSON.stringify({
      protocolVersion: 2,
      payload: { type: 5, tag: '0x6e6f6465', data: '0x' + Buffer.from(text).toString('hex') },
    }),
  },
});

describe('node composition root', function () {
  this.timeout(30000);
  const dir = tempDir('ledger-node-test-');

  it('serves blocks submitted before a stop identically after a restart on the same folder', async () => {
    const logger = new CollectingLogger();
    let node = await startOn(dir.path, {}, { logger });
    let client = clientOf(node);
    const ids: Uint8Array[] = [];
    const before = new Map<string, unknown>();
    try {
      expect(logger.lines.some((l) => /created network "ledger-dev"/.test(l))).to.equal(true);
      expect(logger.lines.some((l) => l.includes(`gRPC NodeService listening on 127.0.0.1:${node.grpcPort}`))).to.equal(
        true,
      );
      expect(logger.lines.some((l) => l.includes(`REST API listening on http://127.0.0.1:${node.restPort}/`))).to.equal(
        true,
      );
      for (const text of ['one', 'two', 'three']) ids.push((await call(client, 'submitBlock', json(text))).blockId);
      for (const id of ids) {
        const block = await call(client, 'getBlock', { blockId: id, view: BlockView.BLOCK_VIEW_UNSPECIFIED });
        const md = await call(client, 'getBlockMetadata', { blockId: id });
        before.set(toHex0x(id), { raw: block.raw, json: block.json, md });
      }
      // the REST gateway runs in the process, against the same node
      const info = (await (await fetch(`http://127.0.0.1:${node.restPort}/api/core/v2/info`)).json()) as {
        name: string;
        version: string;
        protocol: { networkName: string; minPowScore: number };
        features: string[];
      };
      expect([
        info.name,
        info.version,
        info.protocol.networkName,
        info.protocol.minPowScore,
        info.features,
      ]).to.deep.equal(['ledger-node', packageVersion(), 'ledger-dev', 10, ['pow']]);
      const rest = await fetch(`http://127.0.0.1:${node.restPort}/api/core/v2/blocks/${toHex0x(ids[2]!)}`, {
        headers: { accept: 'application/vnd.iota.serializer-v1' },
      });
      expect(new Uint8Array(await rest.arrayBuffer())).to.deep.equal(
        (before.get(toHex0x(ids[2]!)) as { raw: Uint8Array }).raw,
      );
    } finally {
      client.close();
      await node.stop();
      await node.stop(); // twice is fine
    }
    const genesis = genesisFromJson(JSON.parse(readFileSync(join(dir.path, 'genesis.json'), 'utf8')));
    expect(genesis.protocol).to.deep.equal(node.testing.protocol.current);
    expect(genesis.solidEntryPoints).to.deep.equal([new Uint8Array(32)]);

    const logger2 = new CollectingLogger();
    node = await startOn(
      dir.path,
      { minPowScore: 99, minPowScoreExplicit: true },
      {
        logger: logger2,
        rest: false,
      },
    );
    client = clientOf(node);
    try {
      expect(logger2.lines.some((l) => l.includes('created network'))).to.equal(false);
      expect(logger2.lines.some((l) => l.includes('--min-pow-score 99 ignored'))).to.equal(true);
      expect(node.restPort).to.equal(undefined);
      for (const id of ids) {
        const block = await call(client, 'getBlock', { blockId: id, view: BlockView.BLOCK_VIEW_UNSPECIFIED });
        const md = await call(client, 'getBlockMetadata', { blockId: id });
        expect({ raw: block.raw, json: block.json, md }).to.deep.equal(before.get(toHex0x(id)));
      }
      // The tip pools live in memory: a restart refills them from the stored blocks without children.
      const tips = (await call(client, 'getTips', { allowSemiLazy: false })).tips.map(toHex0x);
      const withoutChildren = (await node.testing.store.tips()).map(toHex0x);
      expect(tips).to.not.be.empty;
      expect(withoutChildren).to.include.members(tips);
      const info = await call(client, 'getInfo', {});
      expect(info.protocol!.minPowScore).to.equal(10);
      // and the node keeps working on the restored state
      const next = (await call(client, 'submitBlock', json('four'))).blockId;
      const md = await call(client, 'getBlockMetadata', { blockId: next });
      expect(md.parents.map(toHex0x)).to.deep.equal([toHex0x(ids[2]!)]);
      expect(md.isSolid).to.equal(true);
    } finally {
      client.close();
      await node.stop();
    }
  });

  it("starts from --genesis; refuses another network's genesis on the same folder, and a folder in use", async () => {
    const genesisFile = join(dir.path, 'my-genesis.json');
    const g = {
      ...devGenesis({ minPowScore: 0, timestamp: 1700000000 }),
      baseToken: { name: 'Test', tickerSymbol: 'TST', unit: 'TST', decimals: 0, useMetricPrefix: false },
    };
    g.protocol = { ...g.protocol, networkName: 'my-test-net', bech32Hrp: 'tst' };
    writeFileSync(genesisFile, JSON.stringify(genesisToJson(g)));
    const node = await startOn(
      dir.path,
      { genesis: genesisFile, powWorkers: 0 },
      {
        logger: new CollectingLogger(),
        rest: false,
      },
    );
    const client = clientOf(node);
    try {
      const info = await call(client, 'getInfo', {});
      expect([info.protocol!.networkName, info.protocol!.bech32Hrp, info.baseToken!.name, info.features]).to.deep.equal(
        ['my-test-net', 'tst', 'Test', []],
      );
      // min PoW score 0: no PoW needed, so PoW being off does not matter
      const id = (await call(client, 'submitBlock', json('free'))).blockId;
      expect(id).to.have.length(32);
      expect(JSON.parse(readFileSync(join(dir.path, 'genesis.json'), 'utf8'))).to.deep.equal(genesisToJson(g));
      // a second node on the same folder
      let locked: unknown;
      try {
        await startOn(dir.path, {}, { logger: new CollectingLogger(), rest: false });
      } catch (e) {
        locked = e;
      }
      expect(locked).to.have.property('code', 'STORE_LOCKED');
    } finally {
      client.close();
      await node.stop();
    }
    const other = join(dir.path, 'other-genesis.json');
    writeFileSync(other, JSON.stringify(genesisToJson(devGenesis({ minPowScore: 0 }))));
    let mismatch: unknown;
    try {
      await startOn(dir.path, { genesis: other }, { logger: new CollectingLogger(), rest: false });
    } catch (e) {
      mismatch = e;
    }
    expect(mismatch).to.be.instanceOf(ConfigError);
    expect((mismatch as Error).message).to.contain('belongs to network "my-test-net"');
  });

  it("keeps its folder's storage engine: followed without --db-engine, refused when the other is named", async () => {
    const logger = new CollectingLogger();
    let node = await startOn(
      dir.path,
      { dbEngine: 'leveldb', dbEngineExplicit: true, powWorkers: 0 },
      {
        logger,
        rest: false,
      },
    );
    const client = clientOf(node);
    const info = await call(client, 'getInfo', {});
    client.close();
    await node.stop();
    expect([existsSync(join(dir.path, 'db')), existsSync(join(dir.path, 'db-rocksdb'))]).to.deep.equal([true, false]);
    // The default engine (not asked for) applies to new folders only: this one opens with LevelDB again.
    node = await startOn(dir.path, { dbEngine: 'rocksdb', powWorkers: 0 }, { logger, rest: false });
    const again = clientOf(node);
    expect((await call(again, 'getInfo', {})).protocol).to.deep.equal(info.protocol);
    again.close();
    await node.stop();
    let refused: unknown;
    try {
      await startOn(dir.path, { dbEngine: 'rocksdb', dbEngineExplicit: true }, { logger, rest: false });
    } catch (e) {
      refused = e;
    }
    expect(refused).to.have.property('code', 'STORE_OPEN_FAILED');
    expect((refused as Error).message)
      .to.contain('holds a LevelDB store')
      .and.contain('run with --db-engine leveldb');
    expect(existsSync(join(dir.path, 'db-rocksdb'))).to.equal(false);
  });

  it('with --pow-workers 0 and a non-zero min score, auto-fill answers UNAVAILABLE with the SDK phrase', async () => {
    const node = await startOn(dir.path, { powWorkers: 0 }, { logger: new CollectingLogger(), rest: false });
    const client = clientOf(node);
    try {
      const e = await failure(call(client, 'submitBlock', json('no pow')));
      expect(e.code).to.equal('POW_UNAVAILABLE');
      expect(e.message).to.contain('proof of work is not available on this node');
      expect((await call(client, 'getInfo', {})).features).to.deep.equal([]);
    } finally {
      client.close();
      await node.stop();
    }
  });
});
