/**
 * Small helpers for the node's service handlers: checking identifiers from requests and shaping block answers by
 * the requested `BlockView`, so every handler (GetBlock, GetIncludedBlock, GetIncludedBlockV3) answers alike.
 */
import { ID_LENGTH, type Block } from '../../core/model/index.ts';
import { BLOCK_ID_LENGTH as BLOCK_ID_LENGTH_V3 } from '../../core/v3/model/codes.ts';
import { clip } from '../../core/bytes.ts';
import { quoteBytes } from '../../core/text.ts';
import { BlockView, type BlockResponse, type BlockV3Response, type StorageStatus } from '../../grpc/gen/node.ts';
import type { NodeInfo } from '../status/status.ts';
import { blockToProto } from '../../grpc/mapping.ts';
import { NodeError } from '../support/errors.ts';

/** Block and transaction IDs: 32 bytes in v2, 32 + a 4-byte slot index in v3. */
export const V2_ID_LENGTH = ID_LENGTH;
export const V3_ID_LENGTH = BLOCK_ID_LENGTH_V3;

/**
 * A request's query parameters by name (the indexer's and the explorer's routes); a name given twice is refused
 * (which one would count?), quoted at most 60 characters.
 */
export function parametersByName(list: readonly { name: string; value: string }[]): Record<string, string> {
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const { name, value } of list) {
    if (name in params)
      throw new NodeError('INVALID_REQUEST', `query parameter ${clip(name, 60)} is given more than once`);
    params[name] = value;
  }
  return params;
}

/**
 * Rejects an identifier of the wrong length with INVALID_REQUEST (-> INVALID_ARGUMENT, 400; docs/decisions.md §10).
 */
export function requireId(id: Uint8Array | undefined, length: number, what: string): Uint8Array {
  const n = id?.length ?? 0;
  if (!(id instanceof Uint8Array) || n !== length) {
    throw new NodeError(
      'INVALID_REQUEST',
      `invalid ${what}: ${quoteBytes(id ?? new Uint8Array(0))}, expected ${length} bytes, got ${n}`,
    );
  }
  return id;
}

/** The three ways to produce a stored block; only the ones the view asks for are called. */
export interface BlockSources {
  block: () => Block;
  raw: () => Uint8Array;
  json: () => string;
}

const wants = (view: BlockView, part: BlockView): boolean => view === BlockView.BLOCK_VIEW_UNSPECIFIED || view === part;

function requireKnownView(view: BlockView): void {
  if (!Object.values(BlockView).includes(view) || view === BlockView.UNRECOGNIZED) {
    throw new NodeError('INVALID_REQUEST', `invalid block view: ${String(view)}`);
  }
}

/** A v2 block answer holding what `view` asks for (UNSPECIFIED: all three). */
export function blockResponse(blockId: Uint8Array, view: BlockView, src: BlockSources): BlockResponse {
  requireKnownView(view);
  return {
    blockId,
    block: wants(view, BlockView.BLOCK_VIEW_STRUCTURED) ? blockToProto(src.block()) : undefined,
    raw: wants(view, BlockView.BLOCK_VIEW_RAW) ? src.raw() : new Uint8Array(0),
    json: wants(view, BlockView.BLOCK_VIEW_JSON) ? src.json() : '',
  };
}

/** A v3 block answer: bytes and JSON only; STRUCTURED is refused. */
export function blockV3Response(
  blockId: Uint8Array,
  view: BlockView,
  src: Omit<BlockSources, 'block'>,
): BlockV3Response {
  requireKnownView(view);
  if (view === BlockView.BLOCK_VIEW_STRUCTURED)
    throw new NodeError('INVALID_REQUEST', 'the structured view is not offered for v3 blocks');
  return {
    blockId,
    raw: wants(view, BlockView.BLOCK_VIEW_RAW) ? src.raw() : new Uint8Array(0),
    json: wants(view, BlockView.BLOCK_VIEW_JSON) ? src.json() : '',
  };
}

/**
 * Refuses an unknown view and STRUCTURED (INVALID_REQUEST naming `what`) for answers offered as bytes and JSON only.
 */
export function requireRawOrJsonView(view: BlockView, what: string): void {
  requireKnownView(view);
  if (view === BlockView.BLOCK_VIEW_STRUCTURED)
    throw new NodeError('INVALID_REQUEST', `the structured view is not offered for ${what}`);
}

/**
 * The `raw` and `json` fields of an answer offered as bytes and JSON only (outputs, milestones): what `view` asks for
 * (UNSPECIFIED: both).
 */
export function rawAndJson(
  view: BlockView,
  what: string,
  src: Omit<BlockSources, 'block'>,
): { raw: Uint8Array; json: string } {
  requireRawOrJsonView(view, what);
  return {
    raw: wants(view, BlockView.BLOCK_VIEW_RAW) ? src.raw() : new Uint8Array(0),
    json: wants(view, BlockView.BLOCK_VIEW_JSON) ? src.json() : '',
  };
}

/**
 * The JSON text of recently answered blocks by block ID, so a block read again is not decoded and rendered again
 * (GET block is the hot read of the REST API). A block ID is the hash of the block's bytes and the rendering is a
 * function of the bytes, so an entry never goes stale. Bounded by the characters kept; the oldest entries go first.
 */
export class RenderedJson {
  private readonly texts = new Map<string, string>();
  private chars = 0;

  constructor(private readonly maxChars: number = DEFAULT_RENDERED_JSON_CHARS) {}

  /** The text of `blockId`, rendering it with `render` (and keeping it) on a miss. */
  of(blockId: Uint8Array, render: () => string): string {
    const key = Buffer.from(blockId.buffer, blockId.byteOffset, blockId.byteLength).toString('latin1');
    const kept = this.texts.get(key);
    if (kept !== undefined) return kept;
    const text = render();
    if (text.length > this.maxChars) return text;
    this.chars += text.length;
    this.texts.set(key, text);
    for (const [oldest, old] of this.texts) {
      if (this.chars <= this.maxChars) break;
      this.texts.delete(oldest);
      this.chars -= old.length;
    }
    return text;
  }

  get size(): number {
    return this.texts.size;
  }
}

/** 8 M characters: tens of thousands of typical blocks. */
export const DEFAULT_RENDERED_JSON_CHARS = 8 * 1024 * 1024;

/** /info's `storage` (status/storage.ts) as the proto's StorageStatus. */
export function storageStatus(s: NonNullable<NodeInfo['storage']>): StorageStatus {
  return {
    databaseSizeBytes: BigInt(s.databaseBytes),
    diskFreeBytes: BigInt(s.diskFreeBytes),
    diskSizeBytes: BigInt(s.diskSizeBytes),
    ...(s.growthBytesPerHour !== undefined ? { growthBytesPerHour: BigInt(s.growthBytesPerHour) } : {}),
    ...(s.secondsUntilFull !== undefined ? { secondsUntilFull: BigInt(s.secondsUntilFull) } : {}),
    ...(s.pruningIndexTimestamp !== undefined ? { pruningIndexTimestamp: s.pruningIndexTimestamp } : {}),
  };
}
