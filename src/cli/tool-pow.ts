/**
 * `ledger-node tool pow --score N [--workers N]`: reads a serialized block as hex from standard input (its last
 * 8 bytes are the nonce and are ignored), mines a nonce that reaches the score with the node's miner and prints
 * the block with that nonce, then the score, nonce, hash count and hash rate. Ctrl-C cancels.
 */
import { concatBytes, fromHex, toHex } from '../core/bytes.ts';
import { NONCE_BYTES, nonceToBytes, powScore, powZeros } from '../core/pow/index.ts';
import { createMiner } from '../node/pow/miner.ts';
import { parseToolFlags } from './args.ts';

const USAGE = 'usage: ledger-node tool pow --score N [--workers N]   (block hex on standard input, nonce ignored)';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseFlags(argv: string[]): { score: number; workers?: number } | number | string {
  const flags = parseToolFlags(argv, ['--score', '--workers'], USAGE);
  if (typeof flags === 'number') return flags;
  for (const [flag, value] of flags) if (!Number.isFinite(Number(value))) return `option ${flag} needs a number`;
  const score = flags.has('--score') ? Number(flags.get('--score')) : undefined;
  const workers = flags.has('--workers') ? Number(flags.get('--workers')) : undefined;
  if (score === undefined || score < 0) return 'option --score N (N >= 0) is required';
  if (workers !== undefined && (!Number.isInteger(workers) || workers < 1))
    return `--workers ${workers} is not a positive integer`;
  return workers === undefined ? { score } : { score, workers };
}

export async function toolPow(argv: string[]): Promise<number> {
  const flags = parseFlags(argv);
  if (typeof flags === 'number') return flags;
  if (typeof flags === 'string') {
    console.error(`${flags}\n${USAGE}`);
    return 2;
  }
  const text = (await readStdin()).trim();
  let block: Uint8Array;
  try {
    block = fromHex(text.startsWith('0x') ? text.slice(2) : text, 'block');
  } catch (e) {
    console.error(`Cannot read block: ${(e as Error).message}`);
    return 1;
  }
  if (block.length < NONCE_BYTES) {
    console.error(`Cannot mine: the block has ${block.length} bytes, at least 8 (the nonce) are needed`);
    return 1;
  }
  const body = block.subarray(0, block.length - NONCE_BYTES);
  const miner = createMiner(flags.workers === undefined ? {} : { workers: flags.workers });
  const ac = new AbortController();
  const onSigint = () => ac.abort(new Error('cancelled by SIGINT'));
  process.once('SIGINT', onSigint);
  try {
    await miner.searcherNames(); // start the workers before the clock starts
    const r = await miner.mine(body, flags.score, ac.signal);
    const mined = concatBytes(body, nonceToBytes(r.nonce));
    const rate = r.hashes / (r.ms / 1000);
    console.log(toHex(mined));
    console.log(
      `score: ${powScore(mined)} (${powZeros(mined)} trailing zeros, ` +
        `${r.targetZeros} needed for ${flags.score} at ${mined.length} bytes)`,
    );
    console.log(`nonce: ${r.nonce}`);
    console.log(`hashes: ${r.hashes}`);
    console.log(
      `hash rate: ${(rate / 1e6).toFixed(2)} MH/s (${(rate / miner.workers / 1e6).toFixed(2)} MH/s ` +
        `per worker, ${miner.workers} worker${miner.workers === 1 ? '' : 's'}, ${(r.ms / 1000).toFixed(3)} s)`,
    );
    return 0;
  } catch (e) {
    console.error(`PoW failed: ${(e as Error).message}`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    await miner.close();
  }
}
