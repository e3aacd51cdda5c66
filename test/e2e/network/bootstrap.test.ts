/**
 * Issue 15, bootstrap from a peer: node A (a dev network, transfers, a few milestones) serves its snapshot over the
 * peer service; node B, started on an empty data folder with `--peer A` and A's genesis file for the milestone keys
 * (`--genesis-keys`), starts from it with A's unspent outputs, indexer answers and confirmed milestone, then follows
 * A's new milestones. A fake peer serving a tampered snapshot (bad milestone signature, wrong hash, truncated,
 * oversize, a ledger that does not hold the supply) is refused with a log line naming the reason, nothing is
 * written to the store, and the node goes on to the next peer or does not start; a cut download is resumed.
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { toHex, toHex0x } from '../../../src/core/bytes.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import { LEDGER_TABLES } from '../../../src/core/ledger/index.ts';
import type { BasicOutput } from '../../../src/core/model/index.ts';
import { META } from '../../../src/core/store/index.ts';
import { readSnapshotFile } from '../../../src/node/snapshots/format.ts';
import { genesisFromJson, genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { devWalletOf, ledgerGenesisOf } from '../../../src/node/genesis/genesis-ledger.ts';
import type { RunningNode } from '../../../src/node/node.ts';
import { writeSnapshot } from '../../../src/node/snapshots/snapshot.ts';
import { engineOfDataDir } from '../../../src/storage/open.ts';
import { getJson, waitFor } from '../ledger/support.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import {
  addressOf,
  fakePeer,
  FAST_BOOTSTRAP,
  startBootstrapping,
  submit,
  transfer,
  type Coin,
  type FakePeer,
  type FakeSnapshot,
} from './bootstrap-support.ts';
import { NetNode, tempRoot, writeGenesis } from './support.ts';

const OTHER = new Uint8Array(32).fill(0x42);

describe("e2e network: a new node bootstraps from a peer's snapshot", function () {
  this.timeout(120_000);
  const tmp = tempRoot();
  let file: string;
  let a: NetNode;
  let b: RunningNode | undefined;
  let wallet: Coin;
  let seed: Uint8Array;
  let networkName: string;
  let snapshot: FakeSnapshot;
  const running: RunningNode[] = [];

  const unspent = async (n: RunningNode): Promise<string[]> => {
    const ids: string[] = [];
    for await (const id of n.testing.store.keys(LEDGER_TABLES.unspent)) ids.push(toHex(id));
    return ids;
  };
  const confirmed = async (n: RunningNode): Promise<number> => (await n.testing.store.getMeta(META.ledgerIndex)) ?? -1;
  const rest = (n: RunningNode): string => `http://127.0.0.1:${n.restPort}`;

  async function pay(amount: bigint): Promise<Uint8Array> {
    const t = transfer(networkName, seed, wallet, addressOf(OTHER), amount);
    wallet = t.change;
    return submit(a.running.parts, t.tx);
  }

  before(async () => {
    const g = devNetworkGenesis({
      minPowScore: 0,
      milestoneInterval: 3600,
      timestamp: Math.floor(Date.now() / 1000) - 600,
      funds: [toHex0x(OTHER)],
    });
    const json = genesisToJson(g);
    file = writeGenesis(tmp.root, json, 'genesis-a.json');
    const parsed = genesisFromJson(JSON.parse(JSON.stringify(json)));
    networkName = parsed.protocol.networkName;
    seed = devWalletOf(parsed)!.seed;
    const coin = ledgerGenesisOf(parsed).unspentOutputs[0]!;
    wallet = { outputId: coin.outputId, output: coin.output as BasicOutput };
    a = new NetNode('a', tmp.root, {
      genesis: file,
      minPowScore: 0,
      milestoneInterval: 3600,
      coordinator: true,
      validationInterval: 0,
    });
    await a.start();
    const parts = a.running.parts;
    // transfers in the first milestones, then enough milestones for a snapshot (belowMaxDepth + 5 below the confirmed)
    for (let m = 0; m < 3; m++) await pay(1_000_000n + BigInt(m)).then(() => parts.coordinator!.issue());
    for (let m = 3; m < 25; m++) await parts.coordinator!.issue();
    await waitFor('A confirms 25 milestones', async () => ((await confirmed(a.running)) >= 25 ? true : undefined));
  });
  after(async () => {
    for (const n of [b, ...running]) await n?.stop();
    await a?.stop();
    tmp.remove();
  });

  it("B starts from A's snapshot: same unspent outputs, indexer answers and confirmed milestone", async () => {
    const latest = await confirmed(a.running);
    const index = latest - 20; // belowMaxDepth 15 + 5
    const dir = join(tmp.root, 'b');
    const started = await startBootstrapping(dir, { genesisKeys: file, peers: [a.peerTarget] });
    b = started.node;
    const log = started.logger.lines.join('\n');
    expect(log).to.contain(`offers the snapshot of milestone ${index}`);
    expect(log).to.contain("its milestone is signed by the network's keys");
    expect(log).to.contain(`the store starts at milestone ${index}`);
    expect(await confirmed(b)).to.be.within(index, latest);
    // the ledger did not change after milestone 3: A's now is A's at the snapshot
    expect(await unspent(b)).to.deep.equal(await unspent(a.running));
    await waitFor('B syncs the milestones after the snapshot', async () =>
      (await confirmed(b!)) === latest ? true : undefined,
    );
    const info = (n: RunningNode) => getJson(`${rest(n)}/api/core/v2/info`);
    expect((await info(b)).body.status.confirmedMilestone).to.deep.equal(
      (await info(a.running)).body.status.confirmedMilestone,
    );
    for (const who of [OTHER, seed]) {
      const address = bech32EncodeAddress('rms', addressOf(who));
      const url = (n: RunningNode) => `${rest(n)}/api/indexer/v1/outputs/basic?address=${address}`;
      const [fromA, fromB] = [await getJson(url(a.running)), await getJson(url(b))];
      expect(fromB.status).to.equal(200);
      expect(fromB.body.items).to.deep.equal(fromA.body.items);
      expect(fromB.body.items.length).to.be.greaterThan(0);
      for (const id of fromA.body.items as string[])
        expect((await getJson(`${rest(b)}/api/core/v2/outputs/${id}`)).body).to.deep.equal(
          (await getJson(`${rest(a.running)}/api/core/v2/outputs/${id}`)).body,
        );
      // the explorer's balance: the snapshot's outputs came with their aggregates
      const balance = (n: RunningNode) => getJson(`${rest(n)}/api/explorer/v2/balance/${address}`);
      expect((await balance(b)).body).to.deep.equal((await balance(a.running)).body);
    }
    const richest = (n: RunningNode) => getJson(`${rest(n)}/api/explorer/v2/ledger/richest-addresses`);
    expect((await richest(b)).body).to.deep.equal((await richest(a.running)).body);
    expect(existsSync(join(dir, 'bootstrap'))).to.equal(false);
    expect(readFileSync(join(dir, 'genesis.json'), 'utf8')).to.equal(readFileSync(file, 'utf8'));
  });

  it("B follows A's new milestones and transfers after the snapshot", async () => {
    const from = await confirmed(a.running);
    const blockId = await pay(1_000_007n);
    await a.running.testing.coordinator!.issue();
    await a.running.testing.coordinator!.issue();
    await waitFor(
      "B confirms A's new milestones",
      async () => ((await confirmed(b!)) >= from + 2 ? true : undefined),
      30_000,
    );
    expect((await b!.testing.store.getBlockMetadata(blockId))?.referenced?.ledgerInclusionState).to.equal('included');
    await waitFor('the same ledger', async () =>
      (await confirmed(a.running)) === (await confirmed(b!)) ? true : undefined,
    );
    expect(await unspent(b!)).to.deep.equal(await unspent(a.running));
  });

  describe('a peer serving a tampered snapshot', () => {
    before(async () => {
      const parts = a.running.parts;
      const out = join(tmp.root, 'a-snapshot.json');
      const written = await writeSnapshot(
        { store: parts.store, network: parts.network, hold: (fn) => parts.attacher.exclusive(fn) },
        out,
        { index: (await confirmed(a.running)) - 20 },
      );
      const reading = await readSnapshotFile(out);
      const record = await parts.store.milestone(written.index);
      const milestoneBlock = (await parts.store.getBlock(record!.blockId))!;
      snapshot = {
        offer: {
          index: written.index,
          size: BigInt(reading.bytes),
          hash: reading.fileHash,
          ledgerHash: reading.ledgerHash,
          milestoneBlock,
        },
        bytes: new Uint8Array(readFileSync(out)),
      };
    });

    /**
     * Starts a node against a fake peer serving `serve` (then `extra` peers); its log, and the node when it started.
     */
    async function against(
      name: string,
      serve: FakeSnapshot,
      extra: string[] = [],
    ): Promise<{ log: string; node?: RunningNode; fake: FakePeer }> {
      const fake = await fakePeer(networkName, serve);
      const dir = join(tmp.root, name);
      const logger = new CollectingLogger();
      try {
        const { node } = await startBootstrapping(
          dir,
          { genesisKeys: file, peers: [fake.address, ...extra] },
          FAST_BOOTSTRAP,
          logger,
        );
        running.push(node);
        return { log: logger.lines.join('\n'), node, fake };
      } catch (e) {
        expect((e as Error).message).to.contain('bootstrap failed: none of the peers');
        expect(engineOfDataDir(dir)).to.equal(undefined); // nothing was written to a store
        expect(existsSync(join(dir, 'genesis.json'))).to.equal(false);
        return { log: logger.lines.join('\n'), fake };
      } finally {
        await fake.close();
      }
    }

    it("refuses a milestone not signed by the network's keys before downloading anything", async () => {
      const block = snapshot.offer.milestoneBlock.slice();
      block[block.length - 20] ^= 0xff; // inside the last signature
      const r = await against('bad-signature', { ...snapshot, offer: { ...snapshot.offer, milestoneBlock: block } }, [
        a.peerAddress,
      ]);
      expect(r.log).to.match(
        /snapshot of peer 127\.0\.0\.1:\d+ refused: milestone \d+ is not signed by the network's milestone keys/,
      );
      expect(r.fake.offsets).to.deep.equal([]);
      expect(r.node).to.not.equal(undefined); // then bootstrapped from A, and synced up to it
      await waitFor('the same ledger as A', async () =>
        (await confirmed(r.node!)) === (await confirmed(a.running)) ? true : undefined,
      );
      expect(await unspent(r.node!)).to.deep.equal(await unspent(a.running));
      await r.node!.stop(); // in-process nodes share one connection to A, whose peer door allows 4 streams on it
    });

    it('refuses bytes whose hash is not the offered one, a truncated stream and an oversize offer', async () => {
      const flipped = snapshot.bytes.slice();
      flipped[flipped.length - 100] ^= 0x01;
      for (const [name, serve, reason] of [
        ['wrong-hash', { ...snapshot, bytes: flipped }, /the file's BLAKE2b-256 0x[0-9a-f]+ is not the offered/],
        [
          'truncated',
          { ...snapshot, cut: Math.floor(snapshot.bytes.length / 2) },
          /truncated: the stream ended after \d+ of the offered \d+ bytes/,
        ],
        [
          'oversize',
          { ...snapshot, offer: { ...snapshot.offer, size: 1n << 40n } },
          /oversize: 1099511627776 bytes offered/,
        ],
      ] as const) {
        const r = await against(name, serve, [a.peerAddress]);
        expect(r.log, name).to.match(reason);
        expect(r.node, name).to.not.equal(undefined);
        await r.node!.stop();
      }
    });

    it('refuses a consistent file whose ledger lacks the token supply; no start without another peer', async () => {
      const text = new TextDecoder().decode(snapshot.bytes);
      // one output holds a unit less: each output still parses, the sum no longer is the supply (Hornet's check)
      const shrunk = text.replace(/"amount":"(\d+)"/, (_m, n: string) => `"amount":"${BigInt(n) - 1n}"`);
      const path = join(tmp.root, 'shrunk.json');
      writeFileSync(path, shrunk);
      const reading = await readSnapshotFile(path);
      const serve: FakeSnapshot = {
        offer: {
          ...snapshot.offer,
          size: BigInt(reading.bytes),
          hash: reading.fileHash,
          ledgerHash: reading.ledgerHash,
        },
        bytes: new Uint8Array(readFileSync(path)),
      };
      const r = await against('shrunk', serve);
      expect(r.node).to.equal(undefined);
      expect(r.log).to.match(/refused: its outputs and treasury hold \d+, not the token supply \d+/);
    });

    it('resumes a cut download where it stopped when the peer offers the same file again', async () => {
      const fake = await fakePeer(networkName, { ...snapshot, cut: Math.floor(snapshot.bytes.length / 2) });
      const dir = join(tmp.root, 'resumed');
      const first = await startBootstrapping(dir, { genesisKeys: file, peers: [fake.address] }).catch((e: Error) => e);
      expect(first).to.be.instanceOf(Error);
      fake.serve = snapshot;
      const { node, logger } = await startBootstrapping(dir, { genesisKeys: file, peers: [fake.address] });
      running.push(node);
      await fake.close();
      expect(fake.offsets[0]).to.equal(0n);
      expect(Number(fake.offsets[1])).to.be.greaterThan(0);
      expect(logger.lines.join('\n')).to.match(/resumed at \d+/);
      expect(await confirmed(node)).to.equal(snapshot.offer.index);
      await node.stop();
    });
  });
  describe('a peer that has pruned', () => {
    it('serves a snapshot above its pruning index; the new node reaches its ledger and balances', async () => {
      const parts = a.running.parts;
      await pay(2_000_000n).then(() => parts.coordinator!.issue());
      for (let m = 0; m < 4; m++) await parts.coordinator!.issue();
      const pruned = await parts.pruner.prune({ index: (await confirmed(a.running)) - 20 });
      expect(pruned).to.be.greaterThan(0);
      const { node, logger } = await startBootstrapping(join(tmp.root, 'after-prune'), {
        genesisKeys: file,
        peers: [a.peerAddress],
      });
      running.push(node);
      expect(logger.lines.join('\n')).to.match(/offers the snapshot of milestone (\d+)/);
      const offered = Number(/offers the snapshot of milestone (\d+)/.exec(logger.lines.join('\n'))![1]);
      expect(offered).to.be.greaterThan(pruned);
      await waitFor("the pruned peer's ledger", async () =>
        (await confirmed(node)) === (await confirmed(a.running)) ? true : undefined,
      );
      expect(await unspent(node)).to.deep.equal(await unspent(a.running));
      for (const who of [OTHER, seed]) {
        const url = (n: RunningNode) =>
          `${rest(n)}/api/indexer/v1/outputs/basic?address=${bech32EncodeAddress('rms', addressOf(who))}`;
        expect((await getJson(url(node))).body.items).to.deep.equal((await getJson(url(a.running))).body.items);
      }
    });
  });
});
