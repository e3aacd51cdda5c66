/** `ledger-node tool <name>`: debugging tools for operators and wallet developers. */
export async function tool(argv: string[]): Promise<number> {
  const [name] = argv;
  console.error(`unknown tool "${name ?? ''}"; available: (none yet)`);
  return 2;
}
