/**
 * The `v3` section of the genesis (snapshot) file: what the IOTA 2.0 part of the node starts from.
 *
 *   "v3": {
 *     "protocolParameters": { TIP-49 object as /api/core/v3/info serves it },   // optional: the dev default
 *     "accounts": [ { "accountId": "0x<32 bytes>", "blockIssuerKeys": ["0x<32-byte Ed25519 public key hash>"],
 *                     "seat": true, "validatorSeed": "0x<32 bytes>" } ],
 *     "outputs": [ { v3 output JSON }, ... ]
 *   }
 *
 * `accounts` are the block issuers the node knows (a block's `issuerId` must be one, and its signature key one of
 * the account's keys); those with `"seat": true` form the validator committee, in the listed order (seat 0, 1,
 * ...). `validatorSeed` (optional, dev networks only) is the Ed25519 seed the node's built-in validator signs that
 * seat's validation blocks with; it must match one of the account's keys. `outputs` are the genesis outputs: output
 * i has the ID genesisTransactionId ‖ i (u16 LE), where genesisTransactionId is 32 zero bytes ‖ genesisSlot
 * (u32 LE), and counts as created in the genesis slot.
 */
import { blake2b256 } from '../../core/crypto/blake2b.ts';
import { ed25519PublicKeyFromSeed } from '../../core/crypto/ed25519.ts';
import { compareBytes, equalBytes, toHex0x } from '../../core/bytes.ts';
import { JsonPath } from '../../core/json/path.ts';
import {
  optional,
  readBoolean,
  readFixed,
  readList,
  readObject,
  required,
  assertNoForbiddenKeys,
} from '../../core/json/read.ts';
import { bytesToJson } from '../../core/json/write.ts';
import {
  idWithSlot,
  outputFromJsonV3,
  outputIdV3,
  outputToJsonV3,
  protocolParametersFromJsonV3,
  protocolParametersToJsonV3,
  type OutputV3,
  type ProtocolParametersV3,
} from '../../core/v3/index.ts';
import { MAX_SEATS_V3 } from '../../core/v3/consensus/committee.ts';
import { DEV_PROTOCOL_PARAMETERS_V3_JSON } from './dev-parameters.ts';

export interface GenesisAccountV3 {
  accountId: Uint8Array;
  /** BLAKE2b-256 hashes of the Ed25519 public keys that may sign this account's blocks. */
  blockIssuerKeys: Uint8Array[];
  seat: boolean;
  validatorSeed?: Uint8Array;
}

export interface GenesisV3 {
  protocolParameters: ProtocolParametersV3;
  accounts: GenesisAccountV3[];
  outputs: OutputV3[];
}

const KNOWN_KEYS = ['protocolParameters', 'accounts', 'outputs'];
const ACCOUNT_KEYS = ['accountId', 'blockIssuerKeys', 'seat', 'validatorSeed'];

/** The dev protocol parameters with the given genesis time (Unix seconds). */
export function devProtocolParametersV3(genesisUnixTimestamp: number): ProtocolParametersV3 {
  return protocolParametersFromJsonV3({
    ...DEV_PROTOCOL_PARAMETERS_V3_JSON,
    genesisUnixTimestamp: String(genesisUnixTimestamp),
  });
}

/** The 36-byte ID of the virtual transaction that created the genesis outputs. */
export function genesisTransactionIdV3(params: ProtocolParametersV3): Uint8Array {
  return idWithSlot(new Uint8Array(32), params.genesisSlot);
}

/** The block every first block references: 32 zero bytes ‖ genesis slot (as iota-core's genesis block). */
export function genesisBlockIdV3(params: ProtocolParametersV3): Uint8Array {
  return idWithSlot(new Uint8Array(32), params.genesisSlot);
}

export function genesisOutputIdsV3(g: GenesisV3): Uint8Array[] {
  const tx = genesisTransactionIdV3(g.protocolParameters);
  return g.outputs.map((_, i) => outputIdV3(tx, i));
}

/**
 * A dev v3 genesis: one committee seat whose validator key is `seed` (random unless given), and one Basic Output
 * holding the whole token supply, owned by the same key's Ed25519 address (the seed is in the genesis file, so the
 * operator can spend it).
 */
export function devGenesisV3(options: { timestamp?: number; seed?: Uint8Array } = {}): GenesisV3 {
  const seed = options.seed ?? crypto.getRandomValues(new Uint8Array(32));
  const keyHash = blake2b256(ed25519PublicKeyFromSeed(seed));
  const params = devProtocolParametersV3(options.timestamp ?? Math.floor(Date.now() / 1000));
  return {
    protocolParameters: params,
    accounts: [{ accountId: blake2b256(keyHash), blockIssuerKeys: [keyHash], seat: true, validatorSeed: seed }],
    outputs: [
      {
        type: 0,
        amount: params.tokenSupply,
        mana: 0n,
        unlockConditions: [{ type: 0, address: { type: 0, pubKeyHash: keyHash } }],
        features: [],
      },
    ],
  };
}

