/**
 * Bootstrap from a peer (docs/decisions.md §30): `ledger-node run --peer ... --genesis-keys FILE` on a data folder
 * without a store asks its peers, in order, for a snapshot instead of replaying the network from its genesis, checks
 * it (bootstrap/verify.ts) and starts from it; the peer layer then syncs the milestones after it as for any node.
 *
 *   <data-dir>/bootstrap/snapshot.part(.json)   the download under way and the offer it belongs to (resumed when the
 *                                               next attempt gets the same offer, same size and hash)
 *   <data-dir>/bootstrap/snapshot.json          the file once every check passed, with verified.json beside it
 *
 * Nothing of a peer's goes into the store before that: a refused snapshot (wrong hash, bad signature, truncated,
 * oversize, a ledger that does not hold the supply, ...) is logged with its reason and the next peer is asked; after
 * `rounds` rounds over all peers the node does not start and says why. The store is created only from a verified file
 * (`importSnapshot`); an import cut short (verified.json still there) is started over on a fresh store, so a
 * half-written data folder is never taken for a complete one.
 */
import { credentials, type ChannelCredentials } from '@grpc/grpc-js';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toHex, toHex0x } from '../../core/bytes.ts';
import { putUnspentHistory, putUnspentOutputs } from '../../core/ledger/index.ts';
import { networkIdFromName } from '../../core/ids/index.ts';
import type { NodeStore } from '../../core/store/index.ts';
import { DB_ENGINES } from '../../storage/engine.ts';
import { ENGINE_FOLDERS, engineOfDataDir } from '../../storage/open.ts';
import { terminalProgress } from './progress.ts';
import { ConfigError, type NodeConfig } from '../config.ts';
import { renameDurably, writeFileDurably } from '../support/durable-file.ts';
import type { Genesis } from '../genesis/genesis.ts';
import type { Logger } from '../logger.ts';
import { GENESIS_FILE, readGenesisFile, recordGenesis } from '../genesis/open-network.ts';
import type { PeerIdentity } from '../peering/handshake.ts';
import { download, requestOffer, type ClientContext, type OfferingPeer } from '../peering/snapshot-client.ts';
import { readSnapshotFile, SnapshotFormatError } from './format.ts';
import { BootstrapRefusal, refuse, verifyHead, verifyLedger, verifyMilestoneBlock } from './verify.ts';

export const BOOTSTRAP_FOLDER = 'bootstrap';
const MiB = 1024 * 1024;

export interface BootstrapOptions {
  /** Handshake and offer (the peer may first have to write its snapshot). */
  offerTimeoutMs: number;
  /** Longest pause between two chunks of the download. */
  stallTimeoutMs: number;
  /** Largest snapshot accepted. */
  maxBytes: number;
  /** Rounds over all peers before giving up, and the pause between them. */
  rounds: number;
  retryMs: number;
  /** Ask the other peers for their ledger state hash at the same milestone. */
  crossCheck: boolean;
}

export const BOOTSTRAP_DEFAULTS: BootstrapOptions = {
  offerTimeoutMs: 10 * 60_000,
  stallTimeoutMs: 60_000,
  maxBytes: 64 * 1024 * MiB,
  rounds: 3,
  retryMs: 5000,
  crossCheck: true,
};

/** A snapshot that passed every check, ready to become the store (`importSnapshot`). */
export interface VerifiedSnapshot {
  file: string;
  /** The genesis file of `--genesis-keys` (its v3 part and its text go into the new data folder). */
  trusted: Genesis;
  trustedFile: string;
  index: number;
  folder: string;
}

interface VerifiedInfo {
  index: number;
  ledgerHash: string;
  peer: string;
}

/**
 * Called before the store is opened. Undefined when there is nothing to bootstrap (no `--genesis-keys`, or the data
 * folder has its store); else downloads and verifies a snapshot (or takes the one an interrupted start verified).
 */
