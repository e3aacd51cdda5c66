/**
 * v3 e2e helpers: the genesis file of a node with a v3 section, and what a client reads from a node before it issues
 * a v3 block (its parents, the latest parent's issuing time, the latest commitment).
 */
import { expect } from 'chai';
import { fromHex0x } from '../../../src/core/bytes.ts';
import type { ProtocolParametersV3, SignedTransactionPayloadV3 } from '../../../src/core/v3/index.ts';
import { devGenesis, genesisToJson } from '../../../src/node/genesis/genesis.ts';
import { genesisV3ToJson, type GenesisV3 } from '../../../src/node/v3/genesis-v3.ts';
import { basicBlock, USER } from '../../../harness/fixtures/v3.ts';

/** A genesis file's JSON: the v2 dev network (min PoW score 0) with `g` as its v3 section. */
export const genesisWithV3 = (g: GenesisV3): object => ({
  ...genesisToJson(devGenesis({ minPowScore: 0 })),
  v3: genesisV3ToJson(g),
});

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
