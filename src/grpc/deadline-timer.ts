/**
 * One timer for the deadlines of all calls under way, armed for the earliest: a timer per call (set and cleared again
 * for nearly every call) cost more than the rest of a call. Used by the node's port in process (src/node/grpc/port.ts)
 * and both ends of the NodeMux transport. The timer keeps the process alive only while calls with a deadline are under
 * way, as grpc-js's per-call timers do. Nothing here knows the node; the gateway may import it.
 */

/** The longest timer Node.js keeps; a deadline further away never fires (grpc-js treats it alike). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Something with a deadline (a client call, a server call). */
export interface Expiring {
  deadlineExceeded(): void;
}

export class DeadlineTimer<T extends Expiring> {
  private readonly calls = new Map<T, number>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;

  add(call: T, at: number): void {
    this.calls.set(call, at);
    if (at < this.armedFor) this.arm(at);
    else if (this.calls.size === 1) this.timer?.ref();
  }

  remove(call: T): void {
    if (this.calls.delete(call) && this.calls.size === 0) this.timer?.unref();
  }

  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.armedFor = at;
    this.timer = setTimeout(() => this.expire(), Math.max(0, at - Date.now()));
  }

  private expire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const [call, at] of this.calls) {
      if (at <= now) {
        this.calls.delete(call);
        call.deadlineExceeded();
      } else if (at < next) next = at;
    }
    if (next !== Infinity) this.arm(next);
  }
}
