/**
 * Operational storage failures (not protocol rejections): callers branch on `code`, never on the message.
 * Records that fail to decode surface as ProtocolError from the byte reader, naming field and offset.
 */
export type StoreErrorCode =
  | 'STORE_LOCKED' // the folder is held by another process or another open store
  | 'STORE_CLOSED' // the store was used after close()
  | 'STORE_OPEN_FAILED' // the engine could not open the folder for another reason
  | 'SCHEMA_MISMATCH' // the stored schema version is not the one this code writes
  | 'NETWORK_MISMATCH' // the store belongs to another network
  | 'BATCH_COMMITTED'; // a StoreBatch was used after commit()

export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message);
    this.name = 'StoreError';
    this.code = code;
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}
