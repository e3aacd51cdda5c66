/**
 * `ledger-node tool block [--network shimmer | --protocol FILE]`
 *
 * Reads blocks from standard input, one per line, each either hex (`0x...`) or TIP-25 JSON, and writes one JSON line
 * per input line:
 *   {"blockId","transactionId"?,"milestoneId"?,"json","hex","powScore"}   or   {"error":{"code","message"}}
 * `code` is the stable domain code of the rejection (e.g. "PAYLOAD_LENGTH_MISMATCH"). Exit status 0 whatever the
 * blocks.
 *
 * Every input gets the same strictness as a block arriving at the node: JSON is mapped to the model, encoded and the
 * bytes decoded again, so both forms pass the strict binary decoder. With `--network` or `--protocol` (the `protocol`
 * object of GET /api/core/v2/info, as a file) the block is also checked against the syntactic rules of that network
 * (protocol version, network ID, storage deposit, supply, ...). Blank lines are skipped.
 */
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fromHex, toHex0x } from '../core/bytes.ts';
import { decodeBlock, encodeBlock } from '../core/codec/index.ts';
import { isProtocolError, ProtocolError } from '../core/errors.ts';
import { blockId, milestoneIdOf, networkIdFromName, transactionIdOf } from '../core/ids/index.ts';
import { blockFromJson, blockToJson, protocolParametersFromJson } from '../core/json/index.ts';
import { SHIMMER_PROTOCOL, type ProtocolParameters } from '../core/model/index.ts';
import { powScore } from '../core/pow/index.ts';
import { validateBlockSyntax } from '../core/validation/index.ts';
import { parseToolFlags } from './args.ts';

const USAGE =
  'usage: ledger-node tool block [--network shimmer | --protocol ' +
  'FILE]   (one block per line on standard input: 0x-hex or TIP-25 JSON)';

const NETWORKS: Record<string, ProtocolParameters> = { shimmer: SHIMMER_PROTOCOL };

export interface BlockToolLine {
  blockId?: string;
  transactionId?: string;
  milestoneId?: string;
  json?: unknown;
  hex?: string;
  powScore?: number;
  error?: { code: string; message: string };
}

/** Turns one input line into its output record. Never throws. */
export function inspectBlockLine(line: string, protocol?: ProtocolParameters): BlockToolLine {
  try {
    const text = line.trim();
    let bytes: Uint8Array;
    if (text.startsWith('{')) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (e) {
        throw new ProtocolError('INVALID_JSON', `invalid block JSON: ${(e as Error).message}`);
      }
      bytes = encodeBlock(blockFromJson(parsed));
    } else {
      bytes = fromHex(text, 'block hex');
    }
    const block = decodeBlock(bytes);
    if (protocol) validateBlockSyntax(block, { protocol, networkId: networkIdFromName(protocol.networkName) });
    const out: BlockToolLine = { blockId: toHex0x(blockId(bytes)) };
    if (block.payload?.type === 6) out.transactionId = toHex0x(transactionIdOf(block.payload));
    if (block.payload?.type === 7) out.milestoneId = toHex0x(milestoneIdOf(block.payload));
    out.json = blockToJson(block);
    out.hex = toHex0x(bytes);
    out.powScore = powScore(bytes);
    return out;
  } catch (e) {
    if (isProtocolError(e)) return { error: { code: e.code, message: e.message } };
    // An encoder RangeError means the JSON described something the wire format cannot hold.
    return { error: { code: 'INVALID_FIELD', message: e instanceof Error ? e.message : String(e) } };
  }
}

function parseFlags(argv: string[]): { protocol?: ProtocolParameters } | number {
  const flags = parseToolFlags(argv, ['--network', '--protocol'], USAGE);
  if (typeof flags === 'number') return flags;
  const fail = (message: string): number => {
    console.error(`${message}\n${USAGE}`);
    return 2;
  };
  const network = flags.get('--network');
  const file = flags.get('--protocol');
  let protocol: ProtocolParameters | undefined;
  if (network !== undefined) {
    protocol = NETWORKS[network];
    if (!protocol)
      return fail(`unknown network "${network}" (known: ${Object.keys(NETWORKS).join(', ')}; or use --protocol FILE)`);
  }
  if (file !== undefined) {
    try {
      protocol = protocolParametersFromJson(JSON.parse(readFileSync(file, 'utf8')));
    } catch (e) {
      return fail(`cannot read protocol parameters from ${file}: ${(e as Error).message}`);
    }
  }
  return protocol ? { protocol } : {};
}

export async function toolBlock(argv: string[]): Promise<number> {
  const flags = parseFlags(argv);
  if (typeof flags === 'number') return flags;
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    const record = inspectBlockLine(line, flags.protocol);
    if (!process.stdout.write(JSON.stringify(record) + '\n')) await new Promise((r) => process.stdout.once('drain', r));
  }
  return 0;
}
