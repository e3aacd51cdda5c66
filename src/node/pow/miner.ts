/**
 * The node's multi-core PoW miner: a pool of worker threads (one per core by default), each searching a disjoint
 * nonce range (worker i starts at i · 2^64 / workers). The first hit stops every worker; an AbortSignal (client gone,
 * tips refreshed) stops them too. Jobs run one at a time, in order; the pool is kept between jobs.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  DIGEST_BYTES,
  MAX_NONCE,
  NONCE_BYTES,
  powDigest,
  targetZeros,
  type SearcherKind,
} from '../../core/pow/index.ts';
import type { DoneMessage, JobMessage, WorkerMessage } from './protocol.ts';

export interface MinerOptions {
  /** Worker threads; default one per core (os.availableParallelism()). */
  workers?: number;
  /** Nonces a worker searches between two looks at the stop flag; default 16384 (a few milliseconds). */
  chunk?: number;
  /** Force a core searcher (tests and benchmarks); default the fastest available. */
  searcher?: SearcherKind;
}

/** Block bytes without the nonce, or the PoW digest and the full block length (nonce included). */
export type MineInput = Uint8Array | { digest: Uint8Array; length: number };

export interface MineResult {
  nonce: bigint;
  /** Hashes evaluated by all workers together. */
  hashes: number;
  /** Trailing zeros required. */
  targetZeros: number;
  /** Milliseconds from the start of the job to the moment every worker had stopped. */
  ms: number;
}

export interface Miner {
  readonly workers: number;
  /** Finds a nonce that gives the block `targetScore`; rejects with the signal's reason when aborted. */
  mine(input: MineInput, targetScore: number, signal?: AbortSignal): Promise<MineResult>;
  /**
   * Starts the pool (a node calls this at start-up: a worker needs ~0.5 s to load) and names each worker's searcher.
   */
  searcherNames(): Promise<string[]>;
  /** Terminates the workers; a later mine() starts a new pool. */
  close(): Promise<void>;
}

interface PoolWorker {
  worker: Worker;
  ready: Promise<string>;
  onDone: ((m: DoneMessage) => void) | null;
  onError: ((e: Error) => void) | null;
}

/** The worker module beside this one: worker.js in the compiled build (dist/), worker.ts when run from sources. */
const COMPILED = import.meta.url.endsWith('.js');
const WORKER_URL = new URL(COMPILED ? './worker.js' : './worker.ts', import.meta.url);

/**
 * Run from sources, the worker is TypeScript. Node 20 does not reliably apply `--import tsx` inside workers, so each
 * worker starts with a two-line bootstrap that registers tsx's ESM hooks itself and then imports worker.ts.
 */
const BOOTSTRAP = COMPILED
  ? `import(${JSON.stringify(WORKER_URL.href)});`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;

function workerExecArgv(): string[] {
  return process.execArgv.filter((a) => !/tsx/.test(a) && a !== '--import' && a !== '--require');
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? Object.assign(new Error('PoW cancelled'), { name: 'AbortError' });
}

