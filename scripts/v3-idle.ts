/**
 * An idle IOTA 2.0 network, then one SDK transfer: `npx tsx scripts/v3-idle.ts [--minutes 10] [--sample 30]
 * [--data-dir DIR]`. On demand (npm test does not run it); run `bash scripts/build.sh` first, as it starts the
 * compiled node.
 *
 * Starts `ledger-node run` on a new folder with its default dev network (one committee seat whose seed the generated
 * genesis holds, the default `--validation-interval`), sends it nothing for `--minutes`, and meanwhile samples every
 * `--sample` seconds the node's CPU seconds and RSS (/proc) and the size of its data folder. Then, with the IOTA 2.0
 * SDK (`@iota/sdk-wasm-v2`, docs/v3-sdk.md): the tips' age from `getIssuance`, a transaction spending the dev genesis
 * output signed with the seat's key (from `<data-dir>/genesis.json`), a block from `buildBasicBlock` signed by the
 * same account, `postBlock`, and polls until the transaction is included (`getIncludedBlock` answers its block).
 *
 * Prints the samples, then: CPU % of one core while idle, the RSS at the end, the store's growth in MB per hour (first
 * to last sample, and the least-squares slope over the samples), the tips' age, how long building, posting and
 * inclusion took. Exit 0 only if the block was built, accepted with 201 and its transaction included within 60 s.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromHex0x, toHex0x } from '../src/core/bytes.ts';
import { blake2b256 } from '../src/core/crypto/blake2b.ts';
import { ed25519PublicKeyFromSeed } from '../src/core/crypto/ed25519.ts';
import { slotFromTime } from '../src/core/v3/index.ts';
import { genesisOutputIdsV3, genesisV3FromJson } from '../src/node/v3/genesis-v3.ts';
import { cpuSeconds, rssMb, spawnNode } from '../harness/process.ts';
import { waitFor } from '../harness/wait.ts';
import { scriptNumber, scriptOption } from './lib/args.ts';

const MINUTES = scriptNumber('minutes', 10, { positive: true });
const SAMPLE_S = scriptNumber('sample', 30, { positive: true });
const given = scriptOption('data-dir');
const INCLUSION_TIMEOUT_MS = 60_000;

// The SDK's node target is CommonJS with its wasm beside it (docs/v3-sdk.md).
const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const sdk = require('@iota/sdk-wasm-v2/node') as typeof import('@iota/sdk-wasm-v2/node');

/** Bytes of every file under `dir`. */
function folderBytes(dir: string): number {
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    try {
      total += e.isDirectory() ? folderBytes(p) : statSync(p).size;
    } catch {
      // a file the store removed meanwhile (compaction)
    }
  }
  return total;
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const MB = 1024 * 1024;
const dir = given ?? mkdtempSync(join(tmpdir(), 'ledger-node-v3-idle-'));
mkdirSync(dir, { recursive: true });
const dataDir = join(dir, 'node');
console.log(`v3 idle: ${MINUTES} min idle, a sample every ${SAMPLE_S} s; data folder ${dataDir}`);
const node = await spawnNode(dataDir);
const pid = node.proc.child.pid!;
let ok = false;
try {
  // ---------------------------------------------------------------- idle
  const t0 = Date.now();
  const cpu0 = cpuSeconds([pid]);
  const hours: number[] = [];
  const sizes: number[] = [];
  const sample = (): void => {
    const h = (Date.now() - t0) / 3_600_000;
    const bytes = folderBytes(dataDir);
    hours.push(h);
    sizes.push(bytes / MB);
    const cpu = cpuSeconds([pid]) - cpu0;
    const pct = h > 0 ? (100 * cpu) / (h * 3600) : 0;
    console.log(
      `  t=${(h * 60).toFixed(1).padStart(5)} min  cpu ${cpu.toFixed(1).padStart(6)} s (${pct.toFixed(2)} %)  ` +
        `rss ${rssMb(pid).toFixed(1)} MB  data ${(bytes / MB).toFixed(2)} MB`,
    );
  };
  sample();
  const end = t0 + MINUTES * 60_000;
  while (Date.now() < end) {
    await new Promise((r) => setTimeout(r, Math.min(SAMPLE_S * 1000, end - Date.now())));
    if (node.proc.child.exitCode !== null) throw new Error(`the node exited while idle:\n${node.proc.output()}`);
    sample();
  }
  const idleS = (Date.now() - t0) / 1000;
  const cpuPct = (100 * (cpuSeconds([pid]) - cpu0)) / idleS;
  const growthMbH = (sizes.at(-1)! - sizes[0]!) / (hours.at(-1)! - hours[0]!);
  const fitMbH = slope(hours, sizes);

  // ---------------------------------------------------------------- one SDK transfer
  const genesis = JSON.parse(readFileSync(join(dataDir, 'genesis.json'), 'utf8')) as { v3?: unknown };
  const g = genesisV3FromJson(genesis.v3);
  const seat = g.accounts.find((a) => a.validatorSeed !== undefined);
  if (seat?.validatorSeed === undefined) throw new Error('the dev genesis holds no validator seed');
  const seed = seat.validatorSeed;
  const owner = toHex0x(blake2b256(ed25519PublicKeyFromSeed(seed)));
  const client = await sdk.Client.create({ nodes: [node.rest] });
  try {
    const issuance = await client.getIssuance();
    const tipAgeMs = Date.now() - Number(BigInt(issuance.latestParentBlockIssuingTime) / 1_000_000n);
    const supply = g.outputs[0]!.amount;
    const to = (amount: bigint, hash: string) =>
      client.buildBasicOutput({
        amount: amount.toString(),
        unlockConditions: [new sdk.AddressUnlockCondition(new sdk.Ed25519Address(hash))],
      });
    const recipient = toHex0x(blake2b256(ed25519PublicKeyFromSeed(new Uint8Array(32).fill(7))));
    const tx = new sdk.Transaction(
      await client.getNetworkId(),
      slotFromTime(BigInt(Date.now()) * 1_000_000n, g.protocolParameters),
      [],
      [sdk.UTXOInput.fromOutputId(toHex0x(genesisOutputIdsV3(g)[0]!))],
      [],
      [await to(1_000_000n, recipient), await to(supply - 1_000_000n, owner)],
    );
    const keys = sdk.SecretManager.create({ privateKey: toHex0x(seed) });
    const unlock = await keys.signatureUnlock(sdk.Utils.transactionSigningHash(tx), {});
    const payload = new sdk.SignedTransactionPayload(tx, [unlock]);
    const txId = sdk.Utils.transactionId(payload);
    const b0 = Date.now();
    const block = await keys.signBlock(await client.buildBasicBlock(toHex0x(seat.accountId), payload), {});
    const builtMs = Date.now() - b0;
    const p0 = Date.now();
    const blockId = await client.postBlock(block);
    const postedMs = Date.now() - p0;
    const included = await waitFor(
      `transaction ${txId} included`,
      async () => {
        const md = await client.getTransactionMetadata(txId);
        if (md.transactionState === 'failed') throw new Error(`transaction failed: ${JSON.stringify(md)}`);
        if (md.transactionState === 'pending') return undefined;
        return sdk.Utils.blockId(await client.getIncludedBlock(txId), await client.getProtocolParameters());
      },
      INCLUSION_TIMEOUT_MS,
    );
    const inclusionMs = Date.now() - p0;
    if (included !== blockId) throw new Error(`included block ${included}, posted ${blockId}`);
    ok = fromHex0x(blockId).length === 36;

    console.log(`\nidle ${(idleS / 60).toFixed(1)} min (${MINUTES} asked), the node's pid ${pid}:`);
    console.log(`  CPU while idle:      ${cpuPct.toFixed(2)} % of one core`);
    console.log(`  RSS at the end:      ${rssMb(pid).toFixed(1)} MB`);
    console.log(
      `  store growth:        ${growthMbH.toFixed(2)} MB/h (first to last sample; least squares ` +
        `${fitMbH.toFixed(2)} MB/h), ${sizes[0]!.toFixed(2)} -> ${sizes.at(-1)!.toFixed(2)} MB`,
    );
    console.log(`  newest tip's age:    ${tipAgeMs} ms (getIssuance after the idle time)`);
    console.log(`  buildBasicBlock:     ${builtMs} ms (with signing); postBlock ${postedMs} ms: ${blockId}`);
    console.log(`  included after:      ${inclusionMs} ms from posting (transaction ${txId})`);
  } finally {
    await client.destroy();
  }
} catch (e) {
  console.error(`v3 idle failed: ${(e as Error).stack ?? String(e)}`);
} finally {
  await node.proc.stop();
  if (given === undefined) rmSync(dir, { recursive: true, force: true });
}
console.log(ok ? 'v3 idle: OK' : 'v3 idle: FAILED');
process.exit(ok ? 0 : 1);
