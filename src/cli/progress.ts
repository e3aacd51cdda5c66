/**
 * Progress of a long operator command on a terminal: one line on standard error, rewritten in place at most every
 * 200 ms, and only when standard error is a TTY (a pipe or a log file gets nothing, so scripted output stays clean).
 */
export interface Progress {
  /** The current state, e.g. `snapshot: 120000 outputs written`. */
  update(text: string): void;
  /** Clears the line (before the command prints its result). */
  done(): void;
}

export function terminalProgress(stream: NodeJS.WriteStream = process.stderr, intervalMs = 200): Progress {
  if (!stream.isTTY) return { update: () => undefined, done: () => undefined };
  let last = 0;
  let shown = false;
  const started = Date.now();
  return {
    update(text) {
      const now = Date.now();
      if (now - last < intervalMs) return;
      last = now;
      const line = `${text} (${((now - started) / 1000).toFixed(0)} s)`;
      stream.write(`\r\x1b[2K${line.slice(0, Math.max(20, (stream.columns ?? 100) - 1))}`);
      shown = true;
    },
    done() {
      if (shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
