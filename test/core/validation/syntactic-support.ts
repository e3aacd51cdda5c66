/** What the syntactic validation tests share: the Shimmer context, and a check of the code and field of a rejection. */
import { expect } from 'chai';
import type { ProtocolError } from '../../../src/core/errors.ts';
import { validateBlockSyntax } from '../../../src/core/validation/syntactic.ts';
import {
  SHIMMER_PROTOCOL,
  type Block,
  type MilestonePayload,
  type TransactionPayload,
} from '../../../src/core/model/index.ts';
import { SHIMMER_NETWORK_ID } from '../codec/fixtures.ts';
import { protocolErrorOf } from '../../support/protocol-error.ts';

const ctx = { protocol: SHIMMER_PROTOCOL, networkId: SHIMMER_NETWORK_ID };
export const validate = (b: Block) => validateBlockSyntax(b, ctx);

/** Asserts the code and the reported field path. */
export function rejects(b: Block, code: string, field?: string): ProtocolError {
  const e = protocolErrorOf(() => validate(b));
  expect(e.code, e.message).to.equal(code);
  if (field !== undefined) expect(e.field, e.message).to.equal(field);
  return e;
}

export const tx = (b: Block) => b.payload as TransactionPayload;
export const outs = (b: Block) => tx(b).essence.outputs;
export const ms = (b: Block) => b.payload as MilestonePayload;
