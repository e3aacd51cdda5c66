/** Messages between the miner (main thread) and its PoW workers. Nonces travel as decimal strings. */
export interface JobMessage {
  type: 'job';
  id: number;
  digest: Uint8Array;
  targetZeros: number;
  /** First nonce of this worker's range (decimal). */
  start: string;
  /** Exclusive end of the range (decimal). */
  end: string;
  /** Nonces searched between two looks at the stop flag. */
  chunk: number;
  /** Int32Array(1) over this; non-zero = stop (a hit elsewhere, or cancellation). */
  stop: SharedArrayBuffer;
}

export interface DoneMessage {
  type: 'done';
  id: number;
  /** The nonce found (decimal), or null when stopped or the range ran out. */
  nonce: string | null;
  hashes: number;
}

export interface ReadyMessage {
  type: 'ready';
  searcher: string;
}

export type WorkerMessage = DoneMessage | ReadyMessage;
