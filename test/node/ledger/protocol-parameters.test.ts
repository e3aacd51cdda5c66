/**
 * One source of the protocol parameters: a confirmed milestone announces a higher minPowScore for a target index;
 * /info lists it as pending until then, and intake applies it exactly from the milestone with that index on.
 */
import { expect } from 'chai';
import { encodeBlock, encodeProtocolParameters } from '../../../src/core/codec/index.ts';
import { META, MemoryKeyValueStore, NodeStore } from '../../../src/core/store/index.ts';
import { powScore } from '../../../src/core/pow/index.ts';
import type { Block } from '../../../src/core/model/index.ts';
import { composeNode, type ComposedNode } from '../../../src/node/compose.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { recordGenesis } from '../../../src/node/genesis/open-network.ts';
import { CollectingLogger } from '../../../harness/node.ts';

const RAISED = 5000;

describe('node: protocol parameters announced by a milestone', function () {
  this.timeout(20000);
  let parts: ComposedNode;

  beforeEach(async () => {
    const store = await NodeStore.open(new MemoryKeyValueStore());
    const genesis = devNetworkGenesis({ minPowScore: 0, timestamp: Math.floor(Date.now() / 1000) - 10 });
    const network = await recordGenesis(store, genesis);
    parts = await composeNode({
      store,
      network,
      version: 't',
      logger: new CollectingLogger(),
      coordinator: coordinatorOf(genesis)!,
    });
    await parts.milestones.start();
  });
  afterEach(async () => {
    await parts.stop();
    await parts.store.close();
  });

  /** A tagged-data block on the current tips whose PoW score is far below RAISED (but any score passes at 0). */
  async function lowScoreBlock(tag: string): Promise<Uint8Array> {
    const tips = (await parts.service.getTips({ allowSemiLazy: false })).tips;
    for (let nonce = 1n; ; nonce++) {
      const block: Block = {
        protocolVersion: 2,
        parents: tips,
        payload: { type: 5, tag: new TextEncoder().encode(tag), data: new Uint8Array(0) },
        nonce,
      };
      const bytes = encodeBlock(block);
      if (powScore(bytes) < RAISED / 10) return bytes;
    }
  }

  const submit = async (tag: string) =>
    parts.service.submitBlock({ block: { $case: 'raw', value: await lowScoreBlock(tag) } });

  it('pending in /info before the target index; intake applies it from the target milestone on, milestones stay exempt', async () => {
    const coordinator = parts.coordinator!;
    const start = (await parts.store.getMeta(META.ledgerIndex))!;
    const target = start + 3;
    const raised = { ...parts.protocol.current, minPowScore: RAISED };
    await coordinator.issue([
      { type: 1, targetMilestoneIndex: target, protocolVersion: 2, params: encodeProtocolParameters(raised) },
    ]);

    const info = await parts.service.getInfo();
    expect(info.protocol?.minPowScore).to.equal(0);
    expect(info.pendingProtocolParameters.map((p) => [p.targetMilestoneIndex, p.protocolVersion])).to.deep.equal([
      [target, 2],
    ]);
    expect(info.pendingProtocolParameters[0]!.params).to.deep.equal(encodeProtocolParameters(raised));
    await submit('at target - 2');

    await coordinator.issue();
    expect(await parts.store.getMeta(META.ledgerIndex)).to.equal(target - 1);
    expect((await parts.service.getInfo()).pendingProtocolParameters).to.have.length(1);
    await submit('at target - 1');

    await coordinator.issue(); // milestone `target`: exempt from PoW itself, and from now on the new parameters apply
    expect(await parts.store.getMeta(META.ledgerIndex)).to.equal(target);
    const after = await parts.service.getInfo();
    expect(after.protocol?.minPowScore).to.equal(RAISED);
    expect(after.pendingProtocolParameters).to.deep.equal([]);
    const refused = await submit('at target').then(
      () => expect.fail('a low-score block must be refused from the target index on'),
      (e: Error & { code?: string }) => e,
    );
    expect(refused.code).to.equal('POW_SCORE_TOO_LOW');
    expect(refused.message).to.match(new RegExp(`the node requires ${RAISED}$`));

    await coordinator.issue(); // the next milestone still confirms: milestones carry no PoW
    expect(await parts.store.getMeta(META.ledgerIndex)).to.equal(target + 1);
  });

  it('a restart reads the parameters in force from the ledger, not the genesis copy', async () => {
    const coordinator = parts.coordinator!;
    const start = (await parts.store.getMeta(META.ledgerIndex))!;
    await coordinator.issue([
      {
        type: 1,
        targetMilestoneIndex: start + 1 + 1,
        protocolVersion: 2,
        params: encodeProtocolParameters({ ...parts.protocol.current, minPowScore: RAISED }),
      },
    ]);
    await coordinator.issue();
    const { store, network } = parts;
    await parts.stop();
    const again = await composeNode({ store, network, version: 't', logger: new CollectingLogger() });
    expect(again.protocol.current.minPowScore).to.equal(RAISED);
    expect((await again.service.getInfo()).protocol?.minPowScore).to.equal(RAISED);
    await again.stop();
  });
});
