/**
 * The node as a ledger, in-process over a memory store: genesis file <-> LedgerGenesis (and its errors), milestone
 * blocks confirmed in order once solid, rejected milestones stored but never confirmed, the coordinator, URTS tip
 * scores, block metadata before and after confirmation, info health, and the processor resuming after a restart.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { equalBytes, toHex0x } from '../../../src/core/bytes.ts';
import { decodeBlock, encodeBlock } from '../../../src/core/codec/index.ts';
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed } from '../../../src/core/crypto/index.ts';
import { bech32EncodeAddress, blockId as blockIdOf, merkleRoot } from '../../../src/core/ids/index.ts';
import { LedgerState } from '../../../src/core/ledger/index.ts';
import type { Block, MilestonePayload } from '../../../src/core/model/index.ts';
import type { ProtocolError } from '../../../src/core/errors.ts';
import { META, MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { toolGenesis, parseGenesisArgs } from '../../../src/cli/tool-genesis.ts';
import { parseRunArgs } from '../../../src/node/config.ts';
import { genesisFromJson, ZERO_BLOCK_ID, type Genesis } from '../../../src/node/genesis/genesis.ts';
import { DEV_ONLY_NOTE } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf, devWalletOf, ledgerGenesisOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { recordGenesis } from '../../../src/node/genesis/open-network.ts';
import { readGenesisFile } from '../../../src/node/node.ts';
import { promoteReattach, TipSelector, tipScore } from '../../../src/node/tangle/urts.ts';
import { ConeRoots } from '../../../src/node/tangle/cone-roots.ts';
import { composeNode } from '../../../src/node/compose.ts';
import { CollectingLogger } from '../../../harness/node.ts';
import { devGenesisJson, harness, signedMilestone, tagged, type Harness } from './support.ts';

let counter = 0;
/** Deterministic "random" bytes. */
const fixedRandom = (n: number): Uint8Array => new Uint8Array(n).fill(++counter % 251);

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  return expect.fail('should have thrown');
}

