/**
 * The body of a block submission (v2 and v3 alike): the vendor media type passes the bytes as they are; JSON is
 * checked here for UTF-8, prototype-polluting keys, nesting depth and syntax, then passed to the node as TEXT (the node
 * parses it with the core's one JSON mapping).
 */
import type { Context } from 'koa';
import type { SubmitBlockResponse } from '../src/grpc/gen/node.ts';
import { hex0x } from './ids.ts';
import { submitBlockToJson } from './render.ts';
import { readBody, requireMediaType } from './body.ts';
import { HttpProblem } from './errors.ts';
import { DEFAULT_MAX_JSON_DEPTH, guardJsonText } from './json-guard.ts';
import { JSON_TYPE } from './media.ts';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

export type SubmittedBlock = { $case: 'raw'; value: Uint8Array } | { $case: 'json'; value: string };

export function submittedBlock(
  mediaType: string,
  body: Uint8Array,
  binaryType: string,
  maxJsonDepth = DEFAULT_MAX_JSON_DEPTH,
): SubmittedBlock {
  if (body.length === 0) throw new HttpProblem(400, 'invalid block: request body missing');
  if (mediaType === binaryType) return { $case: 'raw', value: body };
  let text: string;
  try {
    text = UTF8.decode(body);
  } catch {
    throw new HttpProblem(400, 'invalid block: request body is not valid UTF-8');
  }
  guardJsonText(text, maxJsonDepth); // depth and prototype-polluting keys, before any parse
  try {
    JSON.parse(text);
  } catch (err) {
    throw new HttpProblem(400, `invalid block: malformed JSON body: ${(err as Error).message}`);
  }
  return { $case: 'json', value: text };
}

/** A POSTed block: `application/json` or the given vendor type (parameters ignored), anything else 415. */
export async function readSubmittedBlock(
  ctx: Context,
  binaryType: string,
  options: { bodyLimitBytes: number; maxJsonDepth?: number },
): Promise<SubmittedBlock> {
  const mediaType = requireMediaType(ctx, [JSON_TYPE, binaryType]);
  return submittedBlock(mediaType, await readBody(ctx.req, options.bodyLimitBytes), binaryType, options.maxJsonDepth);
}

/** 201 with `Location: <block ID>` and `{"blockId"}`, whatever `Accept` says (docs/decisions.md §13, §19). */
export function sendCreated(ctx: Context, res: SubmitBlockResponse): void {
  ctx.status = 201;
  ctx.set('Location', hex0x(res.blockId));
  ctx.body = submitBlockToJson(res);
}
