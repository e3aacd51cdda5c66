/** Answers built from what the node sent: its JSON text, or a block as raw bytes or JSON (v2 and v3 alike). */
import type { Context } from 'koa';
import { BlockView } from '../src/grpc/gen/node.ts';
import { HttpProblem } from './errors.ts';
import { addVary, JSON_CONTENT_TYPE, prefersBinary } from './media.ts';

/** The node's JSON text as it is (the node renders TIP-25 / v3 JSON; the gateway holds no mapping). */
export function sendJsonText(ctx: Context, json: string): void {
  if (json.length === 0) throw new HttpProblem(500, 'the node answered without JSON');
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = json;
}

/** Answers a block (or `what`: "output", "milestone") as the node's raw bytes (vendor type) or the node's JSON text. */
export function sendBlock(
  ctx: Context,
  binaryType: string | undefined,
  raw: Uint8Array,
  json: string,
  what = 'block',
): void {
  addVary(ctx, 'Accept');
  if (binaryType !== undefined) {
    if (raw.length === 0) throw new HttpProblem(500, `the node answered without the ${what} bytes`);
    ctx.set('Content-Type', binaryType); // a full type: Koa's `ctx.type =` would look it up in the MIME table
    ctx.body = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    return;
  }
  if (json.length === 0) throw new HttpProblem(500, `the node answered without the ${what} JSON`);
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = json;
}

/**
 * A block (or `what`: an output, a milestone payload) looked up by `fetch` in the view the client's Accept asks for:
 * the node's raw bytes when it prefers `binaryType` (a serializer type), the node's JSON text otherwise.
 */
export async function sendNegotiatedBlock(
  ctx: Context,
  binaryType: string,
  fetch: (view: BlockView) => Promise<{ raw: Uint8Array; json: string }>,
  what = 'block',
): Promise<void> {
  const binary = prefersBinary(ctx.get('accept'), binaryType);
  const res = await fetch(binary ? BlockView.BLOCK_VIEW_RAW : BlockView.BLOCK_VIEW_JSON);
  sendBlock(ctx, binary ? binaryType : undefined, res.raw, res.json, what);
}
