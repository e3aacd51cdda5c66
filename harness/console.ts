/** For tests that run a command's code in process (e.g. `tool check`): its console output, kept off the reporter's. */

/** Runs `fn` with console.log and console.error captured; its value and what it printed. */
export async function quietly<T>(fn: () => Promise<T>): Promise<{ value: T; out: string }> {
  const [log, err] = [console.log, console.error];
  let out = '';
  const keep = (...a: unknown[]): void => {
    out += a.join(' ') + '\n';
  };
  console.log = keep;
  console.error = keep;
  try {
    return { value: await fn(), out };
  } finally {
    console.log = log;
    console.error = err;
  }
}
