/**
 * The ledger half of a genesis file: the `outputs`, `treasury` and milestone key entries become the core's
 * LedgerGenesis (what `initLedger` writes), and the dev-only `coordinator` / `devWallet` entries are read here.
 *
 * `outputs[i]`: { outputId (0x + 34 bytes), blockId (0x + 32 bytes; optional, zeros when unknown),
 *   milestoneIndexBooked (u32), milestoneTimestampBooked (u32), output (TIP-25 JSON of a basic, alias, foundry or NFT
 *   output) }.
 * `coordinator`: { privateKeys: [0x + 32-byte Ed25519 seeds], milestoneInterval (seconds, optional),
 *   note } — DEV ONLY.
 * `devWallet`: { seed (0x + 32-byte Ed25519 seed), address (bech32), note } — DEV ONLY.
 * Every problem is an error naming the key ("invalid genesis JSON at outputs[3].output.amount: ...").
 */
import { compareBytes, toHex0x } from '../../core/bytes.ts';
import { ed25519PublicKeyFromSeed } from '../../core/crypto/index.ts';
import { ProtocolError } from '../../core/errors.ts';
import { parseOutputId } from '../../core/ids/output-id.ts';
import { outputFromJson } from '../../core/json/index.ts';
import { JsonPath } from '../../core/json/path.ts';
import { optional, readFixed, readList, readObject, readString, readU32, required } from '../../core/json/read.ts';
import type { GenesisOutput, LedgerGenesis } from '../../core/ledger/index.ts';
import type { CommonOutput } from '../../core/model/index.ts';
import type { Genesis } from './genesis.ts';

export const DEFAULT_MILESTONE_INTERVAL_SECONDS = 5;

export interface CoordinatorSettings {
  /** Ed25519 seeds (RFC 8032 private keys). */
  seeds: Uint8Array[];
  /** Seconds between milestones. */
  milestoneInterval: number;
}

export interface DevWallet {
  seed: Uint8Array;
  address: string;
}

const path = (key: string): JsonPath => new JsonPath('genesis').key(key);

function parseOutput(v: unknown, p: JsonPath): GenesisOutput {
  const o = readObject(v, p);
  const outputId = readFixed(required(o, 'outputId', p), p.key('outputId'), 34);
  try {
    parseOutputId(outputId, 'outputId');
  } catch (e) {
    p.key('outputId').fail('INVALID_FIELD', (e as Error).message, toHex0x(outputId));
  }
  const blockIdJson = optional(o, 'blockId');
  let output: CommonOutput;
  try {
    const parsed = outputFromJson(required(o, 'output', p));
    if (parsed.type === 2)
      p.key('output.type').fail('TYPE_NOT_ALLOWED', 'a treasury output belongs under "treasury", not "outputs"', 2);
    output = parsed as CommonOutput;
  } catch (e) {
    if (e instanceof ProtocolError && !e.message.startsWith('invalid genesis JSON')) {
      throw new ProtocolError(e.code, `invalid genesis JSON at ${p.key('output').where}: ${e.message}`, {
        field: `${p.key('output').where}${e.field ? '.' + e.field : ''}`,
      });
    }
    throw e;
  }
  return {
    outputId,
    blockId: blockIdJson === undefined ? new Uint8Array(32) : readFixed(blockIdJson, p.key('blockId'), 32),
    milestoneIndexBooked: readU32(required(o, 'milestoneIndexBooked', p), p.key('milestoneIndexBooked')),
    milestoneTimestampBooked: readU32(required(o, 'milestoneTimestampBooked', p), p.key('milestoneTimestampBooked')),
    output,
  };
}

/**
 * The LedgerGenesis of a parsed genesis; checks what the ledger needs beyond genesis.ts: outputs, unique output IDs,
 * at least one milestone key (a network without keys cannot confirm milestones; callers check `hasLedger` first).
 */
