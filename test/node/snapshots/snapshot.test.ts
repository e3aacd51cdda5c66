/**
 * Snapshots, round trip: a whole node (harness/node.ts `startConfiguredNode`, RocksDB in a temp folder) with
 * transfers over several milestones stops; `ledger-node tool snapshot` writes its snapshot; a node started with
 * `--genesis <snapshot>` on a new folder has the same unspent outputs, indexer answers and /info confirmed milestone,
 * keeps confirming milestones from its coordinator (the dev keys came with the snapshot) and includes transfers of the
 * snapshot's outputs; `tool check` passes on it. Then the protected REST control routes of a running node: prune by
 * depth, and a snapshot of the pruned node (written into `<data-dir>/snapshots/`) that starts another node with the
 * same ledger; without a token both are 403. And the parts of a ledger a snapshot must carry besides outputs:
 * receipts, the treasury, pending protocol parameter changes. */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transactionIdOf } from '../../../src/core/ids/index.ts';
import { BlockView } from '../../../src/grpc/gen/node.ts';
import { signJwtHs256 } from '../../../gateway/index.ts';
import { toolCheck } from '../../../src/cli/tool-check.ts';
import { toolSnapshot } from '../../../src/cli/tool-snapshot.ts';
import { genesisFromJson, genesisToJson, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { encodeProtocolParameters } from '../../../src/core/codec/index.ts';
import type { ReceiptMilestoneOption } from '../../../src/core/model/index.ts';
import { MemoryKeyValueStore } from '../../../src/core/store/index.ts';
import { writeSnapshot } from '../../../src/node/snapshots/snapshot.ts';
import { readGenesisFile } from '../../../src/node/genesis/open-network.ts';
import { addressOf, type Coin, transfer } from '../support.ts';
import {
  genesisCoins,
  ledgerView,
  milestones,
  openNode,
  OTHER_SEED,
  submit,
  tagged,
  testGenesis,
  walletSeed,
} from '../pruning/support.ts';
import { startConfiguredNode, type ConfiguredNode } from '../../../harness/node.ts';

const SECRET = 'snapshot-test-secret';

async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const [log, err] = [console.log, console.error];
  console.log = () => undefined;
  console.error = () => undefined;
  try {
    return await fn();
  } finally {
    console.log = log;
    console.error = err;
  }
}

/** The whole node on `dataDir` from `genesisFile`; its coordinator issues only when asked. */
function start(dataDir: string, genesisFile: string): Promise<ConfiguredNode> {
  return startConfiguredNode(
    { powWorkers: 0, genesis: genesisFile, milestoneInterval: 3600, validationInterval: 0 },
    { dataDir, restJwtSecret: SECRET },
  );
}

/** Unspent outputs (metadata JSON), the indexer's basic outputs of both wallets, and the confirmed milestone. */
async function ledgerAndMilestone(node: ConfiguredNode, g: Genesis): Promise<string[]> {
  const { testing } = node.node;
  const confirmed = (await testing.status.info()).confirmedMilestone;
  const hex = (_k: string, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v);
  return [...(await ledgerView(testing, g)), JSON.stringify(confirmed, hex)];
}

