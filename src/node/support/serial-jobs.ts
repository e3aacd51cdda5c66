/**
 * Jobs run one after the other, in the order asked, each after the one before settled (a failure does not stop the
 * queue: the caller of `run` gets it). The pruner's runs and snapshots, and the history retention's runs, go through
 * one each.
 */
export class SerialJobs {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  /** Jobs asked for and not settled. */
  get size(): number {
    return this.waiting;
  }

  /** Runs `fn` once every job asked before it has settled; resolves or rejects as `fn` does. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    this.waiting++;
    const job = this.tail.then(fn).finally(() => this.waiting--);
    this.tail = job.catch(() => undefined);
    return job;
  }

  /** Resolves once no job is under way or waiting, including jobs asked for while waiting. */
  async idle(): Promise<void> {
    let tail: Promise<unknown>;
    do {
      tail = this.tail;
      await tail;
    } while (tail !== this.tail);
  }
}
