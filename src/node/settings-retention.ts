/**
 * What the node keeps, declared once (src/node/settings.ts lists these among the node's settings, in this order):
 * block pruning by milestones or by size (docs/decisions.md §27), the IOTA 2.0 part's retention (§46) and the explorer
 * history's (§47).
 */
import { setting, positive, uint, type ValueType } from './rest.ts';
import { DEFAULT_V3_RETENTION_EPOCHS } from './v3/retention.ts';
import { parseSize } from './pruning/size.ts';

/**
 * A size as Hornet's configuration reads it (pruning/size.ts): `30GB`, `500MiB`, a bare number of bytes; kept as text.
 */
const size: ValueType<string> = {
  name: 'size',
  arg: 'SIZE',
  expected: 'a size like 30GB (KB, MB, GB, TB; KiB, MiB, GiB, TiB)',
  parse: (raw) => (typeof raw === 'string' && parseSize(raw) !== undefined ? raw : undefined),
};

const RUN = ['run'] as const;

/** The retention settings of `ledger-node run`. */
export const RETENTION_SETTINGS = [
  setting({
    key: 'pruneMilestones',
    type: positive,
    defaultText: 'off',
    description:
      'prune automatically, keeping the last N confirmed milestones (at least belowMaxDepth + 5 are always kept)',
    commands: RUN,
  }),
  setting({
    key: 'pruneSize',
    type: size,
    defaultText: 'off',
    description: 'prune automatically when the store is larger than SIZE, down to 90% of it, at most every 5 minutes',
    commands: RUN,
  }),
  setting({
    key: 'pruneV3Epochs',
    type: uint,
    defaultText: String(DEFAULT_V3_RETENTION_EPOCHS),
    description:
      'keep the confirmed IOTA 2.0 blocks of the epoch of the latest slot commitment and of the N epochs before it, ' +
      'pruning older ones in the background (an epoch is 8,192 slots: 2 h 16 min on the dev network; 0 = off: v3 ' +
      'blocks then go only with the v2 pruning); slot commitments are kept',
    commands: RUN,
  }),
  setting({
    key: 'historyMilestones',
    type: positive,
    defaultText: 'all',
    description:
      'keep the explorer history (/api/explorer/v2) of the last N confirmed milestones; block pruning leaves it alone',
    commands: RUN,
  }),
] as const;
