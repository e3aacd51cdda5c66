/** The node's log: one line per event. Tests pass a collecting logger; the CLI writes to the console. */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** Unexpected failures: the message and the stack of `error`. */
  error(message: string, error?: unknown): void;
}

export const consoleLogger: Logger = {
  info: (m) => console.log(`${new Date().toISOString()} INFO ${m}`),
  warn: (m) => console.warn(`${new Date().toISOString()} WARN ${m}`),
  error: (m, e) => console.error(`${new Date().toISOString()} ERROR ${m}${e instanceof Error && e.stack ? `\n${e.stack}` : e !== undefined ? ` ${String(e)}` : ''}`),
};

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
