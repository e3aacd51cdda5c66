/**
 * v3 e2e helpers: the genesis file of a node with a v3 section, the start-up of such a node (with the IOTA 2.0 SDK's
 * client if asked) shared by the v3 e2e tests, and what a client reads from a node before it issues a v3 block (its
 * parents, the latest parent's issuing time, the latest commitment).
 */
import { expect } from 'chai';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client, IssuanceBlockHeaderResponse } from '@iota/sdk-wasm-v2/node';
import { fromHex0x } from '../../../src/core/bytes.ts';
import type { ProtocolParametersV3, SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { devGenesis, genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { devProtocolParametersV3, genesisV3ToJson, type GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { basicBlock, testGenesisV3, USER } from '../../../harness/fixtures/v3.ts';
import { stakedGenesisV3 } from '../../../harness/fixtures/v3-stake.ts';
import { spawnNode } from '../../../harness/process.ts';

/** A genesis file's JSON: the v2 dev network (min PoW score 0) with `g` as its v3 section. */
export const genesisWithV3 = (g: GenesisV3): object => ({
  ...genesisToJson(devGenesis({ minPowScore: 0 })),
  v3: genesisV3ToJson(g),
});

export interface V3NodeOptions {
  /** Names the temporary folder (`ledger-node-v3-NAME-…`) that holds the genesis file and the node's data. */
  name: string;
  /** How long before the start the genesis block was issued, s (default 60). */
  genesisAgeS?: number;
  /** WALLET's genesis Basic outputs of 1 000 000 000, outputs 0.. (default 2). */
  funded?: number;
  /** harness/fixtures/v3-stake.ts `stakedGenesisV3`: three seats, seat 1 staking, WALLET delegating to it. */
  staked?: boolean;
  /** A genesis made before (a second node of the same network); then the three above do not apply. */
  genesis?: GenesisV3;
  /** `--validation-interval`, ms; 0: no validator rounds. */
  validationIntervalMs: number;
  /** Started in this process (harness/node.ts `startConfiguredNode`, store in memory), not spawned from dist/. */
  inProcess?: boolean;
}

export interface V3Node {
  params: ProtocolParametersV3;
  genesis: GenesisV3;
  /** `http://HOST:PORT` of the REST API. */
  rest: string;
  /** Destroys the SDK client and stops the node, then removes the temporary folder whatever failed before. */
  stop(): Promise<void>;
}

export interface V3SdkNode extends V3Node {
  /** The IOTA 2.0 SDK's client of the node. */
  client: Client;
  /** The first validation round's issuance (its latest parent issued after the genesis), waited for at most 15 s. */
  firstRound(): Promise<IssuanceBlockHeaderResponse>;
}

/**
 * A node on the v2 dev network with a v3 section: the genesis written to a temporary folder, the node started on it
 * without coordinator and PoW workers, a validator round every `validationIntervalMs`; with `sdk`, the SDK's client
 * of it. What was started when a later step fails is stopped and removed.
 */
export async function startV3Node(options: V3NodeOptions & { sdk: true }): Promise<V3SdkNode>;
export async function startV3Node(options: V3NodeOptions): Promise<V3Node>;
export async function startV3Node(options: V3NodeOptions & { sdk?: boolean }): Promise<V3Node | V3SdkNode> {
  const { name, genesisAgeS = 60, funded = 2, validationIntervalMs } = options;
  const dir = mkdtempSync(join(tmpdir(), `ledger-node-v3-${name}-`));
  /** What stop() undoes, the last first. */
  const undo: (() => Promise<unknown>)[] = [];
  const stop = async (): Promise<void> => {
    const errors: unknown[] = [];
    for (const step of undo.splice(0).reverse()) await step().catch((e: unknown) => errors.push(e));
    rmSync(dir, { recursive: true, force: true });
    if (errors.length > 0) throw errors[0];
  };
  try {
    const params =
      options.genesis?.protocolParameters ?? devProtocolParametersV3(Math.floor(Date.now() / 1000) - genesisAgeS);
    const genesis = options.genesis ?? (options.staked ? stakedGenesisV3 : testGenesisV3)({ params, funded });
    const file = join(dir, 'genesis.input.json');
    writeFileSync(file, JSON.stringify(genesisWithV3(genesis)));
    let rest: string;
    if (options.inProcess) {
      // loaded only when asked, as the SDK below: the whole node, which the tests of a spawned node do not need
      const { startConfiguredNode } = await import('../../../harness/node.ts');
      const config = { powWorkers: 0, genesis: file, coordinator: false, validationInterval: validationIntervalMs };
      const node = await startConfiguredNode(config, { dataDir: dir, store: 'memory' });
      undo.push(() => node.stop());
      rest = node.rest;
    } else {
      const flags = ['--genesis', file, '--coordinator', 'false', '--pow-workers', '0'];
      const node = await spawnNode(join(dir, 'a'), [...flags, '--validation-interval', String(validationIntervalMs)]);
      undo.push(() => node.proc.stop());
      rest = node.rest;
    }
    const started: V3Node = { params, genesis, rest, stop };
    if (!options.sdk) return started;
    const { sdk, waitFor } = await import('./sdk-support.ts');
    const client = await sdk.Client.create({ nodes: [rest] });
    undo.push(() => client.destroy());
    const genesisNs = BigInt(params.genesisUnixTimestamp) * 1_000_000_000n;
    const firstRound = () =>
      waitFor('a validation round', async () => {
        const i = await client.getIssuance();
        return BigInt(i.latestParentBlockIssuingTime) > genesisNs ? i : undefined;
      });
    return { ...started, client, firstRound };
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
}

export interface Issuance {
  /** The strong parents GET blocks/issuance names. */
  parents: Uint8Array[];
  /** The latest parent's issuing time, ns. */
  time: bigint;
  /** The latest commitment of GET info. */
  commitmentId: Uint8Array;
}

/** What a block issued now builds on, from the node's v3 API at `v3` (`http://HOST:PORT/api/core/v3`). */
export async function issuance(v3: string): Promise<Issuance> {
  const r = await fetch(`${v3}/blocks/issuance`, { headers: { accept: 'application/json' } });
  expect(r.status).to.equal(200);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const j = (await r.json()) as any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const info = (await (await fetch(`${v3}/info`, { headers: { accept: 'application/json' } })).json()) as any;
  return {
    parents: j.strongParents.map((p: string) => fromHex0x(p)),
    time: BigInt(j.latestParentBlockIssuingTime),
    commitmentId: fromHex0x(info.status.latestCommitmentId),
  };
}

/** An issuing time now, or just after the latest parent's when that is later, ns. */
export function issuingTime(iss: Issuance): bigint {
  const now = BigInt(Date.now()) * 1_000_000n;
  return (now > iss.time ? now : iss.time) + 1n;
}

/** A basic block of the test user (harness/fixtures/v3.ts USER) on `iss`, issued at `issuingTime`, with `payload`. */
export function userBlock(
  params: ProtocolParametersV3,
  iss: Issuance,
  issuingTime: bigint,
  payload?: SignedTransactionPayloadV3,
): Uint8Array {
  const at = { parents: iss.parents, issuingTime, commitmentId: iss.commitmentId };
  return basicBlock(params, { issuer: USER, ...at, ...(payload ? { payload } : {}) });
}
