/**
 * Measures the v3 engine on the in-memory store: attaching signed basic blocks, signed transactions, and the
 * committee rounds that confirm them, for 1 and 4 seats. On demand, never run by the tests:
 *   npx tsx benchmarks/v3/run.ts
 */
import { MemoryKeyValueStore, NodeStore } from '../../src/core/store/index.ts';
import { blockIdV3 } from '../../src/core/v3/index.ts';
import { V3Engine } from '../../src/node/v3/engine.ts';
import {
  basic,
  basicBlock,
  genesisOutputId,
  GENESIS_TIME,
  inputOf,
  key,
  signedTx,
  slotStartNs,
  testGenesisV3,
  USER,
  WALLET,
} from '../../harness/fixtures/v3.ts';

async function run(seats: number, blocks: number, txs: number): Promise<void> {
  const g = testGenesisV3({ seats, funded: txs });
  const store = await NodeStore.open(new MemoryKeyValueStore());
  await V3Engine.create(store, g);
  // the clock in slot 1001: the blocks' slot must not be committed yet (slot commitments, minCommittableAge 10)
  const engine = (await V3Engine.open(store, { now: () => (GENESIS_TIME + 1000) * 1000 }))!;
  const p = engine.params;
  let time = slotStartNs(p, 1001);
  // build first (signing is not the engine's cost)
  const plain: Uint8Array[] = [];
  let parent = engine.genesisBlockId;
  for (let i = 0; i < blocks; i++) {
    time += 1000n;
    const b = basicBlock(p, {
      issuer: USER,
      parents: [parent],
      issuingTime: time,
      commitmentId: engine.latestCommitmentId,
    });
    plain.push(b);
    parent = blockIdV3(b, p);
  }
  let t0 = performance.now();
  for (const b of plain) await engine.submit({ raw: b });
  const attachMs = performance.now() - t0;
  t0 = performance.now();
  let rounds = 0;
  while (engine.hasUnconfirmedBlocks) {
    await engine.issueValidationBlocks();
    rounds++;
  }
  const confirmMs = performance.now() - t0;

  const txBlocks: Uint8Array[] = [];
  const tips = engine.selectTips();
  time += 100_000_000n; // after the validation blocks, still in a slot the latest commitment may serve
  for (let i = 0; i < txs; i++) {
    time += 1000n;
    const tx = signedTx(
      { creationSlot: 1001, inputs: [inputOf(genesisOutputId(g, i))], outputs: [basic(1_000_000_000n, key(70))] },
      WALLET,
      p,
    );
    txBlocks.push(
      basicBlock(p, {
        issuer: USER,
        parents: tips,
        issuingTime: time,
        commitmentId: engine.latestCommitmentId,
        payload: tx,
      }),
    );
  }
  t0 = performance.now();
  for (const b of txBlocks) await engine.submit({ raw: b });
  const txAttachMs = performance.now() - t0;
  t0 = performance.now();
  while (engine.hasUnconfirmedBlocks) await engine.issueValidationBlocks();
  const txConfirmMs = performance.now() - t0;
  await engine.idle();
  await store.close();
  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
  console.log(
    `${seats} seat(s): ${blocks} chained blocks attached at ${rate(blocks, attachMs)}/s, ` +
      `confirmed by ${rounds} rounds in ${confirmMs.toFixed(1)} ms; ` +
      `${txs} transactions attached (signature + ledger checks) at ${rate(txs, txAttachMs)}/s, ` +
      `confirmed and applied in ${txConfirmMs.toFixed(1)} ms`,
  );
}

await run(1, 5000, 128);
await run(4, 5000, 128);
