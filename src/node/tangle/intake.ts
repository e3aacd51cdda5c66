/**
 * SubmitBlock (node-behavior §5, DECISIONS.md): parse the raw / JSON / structured block, fill what the client left
 * for the node (parents by tip selection, nonce by proof of work), validate, and attach.
 *
 * Order (Hornet's attacher, with the status choices of DECISIONS.md):
 *   1. parse: raw with `decodeBlock(bytes, { allowNoParents: true })` (> 32768 bytes, unknown payloads, too many
 *      or unsorted parents fail here), JSON with `blockFromJson(..., { submission: true })` after JSON.parse
 *      (INVALID_JSON), structured with the proto mapping;
 *   2. the protocol version must be the network's (PROTOCOL_VERSION_MISMATCH, before any work);
 *   3. zero parents: a non-zero nonce is INVALID_NONCE; without PoW (and min score > 0) POW_UNAVAILABLE; else
 *      up to 4 tips (NO_TIPS when the pool is empty);
 *   4. full syntactic validation with the nonce as given (invalid blocks fail before any mining, hornet#1821);
 *   5. proof of work (not for milestone blocks, whose nonce must be 0, nor when minPowScore is 0): nonce 0 whose
 *      score is too low is mined at minPowScore (client parents are kept, hornet#1727), or POW_UNAVAILABLE with
 *      "proof of work is not available on this node" when this node has PoW off; then score >= minPowScore or
 *      POW_SCORE_TOO_LOW;
 *   6. attach (one atomic batch), then answer with the block ID.
 * The bytes stored are the client's own bytes whenever the node changed nothing (raw submissions), else the
 * canonical encoding of the completed block.
 */
import { decodeBlock, encodeBlock } from '../../core/codec/index.ts';
import { ProtocolError, reject } from '../../core/errors.ts';
import { blockId as blockIdOfBytes } from '../../core/ids/index.ts';
import { blockFromJson } from '../../core/json/index.ts';
import { PAYLOAD_MILESTONE, type Block } from '../../core/model/index.ts';
import { NONCE_BYTES, powScore } from '../../core/pow/index.ts';
import { validateBlockSyntax } from '../../core/validation/index.ts';
import type { SubmitBlockRequest } from '../../grpc/gen/node.ts';
import { blockFromProto } from '../../grpc/mapping.ts';
import { NodeError } from '../errors.ts';
import type { Attacher } from './attach.ts';
import type { NetworkState } from '../network.ts';
import type { PowQueue } from '../pow/queue.ts';

/** The phrase the Rust SDK string-matches to fall back to local PoW (node-behavior §0). */
export const POW_UNAVAILABLE_PHRASE = 'proof of work is not available on this node';

export interface SubmitDeps {
  network: NetworkState;
  /** Undefined when remote PoW is off (`--pow-workers 0`). */
  pow: PowQueue | undefined;
  attacher: Attacher;
  selectTips: () => Promise<Uint8Array[]>;
}

export interface Submission {
  block: Block;
  /** The client's bytes (raw submissions). */
  raw?: Uint8Array;
}

export function parseSubmission(req: SubmitBlockRequest): Submission {
  const body = req.block;
  switch (body?.$case) {
    case 'raw':
      if (body.value.length === 0) throw new NodeError('INVALID_REQUEST', 'invalid block: request body missing');
      return { block: decodeBlock(body.value, { allowNoParents: true }), raw: body.value };
    case 'json': {
      let json: unknown;
      try {
        json = JSON.parse(body.value);
      } catch (e) {
        return reject('INVALID_JSON', `invalid block JSON: ${(e as Error).message}`, { field: 'block', value: body.value.slice(0, 80) });
      }
      return { block: blockFromJson(json, { submission: true }) };
    }
    case 'structured':
      return { block: blockFromProto(body.value, 'block') };
    default:
      throw new NodeError('INVALID_REQUEST', 'invalid block: the request carries no block (set structured, raw or json)');
  }
}

function abortReason(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : r === undefined ? 'aborted' : String(r);
}

/** Runs the whole submission; resolves to the block ID once the block is durably stored. */
export async function submitBlock(deps: SubmitDeps, req: SubmitBlockRequest, signal: AbortSignal): Promise<Uint8Array> {
  const { block, raw } = parseSubmission(req);
  const protocol = deps.network.protocol;
  if (block.protocolVersion !== protocol.version) {
    reject('PROTOCOL_VERSION_MISMATCH', `invalid block: protocol version ${block.protocolVersion} differs from the node's ${protocol.version}`, {
      field: 'protocolVersion',
      value: String(block.protocolVersion),
    });
  }
  const isMilestone = block.payload?.type === PAYLOAD_MILESTONE;
  const needsPow = !isMilestone && protocol.minPowScore > 0;
  let changed = false;
  if (block.parents.length === 0) {
    if (block.nonce !== 0n) reject('INVALID_NONCE', 'invalid block: no parents were given but nonce was != 0', { field: 'nonce', value: String(block.nonce) });
    if (needsPow && !deps.pow) throw new NodeError('POW_UNAVAILABLE', `${POW_UNAVAILABLE_PHRASE}: no parents were given and the node cannot do the proof of work for them`);
    block.parents = await deps.selectTips();
    changed = true;
  }
  validateBlockSyntax(block, { protocol, networkId: deps.network.networkId });
  let bytes = !changed && raw ? raw : encodeBlock(block);
  if (needsPow) {
    if (block.nonce === 0n && powScore(bytes) < protocol.minPowScore) {
      if (!deps.pow) throw new NodeError('POW_UNAVAILABLE', POW_UNAVAILABLE_PHRASE);
      if (signal.aborted) throw new NodeError('INTERNAL', `proof of work aborted: ${abortReason(signal)}`);
      try {
        block.nonce = await deps.pow.mine(bytes.subarray(0, bytes.length - NONCE_BYTES), protocol.minPowScore, signal);
      } catch (e) {
        if (signal.aborted) throw new NodeError('INTERNAL', `proof of work aborted: ${abortReason(signal)}`);
        throw e;
      }
      bytes = encodeBlock(block);
    }
    const score = powScore(bytes);
    if (score < protocol.minPowScore) {
      throw new ProtocolError('POW_SCORE_TOO_LOW', `invalid block: insufficient PoW score ${score.toFixed(2)}, the node requires ${protocol.minPowScore}`, {
        field: 'nonce',
        value: String(block.nonce),
      });
    }
  }
  const id = blockIdOfBytes(bytes);
  await deps.attacher.attach(id, bytes, block);
  return id;
}
