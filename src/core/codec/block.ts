/** The Stardust block (docs/protocol.md §2): version, parents, embedded payload, nonce. */
import type { Block, BlockPayload } from '../model/index.ts';
import { LIMITS } from '../model/limits.ts';
import { ByteReader } from './reader.ts';
import type { ByteWriter } from './writer.ts';
import { readParents, writeParents } from './parents.ts';
import { checkEmbeddedEnd, readEmbeddedHeader, writeEmbedded } from './embedded.ts';
import { readPayload, writePayload } from './payload.ts';
import { encodeWith } from './common.ts';
import { reject } from '../errors.ts';

export interface DecodeBlockOptions {
  /** Accept a parent count of 0: a submission whose parents the node fills in. */
  allowNoParents?: boolean;
}

/**
 * Strict, canonical block decoding: length <= 32768, 1..8 strictly ascending parents (0 with allowNoParents),
 * payload none/5/6/7 with an exact length prefix, no trailing bytes. Any protocol version byte is accepted here.
 */
export function decodeBlock(bytes: Uint8Array, opts?: DecodeBlockOptions): Block {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('Cannot decode block: expected a Uint8Array');
  if (bytes.length > LIMITS.maxBlockLength) {
    reject(
      'BLOCK_TOO_LARGE',
      `Cannot decode block: length ${bytes.length} exceeds ${LIMITS.maxBlockLength} bytes at offset 0`,
      {
        field: 'block',
        offset: 0,
        value: String(bytes.length),
      },
    );
  }
  const r = new ByteReader(bytes, 'block');
  const protocolVersion = r.u8('protocolVersion');
  const parents = readParents(r, 'parents', opts?.allowNoParents ? 0 : LIMITS.parents.min);
  const length = readEmbeddedHeader(r, 'payload', 'block');
  let payload: BlockPayload | undefined;
  if (length !== 0) {
    const start = r.offset;
    payload = readPayload(r, 'payload', 'block') as BlockPayload;
    checkEmbeddedEnd(r, 'payload', start, length);
  }
  const nonce = r.u64('nonce');
  r.end();
  const block: Block = { protocolVersion, parents, nonce };
  if (payload !== undefined) block.payload = payload;
  return block;
}

export function writeBlock(w: ByteWriter, b: Block): void {
  w.u8(b.protocolVersion);
  writeParents(w, b.parents);
  writeEmbedded(w, writePayload, b.payload);
  w.u64(b.nonce);
}

export function encodeBlock(b: Block): Uint8Array {
  return encodeWith(writeBlock, b);
}
