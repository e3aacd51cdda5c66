/** Polling, for tests and scripts that wait on a node: a probe called again until it has an answer. */

/**
 * Calls `probe` every `everyMs` until it returns a value other than undefined and returns that value; fails after
 * `timeoutMs` with "timed out waiting for `what`". A probe that throws fails the wait at once.
 */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20000,
  everyMs = 25,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
