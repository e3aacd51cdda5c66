#!/usr/bin/env node
// Entry point of the `ledger-node` command. TypeScript sources run through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
