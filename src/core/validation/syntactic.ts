/**
 * Syntactic validation of a block model (docs/protocol.md §14), before any ledger lookup. A model may come from JSON,
 * so everything the binary decoder enforces is checked again here through the same shared rules, plus the value rules
 * the decoder leaves out. Signature verification and PoW belong elsewhere.
 */
import type { Block } from '../model/block.ts';
import type { ProtocolParameters } from '../model/protocol.ts';
import { PAYLOAD_MILESTONE, PAYLOAD_TAGGED_DATA, PAYLOAD_TRANSACTION } from '../model/payload.ts';
import { LIMITS } from '../model/limits.ts';
import { payloadKindProblem, u64Problem, uintProblem } from '../codec/rules.ts';
import { writeBlock } from '../codec/block.ts';
import { encodedLength } from '../codec/common.ts';
import { check, invalid } from './fail.ts';
import { checkMilestone, checkParents } from './milestone.ts';
import { checkTaggedData } from './tagged-data.ts';
import { checkTransaction } from './transaction.ts';

export interface SyntaxContext {
  protocol: ProtocolParameters;
  networkId: bigint;
}

export function validateBlockSyntax(block: Block, ctx: SyntaxContext): void {
  if (block === null || typeof block !== 'object') throw new TypeError('validateBlockSyntax: expected a block model');
  check(uintProblem('protocol version', block.protocolVersion, 8), 'protocolVersion');
  if (block.protocolVersion !== ctx.protocol.version) {
    invalid(
      'PROTOCOL_VERSION_MISMATCH',
      `protocol version differs from the node's ${ctx.protocol.version}`,
      'protocolVersion',
      block.protocolVersion,
    );
  }
  checkParents(block.parents, 'parents');
  check(u64Problem('nonce', block.nonce), 'nonce');
  const p = block.payload;
  if (p !== undefined && p !== null) {
    check(payloadKindProblem('block', p.type), 'payload.type', p.type);
    if (p.type === PAYLOAD_TAGGED_DATA) checkTaggedData(p, 'payload', 'block');
    else if (p.type === PAYLOAD_TRANSACTION) checkTransaction(p, 'payload', ctx);
    else if (p.type === PAYLOAD_MILESTONE) {
      checkMilestone(p, block.parents, 'payload');
      if (block.nonce !== 0n) invalid('INVALID_NONCE', 'a milestone block must have nonce 0', 'nonce', block.nonce);
    }
  }
  const length = encodedLength(writeBlock, block);
  if (length > LIMITS.maxBlockLength)
    invalid(
      'BLOCK_TOO_LARGE',
      `serialized block is ${length} bytes, more than ${LIMITS.maxBlockLength}`,
      'block',
      length,
    );
}

export { minStorageDeposit } from './storage-deposit.ts';
