/**
 * Outgoing peer connections leave from the peer door's address (`--peer-host`), so that a firewall rule by address
 * (or a test's nftables rule) matches the connections a node dials as well as those it accepts. Without this the
 * kernel picks the source address (on loopback always 127.0.0.1, whatever the door's address).
 *
 * grpc-js 1.14 has no channel option for a local address. It passes each resolved address object to `net.connect`
 * as it is (its SubchannelAddress is documented as a subset of net's connect options), so a resolver of our own,
 * registered for the scheme `ledger-peer-from:`, resolves the target with grpc-js's own DNS resolver and adds
 * `localAddress` to every address of the same IP family. The address to bind travels in a channel option
 * (LOCAL_ADDRESS_OPTION): grpc-js keeps subchannels of different options apart, and the TLS server name and the
 * authority come from the target's `host:port` as with a plain target, so TLS and the other channel options work as
 * before.
 *
 * Not bound: a wildcard door (0.0.0.0, ::: the kernel chooses, as before), a door named by a host name (only an IP
 * literal is bound), an address of the other IP family, and a non-loopback destination when the door is on
 * loopback (a loopback source reaches no other machine).
 */
import { experimental, type ChannelOptions } from '@grpc/grpc-js';
import { isIP } from 'node:net';

/** The channel option naming the source address of a peer channel (read by the resolver below only). */
export const LOCAL_ADDRESS_OPTION = 'ledger-node.peer_local_address';
const SCHEME = 'ledger-peer-from';

type Address = experimental.SubchannelAddress;

/** The source address for `--peer-host`, or undefined when the kernel should choose (wildcard or a host name). */
export function sourceAddressOf(peerHost: string): string | undefined {
  const host = peerHost.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family === 0) return undefined;
  if (family === 4 ? host === '0.0.0.0' : /^[0:]+$/.test(host)) return undefined;
  return host;
}

function isLoopback(ip: string): boolean {
  const v4 = ip.toLowerCase().startsWith('::ffff:') ? ip.slice(7) : ip;
  return isIP(v4) === 4 ? v4.startsWith('127.') : v4 === '::1';
}

/** `address` with `localAddress` when `local` can be its source (same family; loopback only to loopback). */
export function bindAddress(address: Address, local: string): Address {
  if (!('host' in address)) return address;
  if (isIP(address.host) !== isIP(local)) return address;
  if (isLoopback(local) && !isLoopback(address.host)) return address;
  return { ...address, localAddress: local } as Address;
}

/** grpc-js's DNS resolution of the target, with the source address added to each address (see above). */
class BoundResolver implements experimental.Resolver {
  private readonly inner: experimental.Resolver;

  constructor(target: experimental.GrpcUri, listener: experimental.ResolverListener, options: ChannelOptions) {
    const local = options[LOCAL_ADDRESS_OPTION] as string | undefined;
    const bound: experimental.ResolverListener = (endpoints, attributes, config, note) =>
      listener(
        endpoints.ok && local !== undefined
          ? {
              ok: true,
              value: endpoints.value.map((e) => ({ ...e, addresses: e.addresses.map((a) => bindAddress(a, local)) })),
            }
          : endpoints,
        attributes,
        config,
        note,
      );
    this.inner = experimental.createResolver({ scheme: 'dns', path: target.path }, bound, options);
  }

  updateResolution(): void {
    this.inner.updateResolution();
  }

  destroy(): void {
    this.inner.destroy();
  }

  static getDefaultAuthority(target: experimental.GrpcUri): string {
    return target.path;
  }
}

experimental.registerResolver(SCHEME, BoundResolver);

/** The target and channel options that dial `address` ("host:port") from `local`. */
export function boundTarget(address: string, local: string): { target: string; options: ChannelOptions } {
  return { target: `${SCHEME}:${address}`, options: { [LOCAL_ADDRESS_OPTION]: local } };
}