describe('node ledger', function () {
  this.timeout(30000);

  describe('genesis file <-> LedgerGenesis', () => {
    it('a dev genesis: 3 coordinator keys (threshold 2), the whole supply on the dev wallet and --funds owners, dev-only notes', () => {
      const seed = '0x' + '11'.repeat(32);
      const other = bech32EncodeAddress(
        'rms',
        ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(new Uint8Array(32).fill(7))),
      );
      const json = devGenesisJson({
        minPowScore: 5,
        networkName: 'my-dev',
        milestoneInterval: 2,
        funds: [seed, other],
        randomBytes: fixedRandom,
      });
      const g = genesisFromJson(JSON.parse(JSON.stringify(json)));
      const lg = ledgerGenesisOf(g);
      expect(g.protocol.networkName).to.equal('my-dev');
      expect(g.protocol.minPowScore).to.equal(5);
      expect(lg.unspentOutputs).to.have.length(3);
      expect(lg.unspentOutputs.reduce((s, o) => s + o.output.amount, 0n)).to.equal(g.protocol.tokenSupply);
      expect(lg.milestonePublicKeyCount).to.equal(2);
      expect(lg.milestoneKeyRanges).to.have.length(3);
      const c = coordinatorOf(g)!;
      expect(c.milestoneInterval).to.equal(2);
      expect(c.seeds).to.have.length(3);
      expect(json['coordinator'].note).to.equal(DEV_ONLY_NOTE);
      expect(json['devWallet'].note).to.equal(DEV_ONLY_NOTE);
      const wallet = devWalletOf(g)!;
      expect(wallet.address).to.equal(
        bech32EncodeAddress('rms', ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(wallet.seed))),
      );
      // The --funds seed's address owns the second output.
      const owner = (lg.unspentOutputs[1]!.output.unlockConditions[0] as { address: { pubKeyHash: Uint8Array } })
        .address.pubKeyHash;
      expect(
        equalBytes(
          owner,
          ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(new Uint8Array(32).fill(0x11))).pubKeyHash,
        ),
      ).to.equal(true);
      // Top-level keys operators' scripts rely on.
      expect(Object.keys(json)).to.include.members([
        'protocol',
        'milestone',
        'milestonePublicKeyCount',
        'milestoneKeyRanges',
        'solidEntryPoints',
        'outputs',
        'treasury' in json ? 'treasury' : 'outputs',
        'coordinator',
      ]);
      expect(Object.keys(json['outputs'][0])).to.deep.equal([
        'outputId',
        'blockId',
        'milestoneIndexBooked',
        'milestoneTimestampBooked',
        'output',
      ]);
    });

    it('bad entries fail with an error naming the key', () => {
      const base = devGenesisJson();
      const cases: [string, (j: any) => void, RegExp][] = [
        [
          'missing milestoneIndexBooked',
          (j) => delete j.outputs[0].milestoneIndexBooked,
          /outputs\[0\]\.milestoneIndexBooked: missing required key/,
        ],
        ['bad amount', (j) => (j.outputs[0].output.amount = 'lots'), /outputs\[0\]\.output: .*amount/],
        ['short output ID', (j) => (j.outputs[0].outputId = '0x1234'), /outputs\[0\]\.outputId/],
        [
          'duplicate output',
          (j) => j.outputs.push(j.outputs[0]),
          /outputs\[1\]\.outputId: output 0x[0-9a-f]+ is listed twice/,
        ],
        [
          'treasury output among outputs',
          (j) => (j.outputs[0].output = { type: 2, amount: '5' }),
          /outputs\[0\]\.output/,
        ],
        [
          'more than the supply',
          (j) => (j.treasury = { milestoneId: '0x' + '00'.repeat(32), amount: '5' }),
          /more than the token supply/,
        ],
        ['outputs not an array', (j) => (j.outputs = {}), /outputs/],
      ];
      for (const [what, mutate, re] of cases) {
        const j = JSON.parse(JSON.stringify(base));
        mutate(j);
        expect(errorOf(() => ledgerGenesisOf(genesisFromJson(j))).message, what).to.match(re);
      }
      const coordinatorCases: [string, (j: any) => void, RegExp][] = [
        [
          'foreign coordinator key',
          (j) => (j.coordinator.privateKeys[0] = '0x' + '42'.repeat(32)),
          /coordinator\.privateKeys\[0\]: its public key .* is not in milestoneKeyRanges/,
        ],
        [
          'too few keys',
          (j) => (j.coordinator.privateKeys = j.coordinator.privateKeys.slice(0, 1)),
          /cannot reach the threshold/,
        ],
        ['bad interval', (j) => (j.coordinator.milestoneInterval = -1), /coordinator\.milestoneInterval/],
      ];
      for (const [what, mutate, re] of coordinatorCases) {
        const j = JSON.parse(JSON.stringify(base));
        mutate(j);
        expect(errorOf(() => coordinatorOf(genesisFromJson(j))).message, what).to.match(re);
      }
      const j = JSON.parse(JSON.stringify(base));
      j.devWallet.seed = '0x12';
      expect(errorOf(() => devWalletOf(genesisFromJson(j))).message).to.match(/devWallet\.seed/);
    });

    it('readGenesisFile checks the ledger entries up front and names the file', () => {
      const dir = mkdtempSync(join(tmpdir(), 'ledger-genesis-'));
      try {
        const j = devGenesisJson();
        delete j['outputs'][0].output;
        const file = join(dir, 'g.json');
        writeFileSync(file, JSON.stringify(j));
        expect(errorOf(() => readGenesisFile(file)).message).to.match(
          /^Cannot read genesis file .*g\.json: invalid genesis JSON at outputs\[0\]\.output: missing required key/,
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('tool genesis writes a file run --genesis accepts; bad flags exit 2', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ledger-genesis-'));
      const errors: string[] = [];
      const orig = console.error;
      console.error = (m: string) => errors.push(m);
      try {
        const file = join(dir, 'dev.json');
        expect(
          await toolGenesis([
            '--out',
            file,
            '--network-name',
            'tooled',
            '--min-pow-score',
            '7',
            '--milestone-interval',
            '0.5',
          ]),
        ).to.equal(0);
        const g = readGenesisFile(file);
        expect([g.protocol.networkName, g.protocol.minPowScore, coordinatorOf(g)!.milestoneInterval]).to.deep.equal([
          'tooled',
          7,
          0.5,
        ]);
        expect(JSON.parse(readFileSync(file, 'utf8')).devWallet.seed).to.match(/^0x[0-9a-f]{64}$/);
        expect(await toolGenesis(['--out', file])).to.equal(2); // exists
        expect(await toolGenesis(['--min-pow-score', 'x'])).to.equal(2);
        expect(await toolGenesis(['--bogus', '1'])).to.equal(2);
        expect(await toolGenesis(['--out', join(dir, 'x.json'), '--funds', 'not-an-address'])).to.equal(2);
        expect(errors.join('\n')).to.match(
          /--funds not-an-address: neither a bech32 address nor a 0x-prefixed 32-byte seed/,
        );
        expect(parseGenesisArgs(['--funds', 'a', 'b', '--out', 'f'])).to.deep.include({ out: 'f' });
        expect(
          (parseGenesisArgs(['--funds', 'a', 'b']) as { options: { funds: string[] } }).options.funds,
        ).to.deep.equal(['a', 'b']);
      } finally {
        console.error = orig;
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('run flags: --milestone-interval seconds and --coordinator true|false', () => {
      expect(parseRunArgs(['--milestone-interval', '0.5', '--coordinator', 'false'])).to.include({
        milestoneInterval: 0.5,
        coordinator: false,
      });
      expect(() => parseRunArgs(['--milestone-interval', '0'])).to.throw(/expected seconds in \(0, 3600\]/);
      expect(() => parseRunArgs(['--coordinator', 'maybe'])).to.throw(/expected true or false/);
    });
  });

  describe('milestones and the coordinator', () => {
    let h: Harness;
    beforeEach(async () => {
      h = await harness();
    });
    afterEach(async () => {
      await h.close();
    });

    it('metadata before and after confirmation; the coordinator confirms its milestone and /info is healthy', async () => {
      const x = await h.submit(tagged([ZERO_BLOCK_ID], 'x'));
      const before = await h.service.getBlockMetadata({ blockId: x });
      expect(before).to.deep.include({ isSolid: true, shouldPromote: false, shouldReattach: false });
      expect(before.referencedByMilestoneIndex).to.equal(undefined);
      const issued = await h.coordinator.issue();
      expect(issued.index).to.equal(1);
      const after = await h.service.getBlockMetadata({ blockId: x });
      expect(after).to.deep.include({ isSolid: true, referencedByMilestoneIndex: 1, whiteFlagIndex: 0 });
      expect(after.shouldPromote).to.equal(undefined);
      expect(after.conflictReason).to.equal(undefined);
      const msMeta = await h.service.getBlockMetadata({ blockId: issued.blockId });
      expect(msMeta.milestoneIndex).to.equal(1);
      const info = await h.service.getInfo();
      expect(info.status?.confirmedMilestone).to.deep.equal({
        index: 1,
        timestamp: info.status?.latestMilestone?.timestamp,
        milestoneId: issued.milestoneId,
      });
      expect(info.status?.isHealthy).to.equal(true); // a recent milestone
      expect(await new LedgerState(h.store).ledgerIndex()).to.equal(1);
    });

    it('reaches every tip without a child: directly up to 7, through chained checkpoints beyond', async () => {
      const m1 = await h.coordinator.issue();
      const xs: Uint8Array[] = [];
      for (let i = 0; i < 20; i++) xs.push(await h.submit(tagged([ZERO_BLOCK_ID], `aside ${i}`)));
      const m2 = await h.coordinator.issue();
      expect(m2.parents.length).to.be.at.most(8);
      // Milestone 1's block and all 20 blocks (21 childless tips) are referenced by milestone 2.
      for (const id of [m1.blockId, ...xs])
        expect((await h.service.getBlockMetadata({ blockId: id })).referencedByMilestoneIndex).to.equal(2);
      // ... through checkpoints: blocks without payload, each approving up to 8.
      const parents = await Promise.all(m2.parents.map(async (p) => decodeBlock((await h.store.getBlock(p))!)));
      expect(parents.some((b) => b.payload === undefined)).to.equal(true);
      // With nothing new, milestone 3 approves milestone 2's block.
      const m3 = await h.coordinator.issue();
      expect(m3.parents.map(toHex0x)).to.include(toHex0x(m2.blockId));
      expect(m3.parents.map(toHex0x)).to.not.include(toHex0x(m1.blockId));
    });

    it('a milestone with a wrong root is stored but never confirms; a correct one for the same index does', async () => {
      const x = await h.submit(tagged([ZERO_BLOCK_ID], 'x'));
      const now = Math.floor(Date.now() / 1000);
      const bad = signedMilestone(h.genesis, {
        index: 1,
        timestamp: now,
        previousMilestoneId: new Uint8Array(32),
        parents: [x],
        inclusion: new Uint8Array(32).fill(1),
        applied: merkleRoot([]),
      });
      const badId = await h.submit(bad);
      await h.parts.attacher.exclusive(async () => undefined); // let the processor run
      await h.parts.attacher.exclusive(async () => undefined);
      expect(await h.store.getBlock(badId)).to.not.equal(undefined);
      expect(await new LedgerState(h.store).ledgerIndex()).to.equal(0);
      expect(h.parts.milestones.rejection(badId)).to.match(/inclusionMerkleRoot .* differs from the recomputed/);
      expect(h.logger.lines.some((l) => l.startsWith('WARN milestone block') && l.includes('rejected'))).to.equal(true);
      const good = signedMilestone(h.genesis, {
        index: 1,
        timestamp: now,
        previousMilestoneId: new Uint8Array(32),
        parents: [x],
        inclusion: merkleRoot([x]),
        applied: merkleRoot([]),
      });
      const goodId = await h.submit(good);
      await h.parts.milestones.settled(goodId, 1);
      expect((await h.store.milestone(1))?.blockId).to.deep.equal(goodId);
      expect((await h.service.getBlockMetadata({ blockId: x })).referencedByMilestoneIndex).to.equal(1);
    });

    it('a milestone whose cone is missing waits, counts as latest, and confirms when the block arrives', async () => {
      const z = tagged([ZERO_BLOCK_ID], 'late');
      const zBytes = encodeBlock(z);
      const zId = blockIdOf(zBytes);
      const ms = signedMilestone(h.genesis, {
        index: 1,
        timestamp: Math.floor(Date.now() / 1000),
        previousMilestoneId: new Uint8Array(32),
        parents: [zId],
        inclusion: merkleRoot([zId]),
        applied: merkleRoot([]),
      });
      const msId = await h.submit(ms);
      await h.parts.attacher.exclusive(async () => undefined);
      await h.parts.attacher.exclusive(async () => undefined);
      expect(await new LedgerState(h.store).ledgerIndex()).to.equal(0);
      const info = await h.service.getInfo();
      expect([
        info.status?.latestMilestone?.index,
        info.status?.confirmedMilestone?.index,
        info.status?.isHealthy,
      ]).to.deep.equal([1, 0, false]);
      await h.submit(z);
      await h.parts.milestones.settled(msId, 1);
      expect((await h.service.getBlockMetadata({ blockId: zId })).referencedByMilestoneIndex).to.equal(1);
    });

    it('milestone blocks with signatures that do not verify are refused from clients, and not kept pending when a store holds them', async () => {
      const x = await h.submit(tagged([ZERO_BLOCK_ID], 'x'));
      const now = Math.floor(Date.now() / 1000);
      const draft = (index: number) => ({
        index,
        timestamp: now,
        previousMilestoneId: new Uint8Array(32),
        parents: [x],
        inclusion: merkleRoot([x]),
        applied: merkleRoot([]),
      });
      const forge = (i: number): Block => {
        const ms = signedMilestone(h.genesis, draft(1_000_000 + i));
        const p = ms.payload as MilestonePayload;
        p.signatures = p.signatures.map((s) => ({ ...s, signature: new Uint8Array(64).fill(i + 1) }));
        return ms;
      };
      // A milestone block needs no PoW, so a client's forgery is refused at the door (peers' too).
      const refused = await h.submit(forge(99)).then(
        () => undefined,
        (e: unknown) => e as ProtocolError,
      );
      expect(refused?.code).to.equal('INVALID_SIGNATURE');
      // Forged ones a store already holds (stored before clients were checked): far above the ledger index.
      const forged: Uint8Array[] = [];
      for (let i = 0; i < 40; i++) {
        const ms = forge(i);
        const bytes = encodeBlock(ms);
        forged.push(blockIdOf(bytes));
        await h.parts.attacher.attach(blockIdOf(bytes), bytes, ms);
      }
      await h.parts.attacher.exclusive(async () => undefined);
      await h.parts.attacher.exclusive(async () => undefined);
      expect(h.parts.milestones.held.pending).to.equal(0);
      expect(h.parts.milestones.rejection(forged[0]!)).to.match(/signature at signatures\[0\] does not verify/);
      expect(await h.store.getBlock(forged[0]!)).to.not.equal(undefined); // stored all the same
      // A validly signed one ahead of the ledger is kept (and raises the latest milestone).
      await h.submit(signedMilestone(h.genesis, draft(5)));
      await h.parts.attacher.exclusive(async () => undefined);
      await h.parts.attacher.exclusive(async () => undefined);
      expect(h.parts.milestones.held.pending).to.equal(1);
      expect(h.parts.milestones.latest()?.index).to.equal(5);
    });
  });

  it('after a restart the processor finds the waiting milestone block in the store', async () => {
    const kv = new MemoryKeyValueStore();
    const genesis = genesisFromJson(devGenesisJson());
    const z = tagged([ZERO_BLOCK_ID], 'late');
    const zId = blockIdOf(encodeBlock(z));
    const first = await harness({ kv, genesis });
    const msId = await first.submit(
      signedMilestone(genesis, {
        index: 1,
        timestamp: Math.floor(Date.now() / 1000),
        previousMilestoneId: new Uint8Array(32),
        parents: [zId],
        inclusion: merkleRoot([zId]),
        applied: merkleRoot([]),
      }),
    );
    await first.close();
    const second = await harness({ kv, genesis });
    try {
      await second.submit(z);
      await second.parts.milestones.settled(msId, 1);
      expect(await second.store.getMeta(META.ledgerIndex)).to.equal(1);
    } finally {
      await second.close();
    }
  });

  it('a network without a ledger keeps no milestone block pending (nothing would ever confirm it)', async () => {
    const g = genesisFromJson(devGenesisJson());
    const bare: Genesis = { ...g, milestonePublicKeyCount: 0, milestoneKeyRanges: [], outputs: [] };
    delete bare.coordinator;
    delete bare.devWallet;
    const store = await NodeStore.open(new MemoryKeyValueStore());
    const parts = await composeNode({
      store,
      network: await recordGenesis(store, bare),
      version: 't',
      logger: new CollectingLogger(),
    });
    try {
      expect(parts.protocol.hasLedger).to.equal(false);
      const now = Math.floor(Date.now() / 1000);
      for (let i = 1; i <= 20; i++) {
        const ms = signedMilestone(g, {
          index: i,
          timestamp: now,
          previousMilestoneId: new Uint8Array(32),
          parents: [ZERO_BLOCK_ID],
          inclusion: merkleRoot([]),
          applied: merkleRoot([]),
        });
        expect((await parts.intake.accept({ block: ms }, { kind: 'client' })).result.stored).to.equal(true);
      }
      await parts.attacher.idle();
      expect(parts.milestones.held.pending).to.equal(0);
    } finally {
      await parts.stop();
    }
  });

  describe('URTS tip scores', () => {
    it('Hornet thresholds: below max depth, YCRI delta 8, OCRI delta 13', () => {
      expect(tipScore({ ycri: 20, ocri: 5 }, 21, 15)).to.equal('belowMaxDepth');
      expect(tipScore({ ycri: 20, ocri: 5 }, 20, 15)).to.equal('semiLazyOcri');
      expect(tipScore({ ycri: 20, ocri: 20 }, 29, 15)).to.equal('lazyYcri');
      expect(tipScore({ ycri: 20, ocri: 20 }, 28, 15)).to.equal('healthy');
      expect(promoteReattach('belowMaxDepth')).to.deep.equal({ shouldPromote: false, shouldReattach: true });
      expect(promoteReattach('lazyYcri')).to.deep.equal({ shouldPromote: true, shouldReattach: false });
      expect(promoteReattach('semiLazyOcri')).to.deep.equal({ shouldPromote: true, shouldReattach: false });
      expect(promoteReattach('healthy')).to.deep.equal({ shouldPromote: false, shouldReattach: false });
    });

    it('cone root indexes through unreferenced blocks; selection skips lazy tips; metadata flags follow the score', async () => {
      const h = await harness();
      try {
        const { store } = h;
        const add = async (block: Block, referencedBy?: number): Promise<Uint8Array> => {
          const bytes = encodeBlock(block);
          const id = blockIdOf(bytes);
          const md = {
            protocolVersion: 2 as const,
            solid: true,
            arrivalTime: 1,
            ...(referencedBy !== undefined
              ? {
                  referenced: {
                    milestoneIndex: referencedBy,
                    whiteFlagIndex: 0,
                    ledgerInclusionState: 'noTransaction' as const,
                    conflictReason: 0,
                  },
                }
              : {}),
          };
          await store.batch().addBlock({ blockId: id, bytes, parents: block.parents, metadata: md }).commit();
          return id;
        };
        const a = await add(tagged([ZERO_BLOCK_ID], 'a'), 5);
        const b = await add(tagged([ZERO_BLOCK_ID], 'b'), 20);
        const c = await add(tagged([a, b], 'c'));
        const d = await add(tagged([c], 'd'));
        const e = await add(tagged([b], 'e'));
        const batch = store.batch();
        for (const t of await store.tips()) batch.removeTip(t);
        batch.addTip(d).addTip(e).putMeta(META.confirmedMilestoneIndex, 20).putMeta(META.ledgerIndex, 20);
        await batch.commit();
        // What a restart at confirmed index 20 sees: cone root indexes by a walk (no stored values), pools from the
        // tips table.
        const { protocol, network } = h.parts;
        const confirmedAt = async (index: number): Promise<void> => {
          await store.batch().putMeta(META.confirmedMilestoneIndex, index).putMeta(META.ledgerIndex, index).commit();
          await protocol.refresh();
        };
        await protocol.refresh();
        const coneRoots = new ConeRoots(store, network, protocol);
        const tips = new TipSelector(store, protocol, coneRoots);
        await tips.load();
        expect(await coneRoots.get(d)).to.deep.equal({ ycri: 20, ocri: 5 });
        expect(await coneRoots.get(e)).to.deep.equal({ ycri: 20, ocri: 20 });
        expect(await coneRoots.get(ZERO_BLOCK_ID)).to.deep.equal({ ycri: 0, ocri: 0 });
        const pools = tips.pools();
        expect([pools.nonLazy.map(toHex0x), pools.semiLazy.map(toHex0x)]).to.deep.equal([[toHex0x(e)], [toHex0x(d)]]);
        expect((await tips.select()).map(toHex0x)).to.deep.equal([toHex0x(e)]);
        expect(await h.service.getBlockMetadata({ blockId: d })).to.deep.include({
          shouldPromote: true,
          shouldReattach: false,
        });
        await confirmedAt(21);
        expect(await h.service.getBlockMetadata({ blockId: d })).to.deep.include({
          shouldPromote: false,
          shouldReattach: true,
        });
        await confirmedAt(29);
        expect(await tips.score(e)).to.equal('lazyYcri');
        tips.rescore(new Map());
        expect(tips.pools()).to.deep.equal({ nonLazy: [], semiLazy: [] });
        const err = await tips.select().then(
          () => undefined,
          (x: unknown) => x,
        );
        expect(err).to.have.property('code', 'NO_TIPS');
      } finally {
        await h.close();
      }
    });
  });
});
