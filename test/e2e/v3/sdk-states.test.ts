/**
 * The TIP-48 states of an IOTA 2.0 SDK transfer, read with the SDK (`@iota/sdk-wasm` 2.0.0-beta.1, as sdk.test.ts
 * loads it) against `ledger-node run` as a process on the dev parameters (1-second slots, minCommittableAge 10).
 * From the moment `postBlock` returns, every 20 ms: `getTransactionMetadata`, `getBlockMetadata` and
 * `getIncludedBlockMetadata`. The transaction moves pending -> accepted ->
 * committed -> finalized and the block pending -> accepted -> confirmed -> finalized, never back (a state may fall
 * between two polls), with `earliestAttachmentSlot` the block's slot as the SDK computes it, and the included-block
 * route answering that block from the moment the transaction is accepted (the earliest confirmed attachment, as the
 * v2 route means).
 *
 * The bound: the validator rounds every INTERVAL_MS accept the block at the first round after posting and confirm it
 * (the transaction accepted) at the second. The block's slot S is committed once a block of slot S + minCommittableAge
 * is accepted (a round in that slot, accepted by the next: minCommittableAge slots + 2 intervals after posting) and
 * the clock is in slot S + minCommittableAge + COMMIT_LAG_SLOTS (src/node/v3/commitments.ts), whichever comes later.
 * The next round names that commitment and is confirmed two rounds later, which finalizes S: finalized within that
 * commit time + 3 intervals, plus slack for a busy machine. INTERVAL_MS is one slot, half the node's default
 * (iota-core's `committeeBroadcastInterval`, 2 s), so confirmation takes two seconds at most and finality follows the
 * clock; and a transaction stays pending for at least one interval after it is attached, so the first poll reads
 * `pending` even when the machine is slow to answer.
 */
import { expect } from 'chai';
import type { Client } from '@iota/sdk-wasm-v2/node';
import type { ProtocolParametersV3 } from '../../../src/core/v3/index.ts';
import { COMMIT_LAG_SLOTS } from '../../../src/node/v3/commitments.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { key } from '../../../harness/fixtures/v3.ts';
import { buildBySdk, sdk } from './sdk-support.ts';
import { BLOCK_ORDER, expectInOrder, transitions, TX_ORDER, watchStates } from './state-watch.ts';
import { startV3Node, type V3SdkNode } from './support.ts';

const INTERVAL_MS = 1000;
/** A busy 2-core machine: late rounds, slow polls. */
const SLACK_MS = 3000;

describe('e2e v3: an SDK transfer goes pending -> accepted -> committed -> finalized, in time', function () {
  this.timeout(90000);
  let node: V3SdkNode;
  let client: Client;
  let params: ProtocolParametersV3;
  let g: GenesisV3;
  /** The bound of the transfer's finality, ms after posting (see the file comment). */
  let boundMs: number;

  before(async () => {
    node = await startV3Node({ name: 'sdk-states', funded: 1, validationIntervalMs: INTERVAL_MS, sdk: true });
    ({ client, params, genesis: g } = node);
    const p = await client.getProtocolParameters();
    const slotMs = p.slotDurationInSeconds * 1000;
    const committedMs = Math.max(
      (p.minCommittableAge + COMMIT_LAG_SLOTS) * slotMs,
      p.minCommittableAge * slotMs + 2 * INTERVAL_MS,
    );
    boundMs = committedMs + 3 * INTERVAL_MS + SLACK_MS;
    await node.firstRound();
  });
  after(() => node?.stop());

  it('states in order, earliestAttachmentSlot the block slot, included block from acceptance on', async () => {
    const sent = await buildBySdk(client, params, g, 0, key(70));
    const postedAt = Date.now();
    expect(await client.postBlock(sent.block)).to.equal(sent.blockId);
    const slot = sdk.Utils.computeSlotIndex(sent.blockId);
    const polls = await watchStates(
      client,
      sent,
      postedAt,
      (p) => p.tx.transactionState === 'finalized' && p.block.blockState === 'finalized',
      boundMs,
    );

    const tx = transitions(polls, (p) => p.tx.transactionState);
    const block = transitions(polls, (p) => p.block.blockState);
    expectInOrder(tx, TX_ORDER, 'transaction');
    expectInOrder(block, BLOCK_ORDER, 'block');
    expect(tx[0]![0], 'the first read after posting').to.equal('pending');
    expect(tx.at(-1)).to.satisfy(([s, t]: [string, number]) => s === 'finalized' && t <= boundMs);
    // accepted once confirmed: two rounds after posting (slack as above)
    const accepted = tx.find(([s]) => s !== 'pending')!;
    expect(accepted[1], `accepted ${JSON.stringify(tx)}`).to.be.at.most(2 * INTERVAL_MS + SLACK_MS);

    let includedSeen = false;
    for (const p of polls) {
      expect(p.tx.transactionId).to.equal(sent.txId);
      expect(p.tx.earliestAttachmentSlot).to.equal(slot);
      expect(p.tx.transactionFailureReason).to.equal(undefined);
      expect(p.block.blockId).to.equal(sent.blockId);
      // read in this order: the transaction, then its included block
      if (p.tx.transactionState !== 'pending') expect(p.included, `included at ${p.atMs} ms`).not.to.equal(undefined);
      if (includedSeen) expect(p.tx.transactionState).not.to.equal('pending');
      if (p.included !== undefined) {
        includedSeen = true;
        expect(p.included.blockId).to.equal(sent.blockId);
        expect(p.included.blockState).to.be.oneOf(['confirmed', 'finalized']);
      } else expect(includedSeen, `included block gone at ${p.atMs} ms`).to.equal(false);
    }
    const included = await client.getIncludedBlock(sent.txId);
    expect(sdk.Utils.blockId(included, await client.getProtocolParameters())).to.equal(sent.blockId);
  });
});
