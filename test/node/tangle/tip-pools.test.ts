/**
 * The tangle at constant cost per block: tip pools with Hornet's retention rules, cone root indexes kept per block
 * and brought up to date by each confirmation, and group commit of concurrent attaches.
 */
import { expect } from 'chai';
import { toHex, toHex0x } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import { blockId as blockIdOf } from '../../../src/core/ids/index.ts';
import type { Block } from '../../../src/core/model/index.ts';
import {
  MemoryKeyValueStore,
  NodeStore,
  TABLES,
  type BatchOp,
  type WriteOptions,
} from '../../../src/core/store/index.ts';
import { ZERO_BLOCK_ID } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { ConeRoots } from '../../../src/node/tangle/cone-roots.ts';
import { MAX_POOL_TIPS, TipSelector, URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import type { ProtocolState } from '../../../src/node/ledger/protocol-state.ts';
import { startTestNode, type TestNode } from '../../../harness/node.ts';
import { tagged } from '../ledger/support.ts';

/** A memory store that counts durable writes. */
class CountingKv extends MemoryKeyValueStore {
  syncedWrites = 0;
  override async write(ops: readonly BatchOp[], options?: WriteOptions): Promise<void> {
    if (options?.sync) this.syncedWrites++;
    return super.write(ops, options);
  }
}

describe('node: tip pools, cone root indexes, group commit', function () {
  this.timeout(30000);
  /** The node; the test exercises its tip selector and intake themselves (`parts`), the rest through `testing`. */
  let node: TestNode;
  let kv: CountingKv;
  let clock: number;

  beforeEach(async () => {
    kv = new CountingKv();
    const genesis = devNetworkGenesis({ minPowScore: 0, timestamp: Math.floor(Date.now() / 1000) - 10 });
    clock = 1_000_000;
    node = await startTestNode({
      kv,
      genesis,
      tipPools: URTS_DEFAULTS,
      compose: { coordinator: coordinatorOf(genesis)!, now: () => clock },
      start: 'milestones',
    });
  });
  afterEach(async () => {
    await node.close();
    await kv.close();
  });

  const submit = async (block: Block): Promise<Uint8Array> =>
    (await node.parts.intake.accept({ block }, { kind: 'client' })).blockId;
  const pool = (): string[] => node.parts.tips.pools().nonLazy.map(toHex0x).sort();

  it("a parent stays a tip until its 30th child (Hornet's maxChildren), or 3 s after its first child", async () => {
    const children: Uint8Array[] = [];
    for (let i = 0; i < URTS_DEFAULTS.nonLazy.maxChildren - 1; i++)
      children.push(await submit(tagged([ZERO_BLOCK_ID], `c${i}`)));
    expect(pool()).to.include(toHex0x(ZERO_BLOCK_ID));
    await submit(tagged([ZERO_BLOCK_ID], 'the 30th'));
    expect(pool()).to.not.include(toHex0x(ZERO_BLOCK_ID));
    expect(pool()).to.have.length(URTS_DEFAULTS.nonLazy.maxChildren);

    const parent = children[0]!;
    await submit(tagged([parent], 'first child'));
    expect(pool()).to.include(toHex0x(parent));
    clock += URTS_DEFAULTS.nonLazy.maxReferencedTipAgeMs + 1;
    expect(pool()).to.not.include(toHex0x(parent));
  });

  it('beyond the tips limit a parent leaves at its first child; selecting costs the same in any pool', async () => {
    const many: Uint8Array[] = [];
    for (let i = 0; i < URTS_DEFAULTS.nonLazy.tipsLimit + 5; i++)
      many.push(await submit(tagged([ZERO_BLOCK_ID], `t${i}`)));
    expect(node.parts.tips.size.nonLazy).to.be.greaterThan(URTS_DEFAULTS.nonLazy.tipsLimit);
    await submit(tagged([many[0]!], 'child of a crowded pool'));
    expect(pool()).to.not.include(toHex0x(many[0]!));
    // Selecting reads nothing from the store: the pools are in memory.
    const reads = { n: 0 };
    const get = node.testing.store.get.bind(node.testing.store);
    node.testing.store.get = ((...args: Parameters<typeof get>) => {
      reads.n++;
      return get(...args);
    }) as typeof get;
    for (let i = 0; i < 100; i++) expect(await node.parts.tips.select()).to.have.length(4);
    node.testing.store.get = get;
    expect(reads.n).to.equal(0);
  });

  it('cone root indexes are stored with each solid block and brought up to date by a confirmation', async () => {
    const a = await submit(tagged([ZERO_BLOCK_ID], 'a'));
    const b = await submit(tagged([a], 'b'));
    expect((await node.testing.store.getBlockMetadata(b))!.coneRoots).to.deep.equal({ ycri: 0, ocri: 0, ci: 0 });
    await node.testing.coordinator!.issue(); // references a and b
    const c = await submit(tagged([ZERO_BLOCK_ID], 'c, outside milestone 1'));
    const d = await submit(tagged([b, c], 'd'));
    expect((await node.testing.store.getBlockMetadata(d))!.coneRoots).to.deep.equal({ ycri: 1, ocri: 0, ci: 1 });
    await node.testing.coordinator!.issue(); // references c and d (and milestone 1's block)
    const e = await submit(tagged([d], 'e'));
    const f = await submit(tagged([a, e], 'f'));
    expect((await node.testing.store.getBlockMetadata(f))!.coneRoots).to.deep.equal({ ycri: 2, ocri: 1, ci: 2 });
    // A block the next milestone leaves out (more childless tips than its checkpoints reach: the newest wait for the
    // next milestone): its stored values are brought up to the new confirmed index by that confirmation.
    let left: Uint8Array = ZERO_BLOCK_ID;
    for (let i = 0; i < 160; i++) left = await submit(tagged([ZERO_BLOCK_ID], `childless ${i}`));
    await node.testing.coordinator!.issue();
    const md = (await node.testing.store.getBlockMetadata(left))!;
    expect(md.referenced).to.equal(undefined);
    expect(md.coneRoots).to.deep.equal({ ycri: 0, ocri: 0, ci: 3 });
    // an older childless tip
    expect((await node.testing.store.getBlockMetadata(f))!.referenced?.milestoneIndex).to.equal(3);
    const g = await submit(tagged([left, f], 'g'));
    expect((await node.testing.store.getBlockMetadata(g))!.coneRoots).to.deep.equal({ ycri: 3, ocri: 0, ci: 3 });
    // A store without the kept values (an older layout, or a crash before they were written) gets the same by a walk.
    const bare = await NodeStore.open(new MemoryKeyValueStore());
    const copy = bare.batch();
    for await (const [k, v] of node.testing.store.entries(TABLES.blocks)) copy.put(TABLES.blocks, k, v);
    for await (const [k, v] of node.testing.store.entries(TABLES.blockMetadata))
      copy.put(TABLES.blockMetadata, k, { ...v, coneRoots: undefined });
    await copy.commit();
    const walk = new ConeRoots(bare, node.testing.network, node.testing.protocol);
    expect(await walk.get(g)).to.deep.equal({ ycri: 3, ocri: 0 });
    expect(await walk.get(left)).to.deep.equal({ ycri: 0, ocri: 0 });
  });

  it('concurrent submissions share durable batches (group commit), each acknowledged once durable', async () => {
    const before = kv.syncedWrites;
    const blocks = Array.from({ length: 200 }, (_, i) => tagged([ZERO_BLOCK_ID], `g${i}`));
    const ids = await Promise.all(blocks.map((b) => submit(b)));
    const writes = kv.syncedWrites - before;
    expect(writes).to.be.lessThan(20);
    for (const [i, id] of ids.entries()) {
      expect(toHex(id)).to.equal(toHex(blockIdOf(encodeBlock(blocks[i]!))));
      expect(await node.testing.store.hasBlock(id)).to.equal(true);
    }
    // Blocks of one group that depend on each other: the child arrives first, its parent later in the same group.
    const parent = tagged([ZERO_BLOCK_ID], 'late parent');
    const parentId = blockIdOf(encodeBlock(parent));
    const child = tagged([parentId], 'early child');
    const [childResult, parentResult] = await Promise.all([
      node.parts.intake.accept({ block: child }, { kind: 'client' }),
      node.parts.intake.accept({ block: parent }, { kind: 'client' }),
    ]);
    expect([childResult.result.solid, parentResult.result.solid, parentResult.result.solidified]).to.deep.equal([
      false,
      true,
      1,
    ]);
    expect((await node.testing.store.getBlockMetadata(childResult.blockId))!.solid).to.equal(true);
  });
});

describe('node: tip pools, memory bounds', () => {
  it('the age queue stays bounded by the pools when nothing selects tips (a node only relaying blocks)', () => {
    // No select/pools/freshest/childless call ever runs `retire`: every tip that got a first child and later left
    // the pool some other way (here: lazy after confirmations) must not stay in the age queue for good.
    const roots = { cmi: 10 };
    const protocol = { current: { belowMaxDepth: 15 } } as unknown as ProtocolState;
    const tips = new TipSelector(undefined as never, protocol, roots as unknown as ConeRoots, () => 1_000_000);
    const id = (n: number): Uint8Array => new Uint8Array(32).map((_, i) => (i < 4 ? (n >>> (8 * i)) & 0xff : 7));
    for (let round = 0; round < 5000; round++) {
      const cri = { ycri: roots.cmi, ocri: roots.cmi };
      const tip = id(2 * round);
      tips.added(tip, [], cri);
      tips.added(id(2 * round + 1), [tip], cri); // the tip's first child: it starts to age
      roots.cmi += URTS_DEFAULTS.maxDeltaYcri + 1; // a confirmation later both are lazy and leave the pool
      tips.rescore(new Map());
      expect(tips.size.nonLazy).to.equal(0);
    }
    expect(tips.agingEntries).to.be.at.most(2048);
  });

  it('while no milestone confirms, a pool keeps at most MAX_POOL_TIPS unapproved tips: the first in leave', () => {
    const roots = { cmi: 10 };
    const protocol = { current: { belowMaxDepth: 15 } } as unknown as ProtocolState;
    const tips = new TipSelector(undefined as never, protocol, roots as unknown as ConeRoots, () => 1_000_000);
    const id = (n: number): Uint8Array => new Uint8Array(32).map((_, i) => (i < 4 ? (n >>> (8 * i)) & 0xff : 9));
    const cri = { ycri: 10, ocri: 10 };
    // Blocks whose parents are no pooled tip (an old block, a solid entry point): none leaves by the retention rules.
    for (let i = 0; i < MAX_POOL_TIPS + 500; i++) tips.added(id(i), [], cri);
    expect(tips.size.nonLazy).to.equal(MAX_POOL_TIPS);
    const pooled = new Set(tips.pools().nonLazy.map(toHex));
    expect(pooled.has(toHex(id(0)))).to.equal(false);
    expect(pooled.has(toHex(id(499)))).to.equal(false);
    expect(pooled.has(toHex(id(500)))).to.equal(true);
    expect(pooled.has(toHex(id(MAX_POOL_TIPS + 499)))).to.equal(true);
  });
});