async function post(
  node: ConfiguredNode,
  path: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${node.rest}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe('snapshots: tool snapshot, run --genesis <snapshot>, the control routes', function () {
  this.timeout(120000);
  const g = testGenesis();
  let dir: string;
  let genesisFile: string;
  let paid: Coin;
  let view: string[];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'snapshot-test-'));
    genesisFile = join(dir, 'genesis.json');
    writeFileSync(genesisFile, JSON.stringify(genesisToJson(g)));
    const node = await start(join(dir, 'a'), genesisFile);
    try {
      const { testing } = node.node;
      const t1 = transfer(g, walletSeed(g), genesisCoins(g)[0]!, addressOf(OTHER_SEED), 2_000_000n);
      await submit(testing, t1.tx);
      await milestones(testing, 2);
      const t2 = transfer(g, OTHER_SEED, t1.paid, addressOf(walletSeed(g)), 1_000_000n);
      await submit(testing, t2.tx);
      await submit(testing, tagged('x'));
      await milestones(testing, 3);
      paid = t2.change;
      view = await ledgerAndMilestone(node, g);
    } finally {
      await node.stop();
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("tool snapshot writes a stopped node's snapshot; a new node starts from it with the same ledger", async () => {
    const file = join(dir, 'snapshot.json');
    expect(await quietly(() => toolSnapshot(['--data-dir', join(dir, 'a'), '--out', file]))).to.equal(0);
    const snap = readGenesisFile(file);
    expect(snap.milestone.index).to.equal(5);
    expect(snap.coordinator).to.deep.equal(g.coordinator);
    const node = await start(join(dir, 'b'), file);
    try {
      const { testing } = node.node;
      expect(await ledgerAndMilestone(node, g)).to.deep.equal(view);
      expect((await testing.status.info()).pruningIndex).to.equal(5);
      const t3 = transfer(g, OTHER_SEED, paid, addressOf(walletSeed(g)), 100_000n);
      const blockId = await submit(testing, t3.tx);
      const issued = await testing.coordinator!.issue();
      expect(issued.index).to.equal(6);
      await milestones(testing, 2);
      const included = await testing.service.getIncludedBlock({
        transactionId: transactionIdOf(t3.tx),
        view: BlockView.BLOCK_VIEW_RAW,
      });
      expect(included.blockId).to.deep.equal(blockId);
    } finally {
      await node.stop();
    }
    expect(await quietly(() => toolCheck(['--data-dir', join(dir, 'b')]))).to.equal(0);
  });

  it('tool snapshot --index N writes the ledger at milestone N (the diffs above it rolled back)', async () => {
    const file = join(dir, 'snapshot-2.json');
    expect(await quietly(() => toolSnapshot(['--data-dir', join(dir, 'a'), '--out', file, '--index', '2']))).to.equal(
      0,
    );
    const snap = readGenesisFile(file);
    expect(snap.milestone.index).to.equal(2);
    const t1 = transfer(g, walletSeed(g), genesisCoins(g)[0]!, addressOf(OTHER_SEED), 2_000_000n);
    const ids = (snap.outputs as { outputId: string }[]).map((o) => o.outputId);
    const hex = (c: Coin): string => `0x${Buffer.from(c.outputId).toString('hex')}`;
    expect(ids).to.deep.equal([hex(genesisCoins(g)[1]!), hex(t1.paid), hex(t1.change)].sort());
  });

  it('refuses bad arguments and an index out of range', async () => {
    expect(await quietly(() => toolSnapshot(['--data-dir', join(dir, 'a')]))).to.equal(2);
    expect(
      await quietly(() => toolSnapshot(['--data-dir', join(dir, 'a'), '--out', join(dir, 'x.json'), '--index', '99'])),
    ).to.equal(1);
    expect(existsSync(join(dir, 'x.json'))).to.equal(false);
  });

  it('the protected control routes prune a node and snapshot it; the snapshot starts a node, same ledger', async () => {
    const node = await start(join(dir, 'a'), genesisFile);
    let file: string;
    let pruned: string[];
    try {
      await milestones(node.node.testing, 25, 1);
      const token = signJwtHs256({ sub: 'operator' }, SECRET);
      expect((await post(node, '/api/core/v2/control/database/prune', { depth: 22 })).status).to.equal(403);
      const prune = await post(node, '/api/core/v2/control/database/prune', { depth: 22 }, token);
      expect(prune).to.deep.equal({ status: 200, json: { index: 30 - 22 } });
      expect((await post(node, '/api/core/v2/control/database/prune', { index: 1 }, token)).status).to.equal(400);
      expect((await post(node, '/api/core/v2/control/database/prune', { index: 1, depth: 2 }, token)).status).to.equal(
        400,
      );
      expect((await post(node, '/api/core/v2/control/snapshots/create', { index: 30 })).status).to.equal(403);
      expect((await post(node, '/api/core/v2/control/snapshots/create', { index: 3 }, token)).status).to.equal(400);
      const created = await post(node, '/api/core/v2/control/snapshots/create', { index: 30 }, token);
      expect(created.status).to.equal(200);
      file = created.json['filePath'] as string;
      expect(created.json['index']).to.equal(30);
      expect(file).to.equal(join(dir, 'a', 'snapshots', 'snapshot-30.json'));
      pruned = await ledgerAndMilestone(node, g);
    } finally {
      await node.stop();
    }
    expect(JSON.parse(readFileSync(file, 'utf8')).milestone.index).to.equal(30);
    const fresh = await start(join(dir, 'c'), file);
    try {
      expect(await ledgerAndMilestone(fresh, g)).to.deep.equal(pruned);
      expect((await fresh.node.testing.coordinator!.issue()).index).to.equal(31);
    } finally {
      await fresh.stop();
    }
    expect(await quietly(() => toolCheck(['--data-dir', join(dir, 'a')]))).to.equal(0);
  });
});

