/**
 * `ledger-node run [flags]`: parse the flags (config.ts), start the node, and run until SIGINT or SIGTERM, which
 * close the servers and the store cleanly. The signal handlers are installed before the node starts, so a signal
 * that arrives during start-up stops the node as soon as it is up. Exit codes: 0 after a clean stop, 2 for bad
 * flags, config or genesis, 1 when the node cannot start (e.g. the store is locked by another node). Log lines are
 * text or JSON (`--log-format`). The JWT secret comes from the environment, never a flag (flags show up in process
 * lists): LEDGER_NODE_JWT_SECRET guards the node service door (every call needs a token) and the REST gateway's
 * protected routes; without it, LEDGER_GATEWAY_JWT_SECRET (the earlier name) guards the REST routes alone, as before.
 */
import { ConfigError, parseRunArgs, RUN_HELP, runSecrets } from './config.ts';
import { consoleLogger, consoleLoggerFor, type Logger } from './logger.ts';
import { startNode } from './node.ts';

export async function runCommand(args: readonly string[], given: Logger = consoleLogger): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(RUN_HELP);
    return 0;
  }
  let config: ReturnType<typeof parseRunArgs>;
  try {
    config = parseRunArgs(args);
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`ledger-node run: ${e.message}\n${RUN_HELP}`);
      return 2;
    }
    throw e;
  }
  const logger = given === consoleLogger ? consoleLoggerFor(config.logFormat) : given;
  let signalled: (signal: NodeJS.Signals) => void = () => undefined;
  const stopRequested = new Promise<NodeJS.Signals>((resolve) => {
    signalled = resolve;
  });
  process.once('SIGINT', signalled);
  process.once('SIGTERM', signalled);
  const removeHandlers = () => {
    process.off('SIGINT', signalled);
    process.off('SIGTERM', signalled);
  };
  let node: Awaited<ReturnType<typeof startNode>>;
  try {
    const { nodeJwtSecret, jwtSecret } = runSecrets(process.env);
    node = await startNode(config, {
      logger,
      ...(nodeJwtSecret ? { nodeJwtSecret } : jwtSecret ? { restJwtSecret: jwtSecret } : {}),
    });
  } catch (e) {
    removeHandlers();
    if (e instanceof ConfigError) {
      console.error(`ledger-node run: ${e.message}`);
      return 2;
    }
    logger.error(`ledger-node run: cannot start: ${(e as Error).message}`, e);
    return 1;
  }
  const signal = await stopRequested;
  removeHandlers();
  logger.info(`${signal} received: stopping`);
  try {
    await node.stop();
  } catch (e) {
    logger.error('stop failed', e);
    return 1;
  }
  return 0;
}
