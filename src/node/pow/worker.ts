/**
 * A PoW worker thread: searches its nonce range in chunks with the fastest searcher of the core (WASM SIMD, else
 * JS bit-sliced), looking at the shared stop flag between chunks, and reports once: a hit, a stop or the end.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createSearcher, createFastestSearcher, type SearcherKind } from '../../core/pow/index.ts';
import type { JobMessage, WorkerMessage } from './protocol.ts';

const port = parentPort;
if (!port) throw new Error('src/node/pow/worker.ts must run in a worker thread');

const kind = (workerData as { searcher?: SearcherKind } | undefined)?.searcher;
const searcher = kind ? createSearcher(kind) : createFastestSearcher();
// Warm up for ~30 ms: V8 first runs WebAssembly with its baseline compiler and tiers up to the optimizing one
// after some use; without this the first job of a fresh worker runs ~8x slower for its first ~15 ms.
const warmDigest = new Uint8Array(32);
for (let t0 = performance.now(), n = 0n; performance.now() - t0 < 30; n += 1024n)
  searcher.search(warmDigest, 243, n, 1024);
port.postMessage({ type: 'ready', searcher: searcher.name } satisfies WorkerMessage);

port.on('message', (job: JobMessage) => {
  if (job.type !== 'job') return;
  const stop = new Int32Array(job.stop);
  const end = BigInt(job.end);
  let from = BigInt(job.start);
  let hashes = 0;
  let nonce: bigint | null = null;
  while (from < end && Atomics.load(stop, 0) === 0) {
    const left = end - from;
    const count = left < BigInt(job.chunk) ? Number(left) : job.chunk;
    const r = searcher.search(job.digest, job.targetZeros, from, count);
    hashes += r.hashes;
    if (r.nonce !== null) {
      nonce = r.nonce;
      break;
    }
    from += BigInt(count);
  }
  port.postMessage({
    type: 'done',
    id: job.id,
    nonce: nonce === null ? null : nonce.toString(),
    hashes,
  } satisfies WorkerMessage);
});
