/**
 * The consistency checker on a real store: a dev-network node (the default engine in a temp folder, fast milestones)
 * takes tagged-data blocks and transfers, stops, and the checker passes; then single corruptions of every kind it
 * checks (block bytes, metadata, children, transaction index, solidity, tips, UTXO tables, diffs, included-block index,
 * referenced metadata, ledger meta) are written one at a time, each reported precisely, and undone again.
 * Also `tool check`'s exit codes.
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toHex0x } from '../../../src/core/bytes.ts';
import { INDEXER_TABLES, LEDGER_TABLES, positionOf } from '../../../src/core/ledger/index.ts';
import { META, NodeStore, TABLES, type BlockMetadata, type KeyValueStore } from '../../../src/core/store/index.ts';
import { openDataDirStore } from '../../../src/storage/open.ts';
import { toolCheck } from '../../../src/cli/tool-check.ts';
import { checkStore, type CheckOptions } from '../../../src/node/check/consistency.ts';
import { checkDataDir } from '../../../src/node/check/data-dir.ts';
import { genesisFromJson, genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { ledgerGenesisOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { quietly } from '../../../harness/console.ts';
import { startConfiguredNode } from '../../../harness/node.ts';
import { makeLanes, postTagged, readDevWallet, request, type Ack, type Target } from '../../../harness/crash/load.ts';
import { readFileSync } from 'node:fs';

describe('e2e crash: the consistency checker', function () {
  this.timeout(60000);
  let dir: string;
  let dataDir: string;
  let kv: KeyValueStore;
  let store: NodeStore;
  let options: CheckOptions;
  const acks: Ack[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'check-test-'));
    dataDir = join(dir, 'data');
    const genesisFile = join(dir, 'genesis.json');
    writeFileSync(
      genesisFile,
      JSON.stringify(genesisToJson(devNetworkGenesis({ minPowScore: 10, milestoneInterval: 0.1 }))),
    );
    const node = await startConfiguredNode({ powWorkers: 1, genesis: genesisFile }, { dataDir });
    try {
      const target: Target = { base: node.rest };
      const lanes = await makeLanes(target, acks, readDevWallet(dataDir), 2);
      for (let i = 0; i < 20; i++) await postTagged(target, acks, 'check', `b${i}`);
      for (let i = 0; i < 6; i++) {
        for (const l of lanes) await l.step(target, acks, 2000);
        await new Promise((r) => setTimeout(r, 150));
      }
      // Wait until everything acknowledged is referenced, so the corruptions below have ledger data to hit.
      const until = Date.now() + 20000;
      for (const a of acks) {
        for (;;) {
          const md = await request(target, `/api/core/v2/blocks/${a.blockId}/metadata`);
          if ((md.body as { referencedByMilestoneIndex?: number }).referencedByMilestoneIndex !== undefined) break;
          if (Date.now() > until) throw new Error(`${a.blockId} not referenced in time`);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    } finally {
      await node.stop();
    }
    kv = await openDataDirStore(dataDir);
    store = new NodeStore(kv);
    options = { genesis: ledgerGenesisOf(genesisFromJson(JSON.parse(readFileSync(genesisFile, 'utf8')))) };
  });
  after(async () => {
    await kv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes on the store the node left, with the ledger replayed', async () => {
    const r = await checkStore(store, options);
    expect(r.differences).to.deep.equal([]);
    expect(r.ok).to.equal(true);
    expect(r.summary.ledgerReplay).to.equal('done');
    expect(r.summary.milestonesReplayed).to.be.greaterThan(0);
    expect(r.summary.blocks).to.be.greaterThan(acks.length);
    expect(r.summary.referenced).to.be.greaterThanOrEqual(acks.length);
    expect(acks.filter((a) => a.kind === 'transfer').length).to.be.greaterThan(2);
  });

  /** Writes `corrupt`, expects a difference matching `pattern`, then restores the raw keys it touched. */
  async function expectDetected(keys: Uint8Array[], corrupt: () => Promise<void>, pattern: RegExp): Promise<void> {
    const saved = await kv.getMany(keys);
    await corrupt();
    try {
      const r = await checkStore(store, options);
      expect(r.ok, 'check should fail').to.equal(false);
      expect(
        r.differences.some((d) => pattern.test(d)),
        `no difference matches ${pattern}:\n${r.differences.join('\n')}`,
      ).to.equal(true);
    } finally {
      await kv.write(
        keys.map((key, i) =>
          saved[i] === undefined ? { type: 'del' as const, key } : { type: 'put' as const, key, value: saved[i]! },
        ),
      );
    }
    expect((await checkStore(store, options)).ok, 'restored store passes').to.equal(true);
  }

  const key = (table: { prefix: number; key: { encode(k: never): Uint8Array } }, k: unknown): Uint8Array => {
    const body = table.key.encode(k as never);
    const out = new Uint8Array(body.length + 1);
    out[0] = table.prefix;
    out.set(body, 1);
    return out;
  };
  const anyTx = async (): Promise<{ tx: Uint8Array; block: Uint8Array }> => {
    for await (const [tx, block] of store.entries(TABLES.includedBlock)) return { tx, block };
    throw new Error('no included transaction');
  };
  /** The last unspent (or spent) output ID and the key of its indexByType entry. */
  const lastOutput = async (which: 'unspent' | 'spent'): Promise<{ id: Uint8Array; indexKey: Uint8Array }> => {
    let id: Uint8Array | undefined;
    const ids = which === 'unspent' ? store.keys(LEDGER_TABLES.unspent) : store.keys(LEDGER_TABLES.spent);
    for await (const k of ids) id = k;
    const record = (await store.get(LEDGER_TABLES.outputs, id!))!;
    const position = positionOf(record.milestoneTimestampBooked, id!);
    return { id: id!, indexKey: key(INDEXER_TABLES.byType, { outputType: record.output.type, position }) };
  };
  const tagged = (): Uint8Array =>
    Uint8Array.from(Buffer.from(acks.find((a) => a.kind === 'tagged')!.blockId.slice(2), 'hex'));

  it('reports block bytes that do not hash to their key', async () => {
    const id = tagged();
    const bytes = (await store.getBlock(id))!;
    const k = key(TABLES.blocks, id);
    const bad = bytes.slice();
    bad[bad.length - 1] ^= 1;
    await expectDetected(
      [k],
      () => kv.write([{ type: 'put', key: k, value: bad }]),
      new RegExp(`blocks: ${toHex0x(id)} holds bytes hashing to`),
    );
  });

  it('reports a missing block metadata record and metadata without a block', async () => {
    const id = tagged();
    const k = key(TABLES.blockMetadata, id);
    await expectDetected([k], () => kv.write([{ type: 'del', key: k }]), /has no metadata/);
    const ghost = new Uint8Array(32).fill(7);
    const gk = key(TABLES.blockMetadata, ghost);
    await expectDetected(
      [gk],
      () => store.batch().putBlockMetadata(ghost, { protocolVersion: 2, solid: true, arrivalTime: 1 }).commit(),
      /has metadata but no stored block/,
    );
  });

  it('reports a missing and an extra children edge, and transaction index entries', async () => {
    const id = tagged();
    const parent = (await import('../../../src/core/codec/index.ts')).decodeBlock((await store.getBlock(id))!)
      .parents[0]!;
    const k = key(TABLES.children, [parent, id]);
    await expectDetected([k], () => kv.write([{ type: 'del', key: k }]), /names parent .* but the edge is missing/);
    const other = new Uint8Array(32).fill(9);
    const ek = key(TABLES.children, [id, other]);
    await expectDetected([ek], () => store.batch().addChild(id, other).commit(), /the child block is not stored/);
    const { tx, block } = await anyTx();
    const tk = key(TABLES.transactionBlocks, [tx, block]);
    await expectDetected([tk], () => kv.write([{ type: 'del', key: tk }]), /but the index lacks it/);
  });

  it('reports solidity flags that disagree with the parents', async () => {
    const id = tagged();
    const k = key(TABLES.blockMetadata, id);
    const md = (await store.getBlockMetadata(id))!;
    const unsolid: BlockMetadata = { ...md, solid: false };
    delete unsolid.referenced;
    await expectDetected(
      [k],
      () => store.batch().putBlockMetadata(id, unsolid).commit(),
      /marked unsolid, but every parent is solid/,
    );
  });

  it('reports a tip with a solid child and a childless solid block that is no tip', async () => {
    const id = tagged();
    const k = key(TABLES.tips, id);
    await expectDetected([k], () => store.batch().addTip(id).commit(), /is a tip but has \d+ solid child/);
    const tips = await store.tips();
    const keys = tips.map((t) => key(TABLES.tips, t));
    await expectDetected(
      keys,
      () => kv.write(keys.map((key) => ({ type: 'del' as const, key }))),
      /without children, but not a tip/,
    );
  });

  it('reports UTXO, diff, included-block and meta differences against the White-Flag replay', async () => {
    const uk = key(LEDGER_TABLES.unspent, (await lastOutput('unspent')).id);
    await expectDetected(
      [uk],
      () => kv.write([{ type: 'del', key: uk }]),
      /^unspent: key 0x[0-9a-f]+ is produced by the replay but not stored/,
    );
    const sk = key(LEDGER_TABLES.spent, (await lastOutput('spent')).id);
    await expectDetected([sk], () => kv.write([{ type: 'del', key: sk }]), /^spent: key/);
    const index = (await store.getMeta(META.ledgerIndex))!;
    let busy: number | undefined;
    for await (const [i, d] of store.entries(LEDGER_TABLES.milestoneDiffs)) if (d.created.length > 0) busy = i;
    const dk = key(LEDGER_TABLES.milestoneDiffs, busy!);
    await expectDetected(
      [dk],
      () => store.batch().put(LEDGER_TABLES.milestoneDiffs, busy!, { created: [], consumed: [] }).commit(),
      /^milestoneDiffs: key .* stored value .* replay/,
    );
    const { tx } = await anyTx();
    const ik = key(TABLES.includedBlock, tx);
    await expectDetected(
      [ik],
      () => store.batch().setIncludedBlock(tx, new Uint8Array(32).fill(3)).commit(),
      /^includedBlock: key/,
    );
    const mk = key(TABLES.meta, META.confirmedMilestoneIndex.name);
    await expectDetected(
      [mk],
      () =>
        store
          .batch()
          .putMeta(META.confirmedMilestoneIndex, index - 1)
          .commit(),
      /meta confirmedMilestoneIndex: stored \d+, replay \d+/,
    );
  });

  it('reports index entries missing for unspent outputs or left for spent ones, with and without genesis', async () => {
    const missing = (await lastOutput('unspent')).indexKey;
    await expectDetected(
      [missing],
      () => kv.write([{ type: 'del', key: missing }]),
      /^indexByType: entry 0x[0-9a-f]+ of unspent output 0x[0-9a-f]+ is missing$/,
    );
    await expectDetected(
      [missing],
      () => kv.write([{ type: 'del', key: missing }]),
      /^indexByType: key 0x[0-9a-f]+ is produced by the replay but not stored$/,
    );
    const { id: spent, indexKey: stale } = await lastOutput('spent');
    await expectDetected(
      [stale],
      () => kv.write([{ type: 'put', key: stale, value: new Uint8Array(0) }]),
      new RegExp(`^indexByType: entry .* for output ${toHex0x(spent)}: the output is spent$`),
    );
    const withoutGenesis = options;
    options = {};
    try {
      await expectDetected(
        [stale],
        () => kv.write([{ type: 'put', key: stale, value: new Uint8Array(0) }]),
        /the output is spent$/,
      );
    } finally {
      options = withoutGenesis;
    }
    expect((await checkStore(store, options)).summary.indexEntries).to.be.greaterThan(0);
  });

  it('reports referenced metadata that the replay does not reproduce', async () => {
    const id = tagged();
    const md = (await store.getBlockMetadata(id))!;
    const k = key(TABLES.blockMetadata, id);
    const moved: BlockMetadata = {
      ...md,
      referenced: { ...md.referenced!, whiteFlagIndex: md.referenced!.whiteFlagIndex + 1000 },
    };
    await expectDetected(
      [k],
      () => store.batch().putBlockMetadata(id, moved).commit(),
      /blockMetadata: .* stored referenced by \d+, whiteFlagIndex \d+.*; replay referenced by/,
    );
  });

  it('tool check: exit 0 with a summary, 1 with the differences, 2 for a locked store or bad arguments', async () => {
    // The store is open here (locked): the tool refuses it clearly.
    let r = await quietly(() => toolCheck(['--data-dir', dataDir]));
    expect(r.value).to.equal(2);
    expect(r.out).to.match(/locked/);
    r = await quietly(() => toolCheck([]));
    expect(r.value).to.equal(2);
    expect(r.out).to.match(/--data-dir is required/);
    r = await quietly(() => toolCheck(['--data-dir', join(dir, 'nothing')]));
    expect(r.value).to.equal(2);
    expect(r.out).to.match(/no node store/);
    const id = tagged();
    const tk = key(TABLES.tips, id);
    await store.batch().addTip(id).commit();
    await kv.close();
    try {
      r = await quietly(() => toolCheck(['--data-dir', dataDir]));
      expect(r.value).to.equal(1);
      expect(r.out).to.match(/is a tip but has \d+ solid child/);
      expect(r.out).to.match(/check FAILED: 1 difference/);
      const fixed = await openDataDirStore(dataDir);
      await fixed.write([{ type: 'del', key: tk }]);
      await fixed.close();
      r = await quietly(() => toolCheck(['--data-dir', dataDir]));
      expect(r.value, r.out).to.equal(0);
      expect(r.out).to.match(/^check passed: \d+ v2 blocks .* milestones replayed \(done\)/);
      expect((await checkDataDir(dataDir)).ok).to.equal(true);
    } finally {
      kv = await openDataDirStore(dataDir);
      store = new NodeStore(kv);
    }
  });
});