export function createMiner(options: MinerOptions = {}): Miner {
  const workers = options.workers ?? availableParallelism();
  if (!Number.isInteger(workers) || workers < 1 || workers > 256)
    throw new RangeError(`Cannot create miner: workers ${workers} is not in 1..256`);
  const chunk = options.chunk ?? 16384;
  if (!Number.isSafeInteger(chunk) || chunk < 1)
    throw new RangeError(`Cannot create miner: chunk ${chunk} is not a positive integer`);
  let pool: PoolWorker[] | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  let nextId = 1;

  function startPool(): PoolWorker[] {
    if (pool) return pool;
    pool = Array.from({ length: workers }, () => {
      const worker = new Worker(BOOTSTRAP, {
        eval: true,
        execArgv: workerExecArgv(),
        workerData: { searcher: options.searcher },
      });
      const pw: PoolWorker = { worker, ready: Promise.resolve(''), onDone: null, onError: null };
      pw.ready = new Promise<string>((resolve, reject) => {
        worker.on('message', (m: WorkerMessage) => {
          if (m.type === 'ready') resolve(m.searcher);
          else if (m.type === 'done') pw.onDone?.(m);
        });
        const fail = (e: Error) => {
          reject(e);
          pw.onError?.(e);
          if (pool?.includes(pw)) {
            for (const other of pool) if (other !== pw) void other.worker.terminate();
            pool = null;
          }
        };
        worker.on('error', fail);
        worker.on('exit', (code) => fail(new Error(`PoW worker exited with code ${code}`)));
      });
      pw.ready.catch(() => undefined);
      worker.unref();
      return pw;
    });
    return pool;
  }

  async function runJob(digest: Uint8Array, zeros: number, signal: AbortSignal | undefined): Promise<MineResult> {
    const t0 = performance.now();
    if (signal?.aborted) throw abortError(signal);
    const workersNow = startPool();
    for (const w of workersNow) w.worker.ref(); // keep the process alive while a job is under way
    try {
      await Promise.all(workersNow.map((w) => w.ready));
      if (signal?.aborted) throw abortError(signal);
    } catch (e) {
      for (const w of workersNow) w.worker.unref();
      throw e;
    }
    const id = nextId++;
    const stopBuffer = new SharedArrayBuffer(4);
    const stop = new Int32Array(stopBuffer);
    const span = (MAX_NONCE + 1n) / BigInt(workers);
    return new Promise<MineResult>((resolve, reject) => {
      let pending = workers;
      let hashes = 0;
      let found: bigint | null = null;
      let failure: unknown = null;
      const onAbort = () => Atomics.store(stop, 0, 1);
      signal?.addEventListener('abort', onAbort, { once: true });
      const finish = () => {
        signal?.removeEventListener('abort', onAbort);
        for (const w of workersNow) {
          w.onDone = null;
          w.onError = null;
          w.worker.unref();
        }
        if (failure !== null) reject(failure);
        else if (found !== null) resolve({ nonce: found, hashes, targetZeros: zeros, ms: performance.now() - t0 });
        else if (signal?.aborted) reject(abortError(signal));
        else reject(new Error('PoW failed: no nonce in the whole u64 range reaches the target'));
      };
      workersNow.forEach((w, i) => {
        w.onDone = (m) => {
          if (m.id !== id) return;
          hashes += m.hashes;
          if (m.nonce !== null && found === null) {
            found = BigInt(m.nonce);
            Atomics.store(stop, 0, 1); // first hit wins: stop the others
          }
          if (--pending === 0) finish();
        };
        w.onError = (e) => {
          failure = e;
          Atomics.store(stop, 0, 1);
          pending = 0;
          finish();
        };
        const start = span * BigInt(i);
        const end = i === workers - 1 ? MAX_NONCE + 1n : start + span;
        const job: JobMessage = {
          type: 'job',
          id,
          digest,
          targetZeros: zeros,
          start: start.toString(),
          end: end.toString(),
          chunk,
          stop: stopBuffer,
        };
        w.worker.postMessage(job);
      });
    });
  }

  return {
    workers,
    mine(input, targetScore, signal) {
      let digest: Uint8Array;
      let length: number;
      if (input instanceof Uint8Array) {
        digest = powDigest(input);
        length = input.length + NONCE_BYTES;
      } else {
        digest = input.digest;
        length = input.length;
        if (!(digest instanceof Uint8Array) || digest.length !== DIGEST_BYTES)
          throw new RangeError(`Cannot mine: digest must be 32 bytes`);
      }
      const zeros = targetZeros(length, targetScore);
      const job = queue.then(() => runJob(digest, zeros, signal));
      queue = job.catch(() => undefined);
      return job;
    },
    async searcherNames() {
      const p = startPool();
      for (const w of p) w.worker.ref();
      try {
        return await Promise.all(p.map((w) => w.ready));
      } finally {
        for (const w of p) w.worker.unref();
      }
    },
    async close() {
      const p = pool;
      pool = null;
      if (p) await Promise.all(p.map((w) => w.worker.terminate()));
    },
  };
}
