// Bech32 (BIP-173, checksum constant 1, not bech32m) for the explorer page: owner addresses come in output JSON as
// hex (Ed25519 pubKeyHash, alias aliasId, NFT nftId) and are shown and linked as the network's bech32 addresses.
// An address is the type byte (0 Ed25519, 8 alias, 16 NFT) followed by its 32 bytes, in 5-bit groups. Pure functions,
// no DOM: test/gateway/dashboard-bech32.test.ts checks them against the node's own (src/core/ids/bech32.ts).

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values) {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i];
  }
  return chk;
}

function expandHrp(hrp) {
  const out = [];
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >> 5);
  out.push(0);
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31);
  return out;
}

// 8-bit bytes to 5-bit groups, the last one padded with zero bits
function toWords(bytes) {
  const words = [];
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
    acc &= (1 << bits) - 1;
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  return words;
}

/** `bytes` (Uint8Array or array of 0..255) under the lower-case human-readable part `hrp`. */
export function bech32Encode(hrp, bytes) {
  const words = toWords(bytes);
  const mod = polymod([...expandHrp(hrp), ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  let out = hrp + '1';
  for (const w of words) out += CHARSET[w];
  for (let i = 0; i < 6; i++) out += CHARSET[(mod >>> (5 * (5 - i))) & 31];
  return out;
}

/** Whether `text` is bech32 with a valid checksum (one case only); answers its lower-case HRP, or undefined. */
export function bech32Prefix(text) {
  if (typeof text !== 'string' || text.length > 90 || (text !== text.toLowerCase() && text !== text.toUpperCase()))
    return undefined;
  const t = text.toLowerCase();
  const sep = t.lastIndexOf('1');
  if (sep < 1 || t.length - sep - 1 < 6) return undefined;
  const hrp = t.slice(0, sep);
  for (let i = 0; i < hrp.length; i++) {
    const c = hrp.charCodeAt(i);
    if (c < 33 || c > 126) return undefined;
  }
  const data = [];
  for (const ch of t.slice(sep + 1)) {
    const v = CHARSET.indexOf(ch);
    if (v < 0) return undefined;
    data.push(v);
  }
  return polymod([...expandHrp(hrp), ...data]) === 1 ? hrp : undefined;
}

/** 0x-hex to bytes (an empty array for anything that is not whole bytes of hex). */
export function hexToBytes(hex) {
  const h = typeof hex === 'string' && hex.startsWith('0x') ? hex.slice(2) : '';
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) return [];
  const out = [];
  for (let i = 0; i < h.length; i += 2) out.push(parseInt(h.slice(i, i + 2), 16));
  return out;
}

const ADDRESS_FIELDS = { 0: 'pubKeyHash', 8: 'aliasId', 16: 'nftId' };

/** The bech32 text of an address in TIP-25 JSON ({type: 0, pubKeyHash} | {type: 8, aliasId} | {type: 16, nftId}). */
export function addressToBech32(hrp, address) {
  const field = address && ADDRESS_FIELDS[address.type];
  const body = field ? hexToBytes(address[field]) : [];
  if (body.length !== 32) return undefined;
  return bech32Encode(hrp, [address.type, ...body]);
}
