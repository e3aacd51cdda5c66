/** A bad flag, config-file key or value, or a start-up setting the node refuses; `ledger-node run` exits 2 with it. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