export function ledgerGenesisOf(g: Genesis): LedgerGenesis {
  const p = path('outputs');
  const outputs = readList(g.outputs, p, 10_000_000, parseOutput);
  const seen = new Set<string>();
  outputs.forEach((o, i) => {
    const key = toHex0x(o.outputId);
    if (seen.has(key)) p.index(i).key('outputId').fail('DUPLICATE', `output ${key} is listed twice`, key);
    seen.add(key);
  });
  if (g.milestonePublicKeyCount < 1)
    path('milestonePublicKeyCount').fail(
      'VALUE_OUT_OF_RANGE',
      'a ledger needs at least one milestone signature (milestonePublicKeyCount >= 1)',
      g.milestonePublicKeyCount,
    );
  const total = outputs.reduce((s, o) => s + o.output.amount, 0n) + (g.treasury?.amount ?? 0n);
  if (total > g.protocol.tokenSupply) {
    p.fail(
      'VALUE_OUT_OF_RANGE',
      `outputs and treasury hold ${total}, more than the token supply ${g.protocol.tokenSupply}`,
      String(total),
    );
  }
  const lg: LedgerGenesis = {
    protocolParameters: g.protocol,
    milestone: {
      index: g.milestone.index,
      timestamp: g.milestone.timestamp,
      milestoneId: g.milestone.milestoneId,
      ...(g.milestone.blockId ? { blockId: g.milestone.blockId } : {}),
    },
    milestoneKeyRanges: g.milestoneKeyRanges.map((r) => ({ publicKey: r.publicKey, start: r.start, end: r.end })),
    milestonePublicKeyCount: g.milestonePublicKeyCount,
    solidEntryPoints: g.solidEntryPoints,
    unspentOutputs: outputs,
  };
  if (g.treasury) lg.treasury = { milestoneId: g.treasury.milestoneId, amount: g.treasury.amount };
  if (g.protocolParametersChanges) lg.protocolParametersChanges = g.protocolParametersChanges;
  if (g.receipts) lg.receipts = g.receipts;
  return lg;
}

/**
 * Whether the genesis describes a ledger (milestone keys to confirm with). Genesis files without keys run block-only.
 */
export function hasLedger(g: Genesis): boolean {
  return g.milestonePublicKeyCount > 0 || g.outputs.length > 0;
}

/** The `coordinator` entry, or undefined; its keys must be keys of the genesis' key ranges. */
export function coordinatorOf(g: Genesis): CoordinatorSettings | undefined {
  if (g.coordinator === undefined) return undefined;
  const p = path('coordinator');
  const o = readObject(g.coordinator, p);
  const seeds = readList(required(o, 'privateKeys', p), p.key('privateKeys'), 100, (e, ep) => readFixed(e, ep, 32));
  const known = new Set(g.milestoneKeyRanges.map((r) => toHex0x(r.publicKey)));
  seeds.forEach((s, i) => {
    const pub = toHex0x(ed25519PublicKeyFromSeed(s));
    if (!known.has(pub))
      p.key('privateKeys').index(i).fail('INVALID_FIELD', `its public key ${pub} is not in milestoneKeyRanges`);
  });
  const distinct = new Set(seeds.map(toHex0x)).size;
  if (distinct < g.milestonePublicKeyCount) {
    p.key('privateKeys').fail(
      'COUNT_OUT_OF_RANGE',
      `${distinct} distinct keys cannot reach the threshold milestonePublicKeyCount ${g.milestonePublicKeyCount}`,
      distinct,
    );
  }
  const interval = optional(o, 'milestoneInterval');
  const milestoneInterval = interval === undefined ? DEFAULT_MILESTONE_INTERVAL_SECONDS : Number(interval);
  if (
    typeof interval !== 'undefined' &&
    (typeof interval !== 'number' || !(milestoneInterval > 0) || milestoneInterval > 3600)
  ) {
    p.key('milestoneInterval').fail('VALUE_OUT_OF_RANGE', 'expected seconds in (0, 3600]', interval);
  }
  return {
    seeds: seeds.sort((a, b) => compareBytes(ed25519PublicKeyFromSeed(a), ed25519PublicKeyFromSeed(b))),
    milestoneInterval,
  };
}

/** The `devWallet` entry, or undefined. */
export function devWalletOf(g: Genesis & { devWallet?: unknown }): DevWallet | undefined {
  if (g.devWallet === undefined) return undefined;
  const p = path('devWallet');
  const o = readObject(g.devWallet, p);
  return {
    seed: readFixed(required(o, 'seed', p), p.key('seed'), 32),
    address: readString(required(o, 'address', p), p.key('address')),
  };
}
