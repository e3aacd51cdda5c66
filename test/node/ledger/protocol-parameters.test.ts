/**
 * One source of the protocol parameters: a confirmed milestone announces a higher minPowScore for a target index;
 * /info lists it as pending until then, and intake applies it exactly from the milestone with that index on.
 */
import { expect } from 'chai';
import { encodeBlock, encodeProtocolParameters } from '../../../src/core/codec/index.ts';
import { META, MemoryKeyValueStore } from '../../../src/core/store/index.ts';
import { powScore } from '../../../src/core/pow/index.ts';
import type { Block } from '../../../src/core/model/index.ts';
import type { Genesis } from '../../../src/node/genesis/genesis.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { coordinatorOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { URTS_DEFAULTS } from '../../../src/node/tangle/urts.ts';
import { startTestNode, type TestNode } from '../../../harness/node.ts';

const RAISED = 5000;

describe('node: protocol parameters announced by a milestone', function () {
  this.timeout(20000);
  let kv: MemoryKeyValueStore;
  let node: TestNode;
  let genesis: Genesis;

  beforeEach(async () => {
    kv = new MemoryKeyValueStore();
    genesis = devNetworkGenesis({ minPowScore: 0, timestamp: Math.floor(Date.now() / 1000) - 10 });
    node = await startTestNode({
      kv,
      genesis,
      tipPools: URTS_DEFAULTS,
      compose: { coordinator: coordinatorOf(genesis)! },
      start: 'milestones',
    });
  });
  afterEach(async () => {
    await node.close();
    await kv.close();
  });

  /** A tagged-data block on the current tips whose PoW score is far below RAISED (but any score passes at 0). */
  async function lowScoreBlock(tag: string): Promise<Uint8Array> {
    const tips = (await node.testing.service.getTips({ allowSemiLazy: false })).tips;
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
    node.testing.service.submitBlock({ block: { $case: 'raw', value: await lowScoreBlock(tag) } });

  it('pending in /info before the target index; intake applies it from the target on, milestones exempt', async () => {
    const coordinator = node.testing.coordinator!;
    const start = (await node.testing.store.getMeta(META.ledgerIndex))!;
    const target = start + 3;
    const raised = { ...node.testing.protocol.current, minPowScore: RAISED };
    await coordinator.issue([
      { type: 1, targetMilestoneIndex: target, protocolVersion: 2, params: encodeProtocolParameters(raised) },
    ]);

    const info = await node.testing.service.getInfo();
    expect(info.protocol?.minPowScore).to.equal(0);
    expect(info.pendingProtocolParameters.map((p) => [p.targetMilestoneIndex, p.protocolVersion])).to.deep.equal([
      [target, 2],
    ]);
    expect(info.pendingProtocolParameters[0]!.params).to.deep.equal(encodeProtocolParameters(raised));
    await submit('at target - 2');

    await coordinator.issue();
    expect(await node.testing.store.getMeta(META.ledgerIndex)).to.equal(target - 1);
    expect((await node.testing.service.getInfo()).pendingProtocolParameters).to.have.length(1);
    await submit('at target - 1');

    await coordinator.issue(); // milestone `target`: exempt from PoW itself, and from now on the new parameters apply
    expect(await node.testing.store.getMeta(META.ledgerIndex)).to.equal(target);
    const after = await node.testing.service.getInfo();
    expect(after.protocol?.minPowScore).to.equal(RAISED);
    expect(after.pendingProtocolParameters).to.deep.equal([]);
    const refused = await submit('at target').then(
      () => expect.fail('a low-score block must be refused from the target index on'),
      (e: Error & { code?: string }) => e,
    );
    expect(refused.code).to.equal('POW_SCORE_TOO_LOW');
    expect(refused.message).to.match(new RegExp(`the node requires ${RAISED}$`));

    await coordinator.issue(); // the next milestone still confirms: milestones carry no PoW
    expect(await node.testing.store.getMeta(META.ledgerIndex)).to.equal(target + 1);
  });

  it('a restart reads the parameters in force from the ledger, not the genesis copy', async () => {
    const coordinator = node.testing.coordinator!;
    const start = (await node.testing.store.getMeta(META.ledgerIndex))!;
    await coordinator.issue([
      {
        type: 1,
        targetMilestoneIndex: start + 1 + 1,
        protocolVersion: 2,
        params: encodeProtocolParameters({ ...node.testing.protocol.current, minPowScore: RAISED }),
      },
    ]);
    await coordinator.issue();
    await node.close();
    const again = await startTestNode({ kv, genesis, tipPools: URTS_DEFAULTS });
    expect(again.testing.protocol.current.minPowScore).to.equal(RAISED);
    expect((await again.service.getInfo()).protocol?.minPowScore).to.equal(RAISED);
    await again.close();
  });
});
