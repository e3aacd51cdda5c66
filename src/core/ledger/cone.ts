/**
 * The blocks a milestone newly references, in White-Flag order (docs/protocol.md §17.1, TIP-2): depth-first from the
 * milestone's parents, a block's parents in stored order, each block emitted once all its parents are done
 * (post-order). Blocks an earlier milestone referenced and solid entry points are never entered; no block is visited
 * twice. Iterative, so deep chains do not exhaust the call stack.
 */
import { toHex, toHex0x } from '../bytes.ts';
import { reject } from '../errors.ts';
import type { Block } from '../model/block.ts';

/** What the walk needs to know about blocks; tests implement it over in-memory data. */
export interface ConeBlockSource {
  /** The decoded block, or undefined when the node does not have it. */
  block(blockId: Uint8Array): Promise<Block | undefined>;
  /** True for blocks an earlier milestone referenced and for solid entry points. */
  isReferenced(blockId: Uint8Array): Promise<boolean>;
}

export interface ConeBlock {
  blockId: Uint8Array;
  block: Block;
}

interface Frame {
  blockId: Uint8Array;
  block: Block;
  next: number;
}

/** The cone of `parents` in White-Flag order; a missing, unreferenced block makes the walk fail (MISSING_FIELD). */
export async function walkCone(
  parents: readonly Uint8Array[],
  source: ConeBlockSource,
  milestoneIndex: number,
): Promise<ConeBlock[]> {
  const seen = new Set<string>();
  const out: ConeBlock[] = [];
  const stack: Frame[] = [];

  const enter = async (blockId: Uint8Array, from: string): Promise<void> => {
    const key = toHex(blockId);
    if (seen.has(key)) return;
    seen.add(key);
    if (await source.isReferenced(blockId)) return;
    const block = await source.block(blockId);
    if (block === undefined) {
      reject(
        'MISSING_FIELD',
        `Cannot confirm milestone ${milestoneIndex}: block ${toHex0x(blockId)} (a parent of ${from}) is unknown`,
        {
          field: 'parents',
          value: toHex0x(blockId),
        },
      );
    }
    stack.push({ blockId, block, next: 0 });
  };

  for (const parent of parents) {
    await enter(parent, 'the milestone');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.block.parents.length) {
        await enter(top.block.parents[top.next++]!, toHex0x(top.blockId));
      } else {
        stack.pop();
        out.push({ blockId: top.blockId, block: top.block });
      }
    }
  }
  return out;
}
