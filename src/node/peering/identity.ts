/**
 * The node's identity: an Ed25519 key in its data folder, `identity.key`, a PKCS#8 PEM private key (the form Hornet
 * keeps its peer identity in), created with file mode 0600 on the first start and kept for the life of the folder.
 * Peers check it in the handshake (peering/handshake.ts); the node ID is derived from its public key; /info and
 * the dashboard show both; `ledger-node tool identity --data-dir DIR` prints the public key (also while the node
 * runs: the file is only read).
 */
import { createPrivateKey, createPublicKey, randomBytes, sign, type KeyObject } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { nodeIdOf, type PeerIdentity } from './handshake.ts';

export const IDENTITY_FILE = 'identity.key';

/** PKCS#8 PrivateKeyInfo of an Ed25519 key up to its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export interface NodeIdentity extends PeerIdentity {
  /** 16 bytes derived from the public key (handshake.ts nodeIdOf). */
  readonly nodeId: Uint8Array;
  /** The file it was read from. */
  readonly file: string;
}

function identityOf(key: KeyObject, file: string): NodeIdentity {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(
      `${file}: expected an Ed25519 private key, found ${key.asymmetricKeyType ?? 'another kind of key'}`,
    );
  const raw = createPublicKey(key).export({ format: 'der', type: 'spki' });
  const publicKey = new Uint8Array(raw.subarray(raw.length - 32));
  return { publicKey, nodeId: nodeIdOf(publicKey), file, sign: (message) => new Uint8Array(sign(null, message, key)) };
}

/** Reads `<dataDir>/identity.key`; undefined when there is none. Throws when it exists but is not an Ed25519 key. */
export function readIdentity(dataDir: string): NodeIdentity | undefined {
  const file = join(dataDir, IDENTITY_FILE);
  if (!existsSync(file)) return undefined;
  let key: KeyObject;
  try {
    key = createPrivateKey(readFileSync(file));
  } catch (e) {
    throw new Error(`${file}: not a PEM private key (${(e as Error).message})`);
  }
  return identityOf(key, file);
}

/**
 * The data folder's identity, created (mode 0600, never overwritten) when it has none. `warn` is told when the file
 * can be read by other users.
 */
export function loadOrCreateIdentity(
  dataDir: string,
  warn: (message: string) => void = () => undefined,
): { identity: NodeIdentity; created: boolean } {
  const existing = readIdentity(dataDir);
  if (existing) {
    const mode = statSync(existing.file).mode & 0o777;
    if ((mode & 0o077) !== 0)
      warn(`${existing.file} can be read by other users (mode ${mode.toString(8)}): chmod 600 it`);
    return { identity: existing, created: false };
  }
  const file = join(dataDir, IDENTITY_FILE);
  const der = Buffer.concat([PKCS8_ED25519_PREFIX, randomBytes(32)]);
  const key = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const fd = openSync(file, 'wx', 0o600); // fails when another process created it meanwhile
  try {
    writeSync(fd, key.export({ format: 'pem', type: 'pkcs8' }) as string);
  } finally {
    closeSync(fd);
  }
  return { identity: identityOf(key, file), created: true };
}
