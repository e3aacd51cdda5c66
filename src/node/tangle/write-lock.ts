/**
 * The node's write lock: runs a function where no block is being stored, between the attacher's groups
 * (attach.ts `exclusive`). Milestone confirmation, the coordinator's dry run, pruning, snapshots and the faucet's
 * reads of its funds take it, so each sees a still ledger. The composition (compose/) hands this one function to
 * every part that needs it.
 */
export type WriteLock = <T>(fn: () => Promise<T>) => Promise<T>;
