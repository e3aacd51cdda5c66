/** Typed fields of the `meta` table: small node-wide values, each under its name. */
import { u32Codec, utf8Codec, type Codec } from './codec.ts';

export interface MetaField<T> {
  readonly name: string;
  readonly codec: Codec<T>;
}

function field<T>(name: string, codec: Codec<T>): MetaField<T> {
  return Object.freeze({ name, codec });
}

/** The layout version this code writes and reads; NodeStore.open refuses any other. */
export const SCHEMA_VERSION = 1;

export const META = Object.freeze({
  schemaVersion: field('schemaVersion', u32Codec),
  /** The network name (e.g. `shimmer`); the network ID derives from it. */
  networkName: field('networkName', utf8Codec),
  latestMilestoneIndex: field('latestMilestoneIndex', u32Codec),
  confirmedMilestoneIndex: field('confirmedMilestoneIndex', u32Codec),
  /** The milestone index the ledger state is at. */
  ledgerIndex: field('ledgerIndex', u32Codec),
});
