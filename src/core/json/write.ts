/** Model values → their JSON text forms (docs/protocol.md §18). */
import { toHex0x } from '../bytes.ts';

/** u64 → decimal string. */
export function u64ToJson(n: bigint): string {
  return n.toString(10);
}

/** u256 → `0x` + big-endian hex without leading zeros; zero is "0x0". */
export function u256ToJson(n: bigint): string {
  return '0x' + n.toString(16);
}

/** Bytes → `0x` + lowercase hex. */
export function bytesToJson(b: Uint8Array): string {
  return toHex0x(b);
}
