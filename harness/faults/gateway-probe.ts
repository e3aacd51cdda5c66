/**
 * The standalone gateway while its node is down and after: `/info` asked every 200 ms through the gateway, every
 * answer counted by status (0: no answer, which a gateway should never give: it answers errors, not silence); after
 * the node's restart, the time until the gateway serves `/info` again.
 */
import { getJson } from './client.ts';

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class GatewayProbe {
  private stopped = false;
  private readonly answers = new Map<number, number>();
  private readonly loop: Promise<void>;

  constructor(private readonly base: string) {
    this.loop = (async () => {
      while (!this.stopped) {
        const r = await getJson(base, '/info', 3000);
        this.answers.set(r.status, (this.answers.get(r.status) ?? 0) + 1);
        await pause(200);
      }
    })();
  }

  /** Stops probing; the answers by status. */
  async stop(): Promise<Map<number, number>> {
    this.stopped = true;
    await this.loop;
    return this.answers;
  }

  /** Ms from `since` until the gateway answers `/info` with 200 (Infinity: not within `timeoutMs`). */
  async recovery(since: number, timeoutMs: number): Promise<number> {
    for (;;) {
      const r = await getJson(this.base, '/info', 3000);
      if (r.status === 200) return Date.now() - since;
      if (Date.now() - since > timeoutMs) return Infinity;
      await pause(100);
    }
  }
}