function parseAccount(v: unknown, p: JsonPath): GenesisAccountV3 {
  const o = readObject(v, p);
  for (const key of Object.keys(o))
    if (!ACCOUNT_KEYS.includes(key))
      p.key(key).fail('INVALID_FIELD', `unknown key (known: ${ACCOUNT_KEYS.join(', ')})`);
  const keys = readList(required(o, 'blockIssuerKeys', p), p.key('blockIssuerKeys'), 128, (e, ep) =>
    readFixed(e, ep, 32),
  );
  if (keys.length === 0)
    p.key('blockIssuerKeys').fail('COUNT_OUT_OF_RANGE', 'an account needs at least one block issuer key', 0);
  const a: GenesisAccountV3 = {
    accountId: readFixed(required(o, 'accountId', p), p.key('accountId'), 32),
    blockIssuerKeys: keys,
    seat: optional(o, 'seat') === undefined ? false : readBoolean(o['seat'], p.key('seat')),
  };
  const seed = optional(o, 'validatorSeed');
  if (seed !== undefined) {
    const s = readFixed(seed, p.key('validatorSeed'), 32);
    const hash = blake2b256(ed25519PublicKeyFromSeed(s));
    if (!keys.some((k) => equalBytes(k, hash)))
      p.key('validatorSeed').fail(
        'INVALID_FIELD',
        "the seed's public key hash is not one of the account's blockIssuerKeys",
      );
    if (!a.seat)
      p.key('validatorSeed').fail('INVALID_FIELD', 'only a committee seat ("seat": true) has a validator seed');
    a.validatorSeed = s;
  }
  return a;
}

/** Parses and checks the `v3` section; errors are ProtocolErrors naming the JSON path (`genesis.v3...`). */
export function genesisV3FromJson(json: unknown, p: JsonPath = new JsonPath('genesis.v3')): GenesisV3 {
  assertNoForbiddenKeys(json, p);
  const o = readObject(json, p);
  for (const key of Object.keys(o))
    if (!KNOWN_KEYS.includes(key)) p.key(key).fail('INVALID_FIELD', `unknown key (known: ${KNOWN_KEYS.join(', ')})`);
  const rawParams = optional(o, 'protocolParameters');
  const params =
    rawParams === undefined
      ? devProtocolParametersV3(Math.floor(Date.now() / 1000))
      : protocolParametersFromJsonV3(rawParams);
  if (params.version !== 3)
    p.key('protocolParameters.version').fail(
      'VALUE_OUT_OF_RANGE',
      `protocol version ${params.version} is not 3`,
      params.version,
    );
  const accounts = readList(required(o, 'accounts', p), p.key('accounts'), 1000, parseAccount);
  const ids = accounts.map((a) => a.accountId).sort(compareBytes);
  for (let i = 1; i < ids.length; i++)
    if (compareBytes(ids[i - 1]!, ids[i]!) === 0)
      p.key('accounts').fail('DUPLICATE', `duplicate account ${toHex0x(ids[i]!)}`, toHex0x(ids[i]!));
  const seats = accounts.filter((a) => a.seat).length;
  if (seats < 1 || seats > MAX_SEATS_V3)
    p.key('accounts').fail(
      'COUNT_OUT_OF_RANGE',
      `the committee needs 1..${MAX_SEATS_V3} seats ("seat": true), got ${seats}`,
      seats,
    );
  // at most 128: output indexes of a transaction (the virtual genesis one too) are 0..127
  const outputs = readList(optional(o, 'outputs') ?? [], p.key('outputs'), 128, (e) => outputFromJsonV3(e));
  let total = 0n;
  for (const out of outputs) total += out.amount;
  if (total > params.tokenSupply)
    p.key('outputs').fail(
      'VALUE_OUT_OF_RANGE',
      `the outputs hold ${total}, more than the token supply ${params.tokenSupply}`,
      String(total),
    );
  return { protocolParameters: params, accounts, outputs };
}

export function genesisV3ToJson(g: GenesisV3): Record<string, unknown> {
  return {
    protocolParameters: protocolParametersToJsonV3(g.protocolParameters),
    accounts: g.accounts.map((a) => {
      const out: Record<string, unknown> = {
        accountId: bytesToJson(a.accountId),
        blockIssuerKeys: a.blockIssuerKeys.map(bytesToJson),
        seat: a.seat,
      };
      if (a.validatorSeed) out['validatorSeed'] = bytesToJson(a.validatorSeed);
      return out;
    }),
    outputs: g.outputs.map((o) => outputToJsonV3(o)),
  };
}
