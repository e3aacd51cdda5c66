/**
 * Double spends built and signed with the IOTA 2.0 SDK (as sdk.test.ts loads it) against `ledger-node run` as a
 * process, a validator round a second (sdk-states.test.ts says why). Of two transactions spending one output exactly
 * one goes pending -> accepted -> committed -> finalized; the other ends `failed` with iota.go's
 * `TransactionFailureReason` as iota-core gives it (src/node/v3/failures.ts, docs/decisions.md §44), is never read
 * accepted, and its included-block route answers 404 throughout:
 * - posted back to back between two rounds, so one round accepts both (checked on the validation block that names
 *   them): both pending, then the one attached first wins and the other fails with 1 (conflict rejected);
 * - the loser posted right after the winner was accepted: 201, failed with 1 from the first read;
 * - a third posted once the winner is committed: 201, failed with 3 (input already spent) from the first read.
 */
import { expect } from 'chai';
import type { Client } from '@iota/sdk-wasm-v2/node';
import { toHex0x } from '../../../src/core/bytes.ts';
import type { ProtocolParametersV3 } from '../../../src/core/v3/index.ts';
import type { GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { genesisOutputId, key } from '../../../harness/fixtures/v3.ts';
import { buildBySdk, sdk, waitFor, type SentBySdk } from './sdk-support.ts';
import {
  BLOCK_ORDER,
  expectInOrder,
  transitions,
  TX_ORDER,
  unless404,
  watchStates,
  type StatePoll,
} from './state-watch.ts';
import { startV3Node, type V3SdkNode } from './support.ts';

const INTERVAL_MS = 1000;
/** How long a winner may take to be finalized after posting (sdk-states.test.ts derives it: 18 s). */
const FINALIZED_MS = 25_000;

describe('e2e v3: SDK double spends, one winner, the loser failed with the reason iota-core gives', function () {
  this.timeout(120_000);
  let node: V3SdkNode;
  let client: Client;
  let params: ProtocolParametersV3;
  let g: GenesisV3;

  before(async () => {
    node = await startV3Node({ name: 'sdk-double-spend', funded: 2, validationIntervalMs: INTERVAL_MS, sdk: true });
    ({ client, params, genesis: g } = node);
    await nextRound();
  });
  after(() => node?.stop());

  /** Resolves just after a validation round: the issuance's parents changed. */
  async function nextRound(): Promise<void> {
    const before = JSON.stringify((await client.getIssuance()).strongParents);
    await waitFor('a validation round', async () =>
      JSON.stringify((await client.getIssuance()).strongParents) !== before ? true : undefined,
    );
  }

  /** Posts `sent` and checks the answer is its block ID; returns when it was posted. */
  async function post(sent: SentBySdk): Promise<number> {
    const at = Date.now();
    expect(await client.postBlock(sent.block)).to.equal(sent.blockId);
    return at;
  }

  /**
   * Watches the winner until it is finalized and the loser meanwhile; checks the winner's states in order and the
   * loser's: failed with `reason` at the end, never accepted, committed or finalized, never included.
   */
  async function settle(
    winner: { sent: SentBySdk; at: number },
    loser: { sent: SentBySdk; at: number },
    reason: number,
  ): Promise<{ winner: StatePoll[]; loser: StatePoll[] }> {
    let done = false;
    const [w, l] = await Promise.all([
      watchStates(client, winner.sent, winner.at, (p) => (done = p.tx.transactionState === 'finalized'), FINALIZED_MS),
      watchStates(client, loser.sent, loser.at, () => done, FINALIZED_MS),
    ]);
    expectInOrder(
      transitions(w, (p) => p.tx.transactionState),
      TX_ORDER,
      'the winner',
    );
    expect(w.at(-1)!.included?.blockId).to.equal(winner.sent.blockId);
    expectLost(l, reason);
    const spent = await client.getOutputMetadata(sdk.Utils.computeOutputId(winner.sent.txId, 0));
    expect(spent.included.transactionId).to.equal(winner.sent.txId);
    return { winner: w, loser: l };
  }

  /** The loser: pending at most until it fails with `reason`, never included; its block's states in order. */
  function expectLost(polls: readonly StatePoll[], reason: number): void {
    const states = transitions(polls, (p) => p.tx.transactionState);
    expectInOrder(states, ['pending', 'failed'], 'the loser');
    expect(states.at(-1)![0], JSON.stringify(states)).to.equal('failed');
    expectInOrder(
      transitions(polls, (p) => p.block.blockState),
      BLOCK_ORDER,
      "the loser's block",
    );
    for (const p of polls) {
      expect(p.included, `the loser's included block at ${p.atMs} ms`).to.equal(undefined);
      if (p.tx.transactionState === 'failed') expect(p.tx.transactionFailureReason).to.equal(reason);
    }
  }

  it('posted in the same round: the first attached wins, the other fails with 1 (conflict rejected)', async () => {
    const a = await buildBySdk(client, params, g, 0, key(71));
    const b = await buildBySdk(client, params, g, 0, key(72));
    await nextRound();
    const atA = await post(a);
    const atB = await post(b);
    const { winner, loser } = await settle({ sent: a, at: atA }, { sent: b, at: atB }, 1);
    // both pending until the round after next confirmed them; then the node settled the conflict
    expect(winner[0]!.tx.transactionState).to.equal('pending');
    expect(loser[0]!.tx.transactionState).to.equal('pending');
    // the validation block that first names either names both: one round accepted both
    const first = await firstValidationNaming([a.blockId, b.blockId]);
    expect(first, 'the validation block naming the first of them').to.include.members([a.blockId, b.blockId]);
  });

  it('posted right after the winner is accepted: 201, failed with 1 at once; later, with 3', async () => {
    const a = await buildBySdk(client, params, g, 1, key(73));
    const atA = await post(a);
    await waitFor('the winner accepted', async () =>
      (await client.getTransactionMetadata(a.txId)).transactionState === 'accepted' ? true : undefined,
    );
    const b = await buildBySdk(client, params, g, 1, key(74));
    const atB = await post(b);
    const first = await client.getTransactionMetadata(b.txId);
    expect(first).to.include({ transactionState: 'failed', transactionFailureReason: 1 });
    expect(first.transactionFailureDetails).to.match(/conflict rejected/);
    expect(first.earliestAttachmentSlot).to.equal(sdk.Utils.computeSlotIndex(b.blockId));
    // the winner was not committed when the loser came (committed takes minCommittableAge slots)
    expect((await client.getTransactionMetadata(a.txId)).transactionState).to.equal('accepted');
    await settle({ sent: a, at: atA }, { sent: b, at: atB }, 1);

    // the winner is committed (and finalized) now: a third spend reads the input as spent
    const c = await buildBySdk(client, params, g, 1, key(75));
    const atC = await post(c);
    const polls = await watchStates(client, c, atC, (p) => p.block.blockState === 'confirmed', FINALIZED_MS);
    expectLost(polls, 3);
    expect(polls[0]!.tx.transactionState).to.equal('failed');
    expect(polls[0]!.tx.transactionFailureDetails).to.match(/input already spent/);
    const spent = await client.getOutputMetadata(toHex0x(genesisOutputId(g, 1)));
    expect(spent.spent?.transactionId).to.equal(a.txId);
  });

  /**
   * The strong parents of the oldest validation block naming one of `ids`, walking back from the issuance's tips over
   * validation blocks (the genesis block, which the node does not serve, ends a path).
   */
  async function firstValidationNaming(ids: string[]): Promise<string[]> {
    let found: string[] | undefined;
    let frontier = (await client.getIssuance()).strongParents;
    const seen = new Set<string>();
    for (let depth = 0; depth < 40 && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const id of frontier) {
        if (seen.has(id) || ids.includes(id)) continue;
        seen.add(id);
        const body = (await unless404(() => client.getBlock(id)))?.body;
        if (body === undefined || !body.isValidation()) continue;
        const parents = body.asValidation().strongParents;
        if (parents.some((p) => ids.includes(p))) found = parents;
        next.push(...parents);
      }
      frontier = next;
    }
    if (found === undefined) throw new Error(`no validation block names ${ids.join(', ')}`);
    return found;
  }
});
