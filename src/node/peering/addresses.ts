/**
 * Peer addresses. This node dials a peer's gRPC port as `host:port` (`--peer`); the peers routes (TIP-25, Hornet) speak
 * multiaddresses. Both forms are accepted when a peer is added at run time, `/ip4|ip6|dns|dns4|dns6/HOST/tcp/PORT`
 * with an optional trailing `/p2p/ID` (ignored: a peer proves its node ID in the handshake), and every address is
 * answered in the multiaddress form as well. Either form may be preceded by `0xPUBKEY@` (the `pubkey@host:port` form of
 * enode and Lightning addresses): then only the peer proving that identity key is accepted (peers.ts).
 */
import { fromHex0x } from '../../core/bytes.ts';
import { NodeError } from '../support/errors.ts';
import { quoteText } from '../../core/text.ts';

const HOST_PORT = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\]):([0-9]{1,5})$/;
const MULTI = /^\/(ip4|ip6|dns|dns4|dns6)\/([^/]+)\/tcp\/([0-9]{1,5})(?:\/p2p\/[A-Za-z0-9]+)?\/?$/;
const IP4 = /^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$/;

function port(text: string, raw: string): number {
  const n = Number(text);
  if (n < 1 || n > 65535)
    throw new NodeError('INVALID_REQUEST', `invalid peer address ${quoteText(raw)}: port ${text} is not in 1..65535`);
  return n;
}

/** The `host:port` this node dials for `raw` (either form); INVALID_REQUEST naming the problem otherwise. */
export function dialAddress(raw: string): string {
  const text = raw.trim();
  const hp = HOST_PORT.exec(text);
  if (hp) return `${hp[1]}:${port(hp[2]!, raw)}`;
  const m = MULTI.exec(text);
  if (!m)
    throw new NodeError(
      'INVALID_REQUEST',
      `invalid peer address ${quoteText(raw)}: expected HOST:PORT or a multiaddress /ip4|ip6|dns/HOST/tcp/PORT`,
    );
  const [, proto, host, p] = m as unknown as [string, string, string, string];
  if (proto === 'ip4' && !IP4.test(host))
    throw new NodeError(
      'INVALID_REQUEST',
      `invalid peer address ${JSON.stringify(raw)}: ${host} is not an IPv4 address`,
    );
  if (proto === 'ip6' && !/^[0-9A-Fa-f:.]+$/.test(host))
    throw new NodeError(
      'INVALID_REQUEST',
      `invalid peer address ${JSON.stringify(raw)}: ${host} is not an IPv6 address`,
    );
  if (proto.startsWith('dns') && !/^[A-Za-z0-9.-]+$/.test(host))
    throw new NodeError('INVALID_REQUEST', `invalid peer address ${JSON.stringify(raw)}: ${host} is not a host name`);
  return proto === 'ip6' ? `[${host}]:${port(p, raw)}` : `${host}:${port(p, raw)}`;
}

const KEYED = /^(0x[0-9A-Fa-f]{64})@(.+)$/;

/** `[0xPUBKEY@]ADDRESS`: the `host:port` dialed, and the identity key expected when one is named. */
export function peerTarget(raw: string): { address: string; publicKey?: Uint8Array } {
  const m = KEYED.exec(raw.trim());
  if (!m) return { address: dialAddress(raw) };
  return { address: dialAddress(m[2]!), publicKey: fromHex0x(m[1]!.toLowerCase(), 'peer public key') };
}

/**
 * The multiaddress of a `host:port` (dialed) or of an inbound call's remote address (`1.2.3.4:5`, `::1:5`,
 * `::ffff:1.2.3.4:5`, as grpc-js reports it); the text itself when it has no port.
 */
export function multiAddressOf(address: string): string {
  const text = address.replace(/^ipv[46]:/, '');
  const cut = text.lastIndexOf(':');
  if (cut < 0 || !/^[0-9]+$/.test(text.slice(cut + 1))) return text;
  let host = text.slice(0, cut);
  const p = text.slice(cut + 1);
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.toLowerCase().startsWith('::ffff:') && IP4.test(host.slice(7))) host = host.slice(7);
  if (IP4.test(host)) return `/ip4/${host}/tcp/${p}`;
  if (host.includes(':')) return `/ip6/${host}/tcp/${p}`;
  return `/dns/${host}/tcp/${p}`;
}
