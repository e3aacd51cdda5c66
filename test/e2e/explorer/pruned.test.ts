/**
 * The history is kept when blocks are pruned, and bounded by its own setting: a node with `--prune-milestones 20
 * --history-milestones 60` (milestones every 0.25 s) confirms a signed transfer (iota.js) at milestone m. Once the
 * pruning index passes m, the core API answers 404 for the transfer's block and m's UTXO changes, while the explorer
 * answers exactly as before for m (its blocks, its ledger updates, the block's children, the address's updates).
 * Once the history's own retention passes m, the explorer answers 404 saying which milestones it keeps. After a
 * clean stop, `tool check` passes on the store (blocks pruned, history bounded).
 */
import { sendAdvanced, SingleNodeClient } from '@iota/iota.js';
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { toolCheck } from '../../../src/cli/tool-check.ts';
import { fromHex0x } from '../../../src/core/bytes.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';
import { devNetworkGenesis } from '../../../src/node/genesis/dev-genesis.ts';
import { genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { quietly } from '../../../harness/console.ts';
import { addressHex, genesisWallet, randomSeed, referenced, spend } from '../ledger/iota.ts';
import { startLedgerNode, waitFor, type LedgerTestNode } from '../ledger/support.ts';
import { restOf, type Json } from './support.ts';

describe('e2e explorer: the history of a node that prunes its blocks', function () {
  this.timeout(180000);
  let n: LedgerTestNode | undefined;
  after(async () => {
    await n?.close();
  });

  it('answers for the pruned range, drops it by its own setting, and passes tool check', async () => {
    const genesis = genesisToJson(devNetworkGenesis({ minPowScore: 10, milestoneInterval: 0.25 })) as Json;
    n = await startLedgerNode(genesis, { powWorkers: 1, pruneMilestones: 20, historyMilestones: 60 });
    const get = restOf(`http://127.0.0.1:${n.node.restPort}`);
    const client = new SingleNodeClient(`http://127.0.0.1:${n.node.restPort}`);
    const info = async (): Promise<Json> => (await get('/api/core/v2/info')).body;
    const hrp = (await info()).protocol.bech32Hrp;
    const wallet2 = randomSeed();
    const to = bech32EncodeAddress(hrp, { type: 0, pubKeyHash: fromHex0x(addressHex(wallet2)) });
    const start = genesisWallet(genesis);
    const total = BigInt(start.output.amount);
    const sent = await sendAdvanced(
      client,
      [spend(start)],
      [
        { address: addressHex(wallet2), addressType: 0, amount: 1_000_000n },
        { address: addressHex(start.seed), addressType: 0, amount: total - 1_000_000n },
      ],
    );
    const m: number = (await referenced(client, sent.blockId)).referencedByMilestoneIndex;
    // its children are referenced by the next milestones
    await waitFor('two more milestones', async () =>
      (await info()).status.confirmedMilestone.index >= m + 2 ? 1 : undefined,
    );
    const milestoneId = (await get(`/api/explorer/v2/milestones?sort=oldest&pageSize=1&cursor=${m}.1`)).body.items[0]
      .milestoneId;
    const reads = [
      `/api/explorer/v2/milestones/by-index/${m}/blocks`,
      `/api/explorer/v2/milestones/${milestoneId}/blocks`,
      `/api/explorer/v2/ledger/updates/by-milestone/${milestoneId}`,
      `/api/explorer/v2/blocks/${sent.blockId}/children`,
      `/api/explorer/v2/ledger/updates/by-address/${to}`,
      `/api/explorer/v2/balance/${to}`,
    ];
    const before = await Promise.all(reads.map(async (path) => (await get(path)).body));
    expect(before[0].blocks.map((b: Json) => b.blockId)).to.include(sent.blockId);
    expect(before[3].children.length).to.be.above(0);
    for (const child of before[3].children)
      expect((await get(`/api/core/v2/blocks/${child}`)).body.parents).to.include(sent.blockId);
    expect(before[4].items.map((u: Json) => [u.milestoneIndex, u.isSpent])).to.deep.equal([[m, false]]);

    await waitFor(
      'the pruning index to pass m',
      async () => ((await info()).status.pruningIndex > m ? 1 : undefined),
      60000,
      100,
    );
    expect((await get(`/api/core/v2/blocks/${sent.blockId}`)).status).to.equal(404);
    expect((await get(`/api/core/v2/milestones/by-index/${m}/utxo-changes`)).status).to.equal(404);
    const after = await Promise.all(reads.map(async (path) => (await get(path)).body));
    // the same answers (a block may gain children while tips select it: those it had stay)
    const sameBut = (x: Json): Json => ({ ...x, ledgerIndex: undefined, children: undefined, count: undefined });
    expect(after.map(sameBut)).to.deep.equal(before.map(sameBut));
    expect(after[3].children).to.include.members(before[3].children);

    const gone = await waitFor(
      'the history to drop m',
      async () => {
        const r = await get(reads[0]!);
        return r.status === 404 ? r.body.error.message : undefined;
      },
      60000,
      100,
    );
    const kept = 'this node keeps the history of milestones \\d+ to \\d+';
    expect(gone).to.match(new RegExp(`^could not find data: milestone ${m} is not in the history: ${kept}$`));
    expect((await get(reads[1]!)).status).to.equal(404);
    expect((await get(reads[3]!)).status).to.equal(404);
    const updates = (await get(reads[4]!)).body;
    expect(updates.items).to.deep.equal([]);
    expect((await get(`${reads[4]!}?startMilestoneIndex=${m}`)).status).to.equal(404);
    expect((await get(reads[5]!)).body.totalBalance).to.equal('1000000');

    await n.node.stop();
    const check = await quietly(() => toolCheck(['--data-dir', join(n!.dir, 'data')]));
    expect(check.value, check.out).to.equal(0);
    rmSync(n.dir, { recursive: true, force: true });
    n = undefined;
  });
});
