/**
 * The bootstrap's progress on a terminal: one line on standard error, redrawn at most every 250 ms, and nothing at
 * all when standard error is not a TTY (logs and pipes stay clean; the log lines say where the bootstrap stands).
 */
export interface TerminalProgress {
  update(text: string): void;
  done(): void;
}

export function terminalProgress(out: NodeJS.WriteStream = process.stderr): TerminalProgress {
  if (!out.isTTY) return { update: () => undefined, done: () => undefined };
  let drawn = 0;
  let visible = false;
  return {
    update(text) {
      if (Date.now() - drawn < 250) return;
      drawn = Date.now();
      visible = true;
      out.write(`\r\x1b[2K${text.slice(0, (out.columns ?? 100) - 1)}`);
    },
    done() {
      if (visible) out.write('\r\x1b[2K');
      visible = false;
    },
  };
}
