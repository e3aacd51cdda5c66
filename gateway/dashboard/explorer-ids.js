// What the explorer page knows of IDs and TIP-25 JSON, as pure functions (no DOM; test/gateway/dashboard-bech32.test.ts
// loads this module in Node): which kind of text the search box holds, output IDs, the names of payload, output and
// unlock condition types, and the addresses an output names (its owner first).
import { bech32Prefix } from './bech32.js';

/**
 * The search text's shape: 'index' (decimal), 'id' (0x + 64 hex: block, transaction or milestone), 'output'
 * (0x + 68 hex), 'address' (bech32 of `hrp`); or {error} saying why it is none, so the page need not ask the node.
 */
export function classify(text, hrp) {
  const t = text.trim();
  if (t === '') return { error: 'type a milestone index, an ID or an address' };
  if (/^[0-9]+$/.test(t))
    return Number(t) <= 0xffffffff ? 'index' : { error: 'a milestone index is at most 4294967295' };
  if (/^0x[0-9a-fA-F]{64}$/.test(t)) return 'id';
  if (/^0x[0-9a-fA-F]{68}$/.test(t)) return 'output';
  const prefix = bech32Prefix(t);
  if (prefix !== undefined) {
    return prefix === hrp
      ? 'address'
      : { error: `an address of another network (${prefix}1…); this network's is ${hrp}1…` };
  }
  if (/^[\x21-\x7e]+1[0-9a-zA-Z]{6,}$/.test(t)) return { error: 'not a valid bech32 address (the checksum fails)' };
  return {
    error:
      'neither a milestone index, a block, transaction or milestone ID (0x and 64 hex digits), ' +
      'an output ID (0x and 68 hex digits) nor an address',
  };
}

/** The output ID of output `index` of transaction `txId` (0x-hex): the ID, then the index as u16 little-endian. */
export function outputIdOf(txId, index) {
  const le = (index & 0xff).toString(16).padStart(2, '0') + ((index >> 8) & 0xff).toString(16).padStart(2, '0');
  return txId.toLowerCase() + le;
}

/** A UTXO input ({type: 0, transactionId, transactionOutputIndex}) as the output ID it spends. */
export function inputOutputId(input) {
  return input && input.type === 0 ? outputIdOf(input.transactionId, input.transactionOutputIndex) : undefined;
}

export const PAYLOAD_NAMES = { 5: 'tagged data', 6: 'transaction', 7: 'milestone', 4: 'treasury transaction' };
export const OUTPUT_NAMES = { 2: 'treasury', 3: 'basic', 4: 'alias', 5: 'foundry', 6: 'NFT' };
export const ADDRESS_NAMES = { 0: 'Ed25519', 8: 'alias', 16: 'NFT' };

export function payloadName(payload) {
  if (!payload) return 'none';
  return PAYLOAD_NAMES[payload.type] || `type ${payload.type}`;
}

export function outputName(output) {
  return OUTPUT_NAMES[output.type] || `type ${output.type}`;
}

// The unlock conditions naming an address, by type, with the field that holds it.
const ADDRESS_CONDITIONS = [
  [0, 'address', 'address'],
  [1, 'returnAddress', 'storage deposit return'],
  [3, 'returnAddress', 'expiration return'],
  [4, 'address', 'state controller'],
  [5, 'address', 'governor'],
  [6, 'address', 'immutable alias'],
];

/**
 * The addresses an output names, each {role, address (JSON)}, its owner first: the address unlock condition of a
 * basic or NFT output, the state controller of an alias, the immutable alias of a foundry (inx-chronicle's owning
 * address, as the explorer history books it).
 */
export function addressesOf(output) {
  const found = [];
  for (const uc of output.unlockConditions || []) {
    const known = ADDRESS_CONDITIONS.find((c) => c[0] === uc.type);
    if (known && uc[known[1]]) found.push({ role: known[2], address: uc[known[1]] });
  }
  const ownerRole = { 3: 'address', 6: 'address', 4: 'state controller', 5: 'immutable alias' }[output.type];
  const i = found.findIndex((f) => f.role === ownerRole);
  if (i > 0) found.unshift(...found.splice(i, 1));
  if (i >= 0) found[0] = { role: 'owner', address: found[0].address };
  return found;
}

/** Seconds since the epoch as an ISO date without milliseconds ('–' for none). */
export function isoTime(seconds) {
  if (typeof seconds !== 'number' || !(seconds > 0)) return '–';
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** The text of 0x-hex bytes when they are printable UTF-8, else undefined. */
export function printable(hex) {
  if (typeof hex !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(hex) || hex.length < 3) return undefined;
  const bytes = new Uint8Array(
    hex
      .slice(2)
      .match(/../g)
      .map((b) => parseInt(b, 16)),
  );
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return /^[\P{C}\n\t]*$/u.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}