export async function prepareBootstrap(
  config: NodeConfig,
  identity: PeerIdentity,
  logger: Logger,
  given: Partial<BootstrapOptions> = {},
): Promise<VerifiedSnapshot | undefined> {
  if (config.genesisKeys === undefined) return undefined;
  const folder = join(config.dataDir, BOOTSTRAP_FOLDER);
  const verifiedInfo = join(folder, 'verified.json');
  const hasStore = engineOfDataDir(config.dataDir) !== undefined;
  if (hasStore && !existsSync(verifiedInfo)) return undefined;
  const trusted = readGenesisFile(config.genesisKeys);
  if (trusted.milestonePublicKeyCount < 1)
    throw new ConfigError(
      `--genesis-keys ${config.genesisKeys} names no milestone keys: a snapshot could not be checked against it`,
    );
  const file = join(folder, 'snapshot.json');
  if (existsSync(verifiedInfo) && existsSync(file)) {
    const info = JSON.parse(readFileSync(verifiedInfo, 'utf8')) as VerifiedInfo;
    if (hasStore) {
      logger.warn(
        `bootstrap: the import of the snapshot of milestone ${info.index} ` +
          `was interrupted: its store is removed and the import starts over`,
      );
      for (const engine of DB_ENGINES)
        rmSync(join(config.dataDir, ENGINE_FOLDERS[engine]), { recursive: true, force: true });
    }
    return { file, trusted, trustedFile: config.genesisKeys, index: info.index, folder };
  }
  const peers = config.peers ?? [];
  if (peers.length === 0) throw new ConfigError('--genesis-keys needs --peer: the peers a new node bootstraps from');
  const options = { ...BOOTSTRAP_DEFAULTS, ...given };
  const networkName = trusted.protocol.networkName;
  const ctx: ClientContext = {
    identity,
    networkName,
    networkId: networkIdFromName(networkName),
    offerTimeoutMs: options.offerTimeoutMs,
    stallTimeoutMs: options.stallTimeoutMs,
    ...(config.peerTlsCa !== undefined ? { channel: tlsChannel(config.peerTlsCa) } : {}),
  };
  mkdirSync(folder, { recursive: true });
  logger.info(
    `bootstrap: the data folder ${config.dataDir} has no store: asking ${peers.join(', ')} ` +
      `for a snapshot of network "${networkName}" (milestone keys of ${config.genesisKeys})`,
  );
  for (let round = 1; round <= options.rounds; round++) {
    for (const raw of peers) {
      try {
        const info = await fromPeer(raw, { ctx, trusted, options, folder, peers, logger });
        writeFileSync(verifiedInfo, JSON.stringify(info));
        renameDurably(join(folder, 'snapshot.part'), file);
        rmSync(join(folder, 'snapshot.part.json'), { force: true });
        return { file, trusted, trustedFile: config.genesisKeys, index: info.index, folder };
      } catch (e) {
        if (!(e instanceof BootstrapRefusal)) throw e;
        logger.warn(`bootstrap: snapshot of peer ${raw} refused: ${e.message}`);
      }
    }
    if (round < options.rounds) {
      logger.info(
        `bootstrap: no peer served a snapshot that verifies (round ` +
          `${round} of ${options.rounds}); trying again in ${options.retryMs} ms`,
      );
      await new Promise((r) => setTimeout(r, options.retryMs));
    }
  }
  throw new Error(
    `bootstrap failed: none of the peers (${peers.join(', ')}) served a snapshot that verifies against the ` +
      `milestone keys of ${config.genesisKeys} (the reasons are logged above); the data folder holds no store, ` +
      `start again to retry`,
  );
}

function tlsChannel(ca: string): ChannelCredentials {
  try {
    return credentials.createSsl(readFileSync(ca));
  } catch (e) {
    throw new ConfigError(`Cannot read --peer-tls-ca ${ca}: ${(e as Error).message}`);
  }
}

interface Attempt {
  ctx: ClientContext;
  trusted: Genesis;
  options: BootstrapOptions;
  folder: string;
  peers: readonly string[];
  logger: Logger;
}

/** One peer: offer, milestone check, download, file checks, the other peers' ledger state hashes. */
async function fromPeer(raw: string, a: Attempt): Promise<VerifiedInfo> {
  const { ctx, trusted, options, folder, logger } = a;
  const peer: OfferingPeer = await requestOffer(raw, ctx);
  const part = join(folder, 'snapshot.part');
  const progress = terminalProgress();
  try {
    const { offer } = peer;
    const size = Number(offer.size);
    if (size === 0) refuse('an empty snapshot');
    if (size > options.maxBytes) refuse(`oversize: ${size} bytes offered, at most ${options.maxBytes} accepted`);
    if (offer.chunkSize === 0 || offer.chunkSize > 64 * 1024)
      refuse(`chunks of ${offer.chunkSize} bytes (at most 65536)`);
    if (offer.hash.length !== 32 || offer.ledgerHash.length !== 32) refuse('hashes that are not 32 bytes');
    const milestone = verifyMilestoneBlock(offer.milestoneBlock, offer.index, trusted);
    logger.info(
      `bootstrap: peer ${raw} offers the snapshot of milestone ${offer.index} (${size} bytes, ` +
        `ledger state hash ${toHex0x(offer.ledgerHash)}); its milestone is signed by the network's keys`,
    );
    const mb = (n: number): string => (n / MiB).toFixed(1);
    const started = Date.now();
    const { resumedAt } = await download(peer, part, ctx, (bytes, total) =>
      progress.update(
        `bootstrap: ${mb(bytes)} of ${mb(total)} MB from ${peer.address} (${Math.floor((bytes / total) * 100)} %)`,
      ),
    );
    logger.info(
      `bootstrap: ${size} bytes from ${peer.address}${resumedAt > 0 ? ` (resumed at ${resumedAt})` : ''} ` +
        `in ${Date.now() - started} ms; size and hash as offered`,
    );
    let reading: Awaited<ReturnType<typeof readSnapshotFile>>;
    try {
      reading = await readSnapshotFile(part, {
        onHead: (head) => verifyHead(head, milestone, trusted),
        progress: (bytes) => progress.update(`bootstrap: checking ${mb(bytes)} of ${mb(size)} MB`),
      });
    } catch (e) {
      if (!(e instanceof SnapshotFormatError)) throw e;
      rmSync(part, { force: true });
      refuse(`the file is not a valid snapshot: ${e.message}`);
    }
    verifyLedger(reading, offer.ledgerHash);
    logger.info(
      `bootstrap: the snapshot of milestone ${offer.index} verifies: ${reading.outputs} ` +
        `outputs holding the token supply, ${reading.head.solidEntryPoints.length} solid entry points`,
    );
    if (options.crossCheck) await crossCheck(raw, offer.index, offer.ledgerHash, a);
    return { index: offer.index, ledgerHash: toHex(offer.ledgerHash), peer: raw };
  } finally {
    progress.done();
    peer.close();
  }
}

