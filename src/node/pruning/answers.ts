/**
 * What a read of pruned data answers (docs/decisions.md §17, §27): a milestone index at or below the pruning index is
 * certainly pruned (PRUNED, 404, naming the index); an ID the node does not hold may have been pruned or may never
 * have existed, so that NOT_FOUND says both and names the index.
 */
import { pruningIndexOf } from '../../core/pruning/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { NodeError } from '../support/errors.ts';

/** `${what} was pruned ...` when `index` is at or below the pruning index, else undefined. */
export async function prunedMilestone(store: NodeStore, index: number, what: string): Promise<NodeError | undefined> {
  const p = await pruningIndexOf(store);
  if (p === undefined || index > p) return undefined;
  return new NodeError(
    'PRUNED',
    `${what} was pruned: this node keeps nothing at or below milestone ${p}, its pruning index`,
  );
}

/** NOT_FOUND `${message}`, on a pruned store with the note that the data may have been pruned. */
export async function notFound(store: NodeStore, message: string, unprunedNote?: string): Promise<NodeError> {
  const p = await pruningIndexOf(store);
  if (p === undefined)
    return new NodeError('NOT_FOUND', unprunedNote === undefined ? message : `${message} (${unprunedNote})`);
  const note = unprunedNote === undefined ? 'unknown' : unprunedNote;
  return new NodeError(
    'NOT_FOUND',
    `${message} (${note}, or pruned: this node keeps nothing referenced at or below milestone ${p}, its pruning index)`,
  );
}
