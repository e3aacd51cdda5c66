/**
 * The node's log: one line per event. Tests pass a collecting logger; the CLI writes to the console, as text lines
 * (`TIME LEVEL message`, an error's stack on the lines after) or, with `--log-format json`, one JSON object per line
 * with the same fields, `{"time","level","message"}` plus `"error": {"name","message","stack"}` when there is one, for
 * log shippers. Both write info to standard output and warnings and errors to standard error.
 */
export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  /** Unexpected failures: the message and the stack of `error`. */
  error(message: string, error?: unknown): void;
}

export type LogFormat = 'text' | 'json';

export const consoleLogger: Logger = {
  info: (m) => console.log(`${new Date().toISOString()} INFO ${m}`),
  warn: (m) => console.warn(`${new Date().toISOString()} WARN ${m}`),
  error: (m, e) =>
    console.error(
      `${new Date().toISOString()} ERROR ` +
        `${m}${e instanceof Error && e.stack ? `\n${e.stack}` : e !== undefined ? ` ${String(e)}` : ''}`,
    ),
};

/** One log event as a JSON line (the fields of the text line; `error` when one is given). */
export function jsonLogLine(
  level: 'INFO' | 'WARN' | 'ERROR',
  message: string,
  error?: unknown,
  time = new Date(),
): string {
  const line: Record<string, unknown> = { time: time.toISOString(), level, message };
  if (error instanceof Error)
    line.error = { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  else if (error !== undefined) line.error = { message: String(error) };
  return JSON.stringify(line);
}

export const jsonLogger: Logger = {
  info: (m) => console.log(jsonLogLine('INFO', m)),
  warn: (m) => console.warn(jsonLogLine('WARN', m)),
  error: (m, e) => console.error(jsonLogLine('ERROR', m, e)),
};

export function consoleLoggerFor(format: LogFormat | undefined): Logger {
  return format === 'json' ? jsonLogger : consoleLogger;
}

export const silentLogger: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * A logger for one part of the node: each message starts with `prefix: ` (errors keep their stack). The composition
 * gives each feature one (compose/), so its lines say where they come from without repeating the prefix in every
 * message.
 */
export function childLogger(parent: Logger, prefix: string): Logger {
  return {
    info: (m) => parent.info(`${prefix}: ${m}`),
    warn: (m) => parent.warn(`${prefix}: ${m}`),
    error: (m, e) => parent.error(`${prefix}: ${m}`, e),
  };
}