/**
 * Asks every other peer for its offer at the same milestone and compares ledger state hashes: a peer with another
 * ledger at that milestone makes the node stop (it cannot tell which is right); one that cannot serve it is noted.
 */
async function crossCheck(from: string, index: number, ledgerHash: Uint8Array, a: Attempt): Promise<void> {
  const others = a.peers.filter((p) => p !== from);
  if (others.length === 0) return;
  let agreeing = 0;
  for (const raw of others) {
    let other: OfferingPeer;
    try {
      other = await requestOffer(raw, a.ctx, index);
    } catch (e) {
      a.logger.info(`bootstrap: peer ${raw} cannot confirm the ledger of milestone ${index}: ${(e as Error).message}`);
      continue;
    }
    other.close();
    if (other.offer.index !== index) continue;
    if (toHex(other.offer.ledgerHash) !== toHex(ledgerHash)) {
      throw new Error(
        `bootstrap stopped: peers disagree on the ledger of milestone ${index}: ${from} ` +
          `has ledger state hash ${toHex0x(ledgerHash)}, ${raw} ` +
          `${toHex0x(other.offer.ledgerHash)}; remove the peer you do not trust and start again`,
      );
    }
    agreeing++;
  }
  a.logger.info(
    `bootstrap: ${agreeing} of ${others.length} other peer(s) have the same ledger state hash at milestone ${index}`,
  );
}

/**
 * Turns a verified snapshot into the node's store with bounded memory: the unspent outputs go in batches (output
 * records, the unspent set, their TIP-26 index entries, their explorer history and aggregates) as the file is read once
 * more, then `recordGenesis` writes the head as `run --genesis SNAPSHOT` would (ledger meta, the milestone, solid entry
 * points, the network record last), with the IOTA 2.0 part of the network's genesis file, whose state a snapshot does
 * not carry (docs/decisions.md §27). Then the marker goes, and the network's genesis file becomes
 * `<data-dir>/genesis.json`. A crash before the marker is gone leaves verified.json behind, and the next start imports
 * again on a fresh store.
 */
export async function importSnapshot(
  store: NodeStore,
  verified: VerifiedSnapshot,
  logger: Logger,
  dataDir: string,
): Promise<void> {
  const started = Date.now();
  const progress = terminalProgress();
  let written = 0;
  try {
    const reading = await readSnapshotFile(verified.file, {
      onOutputs: async (outputs) => {
        const batch = store.batch();
        putUnspentOutputs(batch, outputs);
        await putUnspentHistory(store, batch, outputs, 'one each');
        await batch.commit({ sync: false });
        written += outputs.length;
        progress.update(`bootstrap: ${written} outputs written to the store`);
      },
    });
    if (reading.head.milestone.index !== verified.index)
      throw new Error(`${verified.file} changed since it was verified`);
    const genesis = {
      ...reading.head,
      outputs: [],
      ...(verified.trusted.v3 !== undefined ? { v3: verified.trusted.v3 } : {}),
    };
    await recordGenesis(store, genesis);
  } finally {
    progress.done();
  }
  rmSync(join(verified.folder, 'verified.json'), { force: true });
  writeFileDurably(join(dataDir, GENESIS_FILE), readFileSync(verified.trustedFile, 'utf8'), 0o600);
  rmSync(verified.folder, { recursive: true, force: true });
  logger.info(
    `bootstrap: the store starts at milestone ${verified.index}: ${written} unspent ` +
      `outputs imported in ${Date.now() - started} ms; the milestones after it come from the peers`,
  );
}