describe('snapshots: receipts, treasury and pending protocol parameters carry over', function () {
  this.timeout(60000);

  it('a node started from the snapshot lists the same receipts, treasury and pending protocol parameters', async () => {
    const TREASURY = 10_000_000n;
    const treasuryMilestone = new Uint8Array(32).fill(0x77);
    const json = genesisToJson(testGenesis()) as { outputs: { output: { amount: string } }[]; treasury?: unknown };
    json.outputs[0]!.output.amount = (BigInt(json.outputs[0]!.output.amount) - TREASURY).toString();
    json.treasury = { milestoneId: `0x${Buffer.from(treasuryMilestone).toString('hex')}`, amount: TREASURY.toString() };
    const g = genesisFromJson(JSON.parse(JSON.stringify(json)));
    const node = await openNode(new MemoryKeyValueStore(), g);
    const { testing } = node;
    const dir = mkdtempSync(join(tmpdir(), 'snapshot-receipts-'));
    try {
      const receipt: ReceiptMilestoneOption = {
        type: 0,
        migratedAt: 5,
        final: false,
        funds: [
          { tailTransactionHash: new Uint8Array(49).fill(9), address: addressOf(OTHER_SEED), deposit: 1_000_000n },
        ],
        transaction: {
          type: 4,
          input: { type: 1, milestoneId: treasuryMilestone },
          output: { type: 2, amount: TREASURY - 1_000_000n },
        },
      };
      await testing.coordinator!.issue([receipt]);
      const raised = { ...testing.protocol.current, minPowScore: 7 };
      await testing.coordinator!.issue([
        { type: 1, targetMilestoneIndex: 10, protocolVersion: 2, params: encodeProtocolParameters(raised) },
      ]);
      await milestones(testing, 1);
      const file = join(dir, 'snapshot.json');
      await writeSnapshot({ store: testing.store, network: testing.network, genesis: g, hold: (fn) => fn() }, file);
      const snap = readGenesisFile(file);
      expect(snap.receipts!.map((r) => r.milestoneIndex)).to.deep.equal([1]);
      expect(snap.protocolParametersChanges!.map((c) => [c.targetMilestoneIndex, c.announcedAt])).to.deep.equal([
        [10, 2],
      ]);
      const fresh = await openNode(new MemoryKeyValueStore(), snap);
      try {
        for (const m of ['getReceipts', 'getTreasury'] as const) {
          const [a, b] = [await testing.service[m]({}), await fresh.testing.service[m]({})];
          expect(b.json, m).to.equal(a.json);
        }
        expect((await fresh.testing.status.info()).pendingProtocolParameters).to.deep.equal(
          (await testing.status.info()).pendingProtocolParameters,
        );
        for (let i = 0; i < 7; i++) await fresh.testing.coordinator!.issue();
        expect(fresh.testing.protocol.current.minPowScore).to.equal(7);
      } finally {
        await fresh.close();
      }
    } finally {
      await node.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
