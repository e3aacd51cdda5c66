/**
 * The history's own work on a confirmation, alone and warm (never run by the tests), to compare implementations of
 * the history's writes (history/writes.ts) quickly:
 *   npx tsx benchmarks/explorer/own-work.ts [--outputs=20000] [--times=1000]
 *
 * Fills a RocksDB store as run.ts does (fill.ts), computes the confirmation of the 1,000-transfer cone without the
 * history once, then computes its history writes (writeMilestoneHistory into a batch never committed, the aggregate
 * records read included) `times` times after 20 not counted: median and mean with its 95% interval, in ms. It also
 * prints a digest of the batch's ops (keys and values, in key order): an implementation that writes other bytes
 * shows another digest.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareBytes } from '../../src/core/bytes.ts';
import { writeMilestoneHistory } from '../../src/core/ledger/index.ts';
import { NodeStore, type BatchOp } from '../../src/core/store/index.ts';
import { installOpenSslEd25519 } from '../../src/node/crypto/ed25519-openssl.ts';
import { openKeyValueStore } from '../../src/storage/open.ts';
import { scriptArg } from '../../scripts/lib/args.ts';
import { confirmationScenario } from '../ledger/cone.ts';
import { coneHistory, fillStore } from './fill.ts';

const OUTPUTS = Number(scriptArg('outputs', '20000'));
const TIMES = Number(scriptArg('times', '1000'));

function digest(ops: readonly BatchOp[]): string {
  const hash = createHash('sha256');
  for (const op of [...ops].sort((a, b) => compareBytes(a.key, b.key))) {
    hash.update(`${op.type} ${op.key.length} `).update(op.key);
    if (op.type === 'put') hash.update(` ${op.value.length} `).update(op.value);
  }
  return hash.digest('hex').slice(0, 16);
}

installOpenSslEd25519();
const dir = mkdtempSync(join(tmpdir(), 'explorer-own-work-'));
const kv = await openKeyValueStore('rocksdb', join(dir, 'store'));
try {
  const s = await confirmationScenario(1000);
  await fillStore(kv, s, OUTPUTS, () => {});
  const store = await NodeStore.open(kv);
  const m = await coneHistory(store, s);
  const times: number[] = [];
  for (let r = 0; r < TIMES + 20; r++) {
    const t0 = performance.now();
    await writeMilestoneHistory(store, store.batch(), m);
    if (r >= 20) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / TIMES;
  const sd = Math.sqrt(times.reduce((a, x) => a + (x - mean) ** 2, 0) / (TIMES - 1));
  const ops: BatchOp[] = [];
  const batch = store.batch();
  await writeMilestoneHistory(store, batch, m);
  const write = kv.write.bind(kv);
  kv.write = async (o) => void ops.push(...o);
  await batch.commit();
  kv.write = write;
  console.log(
    `history writes of the 1,000-transfer cone (${OUTPUTS.toLocaleString('en-US')} outputs stored): median ` +
      `${times[TIMES >> 1]!.toFixed(2)} ms, mean ${mean.toFixed(2)} ± ${((1.96 * sd) / Math.sqrt(TIMES)).toFixed(2)} ` +
      `ms (${TIMES} times); ${ops.length} ops, digest ${digest(ops)}`,
  );
} finally {
  await kv.close();
  rmSync(dir, { recursive: true, force: true });
}
