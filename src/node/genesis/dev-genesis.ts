/**
 * A new dev network with a ledger: the dev genesis (genesis.ts `devGenesis`: Shimmer's parameters under `ledger-dev`,
 * HRP `rms`) plus 3 coordinator keys (threshold 2) with their PRIVATE keys under `coordinator`, and the whole token
 * supply on basic outputs: one for a generated dev wallet (its seed under `devWallet`) and one per `--funds` entry.
 * Everything private in this file is for development only and is marked so in the file.
 */
import { fromHex0x, toHex0x } from '../../core/bytes.ts';
import { blake2b256, ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed } from '../../core/crypto/index.ts';
import { bech32DecodeAddress, bech32EncodeAddress, outputId } from '../../core/ids/index.ts';
import { outputToJson } from '../../core/json/index.ts';
import type { Address, BasicOutput } from '../../core/model/index.ts';
import { devGenesis, type Genesis } from './genesis.ts';
import { DEFAULT_MILESTONE_INTERVAL_SECONDS } from './genesis-ledger.ts';

export const DEV_ONLY_NOTE =
  'DEV NETWORK ONLY: these private keys are public by being in this file; never use them for value.';
export const DEV_COORDINATOR_KEYS = 3;
export const DEV_COORDINATOR_THRESHOLD = 2;

export interface DevNetworkOptions {
  minPowScore: number;
  networkName?: string;
  /** Seconds between milestones (written under `coordinator.milestoneInterval`). */
  milestoneInterval?: number;
  /** Extra funded owners: bech32 addresses, or 0x + 32-byte Ed25519 seeds. */
  funds?: string[];
  timestamp?: number;
  /** 32 random bytes per call (tests may fix it). */
  randomBytes?: (n: number) => Uint8Array;
}

const cryptoRandom = (n: number): Uint8Array => crypto.getRandomValues(new Uint8Array(n));

/** The address of a `--funds` entry: a bech32 address, or the Ed25519 address of a 0x seed. */
export function fundsAddress(entry: string): Address {
  if (/^0x[0-9a-fA-F]{64}$/.test(entry))
    return ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(fromHex0x(entry, 'funds')));
  try {
    return bech32DecodeAddress(entry).address;
  } catch (e) {
    throw new Error(
      `--funds ${entry}: neither a bech32 address nor a 0x-prefixed 32-byte seed (${(e as Error).message})`,
    );
  }
}

export function devNetworkGenesis(options: DevNetworkOptions): Genesis {
  const random = options.randomBytes ?? cryptoRandom;
  const g = devGenesis({
    minPowScore: options.minPowScore,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  if (options.networkName !== undefined) {
    if (options.networkName.length === 0 || options.networkName.length > 255)
      throw new Error(`--network-name must have 1..255 characters, got ${options.networkName.length}`);
    g.protocol.networkName = options.networkName;
  }
  const interval = options.milestoneInterval ?? DEFAULT_MILESTONE_INTERVAL_SECONDS;
  if (!(interval > 0) || interval > 3600)
    throw new Error(`--milestone-interval must be in (0, 3600] seconds, got ${interval}`);

  const seeds = Array.from({ length: DEV_COORDINATOR_KEYS }, () => random(32));
  g.milestoneKeyRanges = seeds.map((s) => ({ publicKey: ed25519PublicKeyFromSeed(s), start: 0, end: 0 }));
  g.milestonePublicKeyCount = DEV_COORDINATOR_THRESHOLD;
  g.coordinator = { note: DEV_ONLY_NOTE, privateKeys: seeds.map(toHex0x), milestoneInterval: interval };

  const walletSeed = random(32);
  const walletAddress = ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(walletSeed));
  const hrp = g.protocol.bech32Hrp;
  g.devWallet = { note: DEV_ONLY_NOTE, seed: toHex0x(walletSeed), address: bech32EncodeAddress(hrp, walletAddress) };

  const owners: Address[] = [walletAddress, ...(options.funds ?? []).map(fundsAddress)];
  if (owners.length > 128) throw new Error(`at most 127 --funds entries, got ${owners.length - 1}`);
  const genesisTx = blake2b256(new TextEncoder().encode(`${g.protocol.networkName} genesis ${toHex0x(random(32))}`));
  const share = g.protocol.tokenSupply / BigInt(owners.length);
  const first = g.protocol.tokenSupply - share * BigInt(owners.length - 1);
  g.outputs = owners.map((address, i) => {
    const output: BasicOutput = {
      type: 3,
      amount: i === 0 ? first : share,
      nativeTokens: [],
      unlockConditions: [{ type: 0, address }],
      features: [],
    };
    return {
      outputId: toHex0x(outputId(genesisTx, i)),
      blockId: toHex0x(new Uint8Array(32)),
      milestoneIndexBooked: g.milestone.index,
      milestoneTimestampBooked: g.milestone.timestamp,
      output: outputToJson(output),
    };
  });
  return g;
}
