/** `ledger-node tool <name>`: debugging tools for operators and wallet developers. */
export async function tool(argv: string[]): Promise<number> {
  const [name] = argv;
  switch (name) {
    case 'block':
      return (await import('./tool-block.ts')).toolBlock(argv.slice(1));
    case 'pow':
      return (await import('./tool-pow.ts')).toolPow(argv.slice(1));
    case 'genesis':
      return (await import('./tool-genesis.ts')).toolGenesis(argv.slice(1));
    case 'check':
      return (await import('./tool-check.ts')).toolCheck(argv.slice(1));
    case 'fill':
      return (await import('./tool-fill.ts')).toolFill(argv.slice(1));
    case 'jwt':
      return (await import('./tool-jwt.ts')).toolJwt(argv.slice(1));
    case 'identity':
      return (await import('./tool-identity.ts')).toolIdentity(argv.slice(1));
    case 'snapshot':
      return (await import('./tool-snapshot.ts')).toolSnapshot(argv.slice(1));
  }
  console.error(`unknown tool "${name ?? ''}"; available: block, check, fill, genesis, identity, jwt, pow, snapshot`);
  return 2;
}
