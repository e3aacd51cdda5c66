/** The vector JSON the JSON tests start from (clone() it before changing it), two addresses and a basic output. */
import { loadVectors } from '../../../harness/vectors.ts';
import { hex } from './helpers.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */
const named = (list: any[], name: string): any => list.find((v: any) => v.name === name);
const blocks = loadVectors('stardust/blocks.json');
const outputs = loadVectors('stardust/outputs.json');

/** A Shimmer transaction block (milestone 2418187, white-flag index 44), as this mapper writes it. */
export const txBlock: any = named(blocks.vectors, 'shimmer-mainnet-ms2418187-wf44').derived.jsonDecodedLocally;
/** The tagged data block example of TIP-24. */
export const tip24: any = named(blocks.vectors, 'tip24-tagged-data-example').json;
/** A milestone payload with both options: a receipt and protocol parameters. */
export const msFull: any = named(
  loadVectors('stardust/milestones.json').vectors,
  'iotajs-milestone-payload-receipt-and-protocol-params',
).json;
export const aliasOut: any = named(outputs.serialization, 'iotajs-alias-output').json;
export const foundryOut: any = named(outputs.serialization, 'iotajs-foundry-output').json;

export const ED = { type: 0, pubKeyHash: hex('ab', 32) };
export const ALIAS = { type: 8, aliasId: hex('cd', 32) };

/** A basic output of 1000 that ED unlocks; `extra` adds or replaces keys. */
export const basic = (extra: object = {}) => ({
  type: 3,
  amount: '1000',
  unlockConditions: [{ type: 0, address: ED }],
  ...extra,
});
