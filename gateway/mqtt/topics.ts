/**
 * The TIP-28 topics (the names inx-mqtt publishes, docs/decisions.md §21 and §25) and the grammar a subscription must
 * meet: exact topic names, IDs as `0x` + lower-case hex of their exact length (events are published with lower-case
 * hex, so any other spelling would never receive anything), tags of 1 to 64 bytes, bech32 addresses (lower case, the
 * network's HRP, an Ed25519, alias or NFT address) and the unlock condition names of TIP-28, where `+` (any
 * condition) is the only wildcard: every other `+` or `#` is refused, like every unknown topic.
 */
import { bech32 } from '@scure/base';

export const UNLOCK_CONDITIONS = [
  'address',
  'storage-return',
  'expiration',
  'state-controller',
  'governor',
  'immutable-alias',
] as const;
export type UnlockConditionName = (typeof UNLOCK_CONDITIONS)[number];

/** The topics without parameters. */
export const TOPICS = {
  milestoneLatest: 'milestone-info/latest',
  milestoneConfirmed: 'milestone-info/confirmed',
  milestones: 'milestones',
  blocks: 'blocks',
  blocksTransaction: 'blocks/transaction',
  blocksTransactionTaggedData: 'blocks/transaction/tagged-data',
  blocksTaggedData: 'blocks/tagged-data',
  blockMetadataReferenced: 'block-metadata/referenced',
  receipts: 'receipts',
} as const;

const FIXED = new Set<string>(Object.values(TOPICS));

/** What a subscription asks for, as far as its current state is sent on subscribe (inx-mqtt's rule). */
export type TopicRequest =
  | { kind: 'milestone-info'; which: 'latest' | 'confirmed' }
  | { kind: 'block-metadata'; blockId: string }
  | { kind: 'included-block'; transactionId: string }
  | { kind: 'output'; outputId: string }
  | { kind: 'events' };

export type TopicCheck = { ok: true; request: TopicRequest } | { ok: false; reason: string };

/** `0x` + 2 * bytes lower-case hex digits. */
function hexOf(bytes: number): RegExp {
  return new RegExp(`^0x[0-9a-f]{${2 * bytes}}$`);
}

const ID32 = hexOf(32);
const OUTPUT_ID = hexOf(34);
const FOUNDRY_ID = hexOf(38);
const TAG = /^0x(?:[0-9a-f]{2}){1,64}$/;
/** Ed25519 (0), alias (8) and NFT (16) addresses: a type byte and 32 bytes. */
const ADDRESS_TYPES = new Set([0, 8, 16]);
const ADDRESS_BYTES = 33;
/** The highest output index (a transaction has at most 128 outputs). */
const MAX_OUTPUT_INDEX = 127;

const fail = (reason: string): TopicCheck => ({ ok: false, reason });
const plain: TopicCheck = { ok: true, request: { kind: 'events' } };

/** Why `text` is not a bech32 address of this network (undefined when it is); `hrp` undefined: any HRP. */
export function bech32Problem(text: string, hrp: string | undefined): string | undefined {
  if (text !== text.toLowerCase()) return 'a bech32 address must be lower case';
  let decoded: ReturnType<typeof bech32.decode>;
  try {
    decoded = bech32.decode(text as `${string}1${string}`, 90);
  } catch (e) {
    return `invalid bech32 address: ${(e as Error).message}`;
  }
  if (hrp !== undefined && decoded.prefix !== hrp)
    return `bech32 address of another network: "${decoded.prefix}", this network's HRP is "${hrp}"`;
  let bytes: Uint8Array;
  try {
    bytes = bech32.fromWords(decoded.words);
  } catch (e) {
    return `invalid bech32 address: ${(e as Error).message}`;
  }
  if (bytes.length !== ADDRESS_BYTES || !ADDRESS_TYPES.has(bytes[0]!)) return 'not an Ed25519, alias or NFT address';
  return undefined;
}

function outputsTopic(parts: string[], hrp: string | undefined): TopicCheck {
  const [, second, third, fourth, fifth, ...rest] = parts;
  if (parts.length === 2) {
    if (!OUTPUT_ID.test(second!)) return fail('outputs/{outputId}: expected 0x and 34 bytes of lower-case hex');
    const index = parseInt(second!.slice(66, 68), 16) | (parseInt(second!.slice(68, 70), 16) << 8);
    if (index > MAX_OUTPUT_INDEX) return fail(`outputs/{outputId}: output index ${index} is over ${MAX_OUTPUT_INDEX}`);
    return { ok: true, request: { kind: 'output', outputId: second! } };
  }
  if (parts.length === 3 && (second === 'alias' || second === 'nft')) {
    return ID32.test(third!) ? plain : fail(`outputs/${second}/{id}: expected 0x and 32 bytes of lower-case hex`);
  }
  if (parts.length === 3 && second === 'foundry')
    return FOUNDRY_ID.test(third!)
      ? plain
      : fail('outputs/foundry/{foundryId}: expected 0x and 38 bytes of lower-case hex');
  if (second === 'unlock' && (parts.length === 4 || (parts.length === 5 && fifth === 'spent')) && rest.length === 0) {
    if (third !== '+' && !(UNLOCK_CONDITIONS as readonly string[]).includes(third!))
      return fail(`outputs/unlock/{condition}: unknown condition "${third}"`);
    const problem = bech32Problem(fourth!, hrp);
    return problem === undefined ? plain : fail(`outputs/unlock/${third}/{address}: ${problem}`);
  }
  return fail('unknown outputs topic');
}

/**
 * Checks a subscription's topic filter against TIP-28; `hrp` is the network's bech32 HRP (undefined: not known yet).
 */
export function checkTopic(topic: string, hrp: string | undefined): TopicCheck {
  if (topic === TOPICS.milestoneLatest) return { ok: true, request: { kind: 'milestone-info', which: 'latest' } };
  if (topic === TOPICS.milestoneConfirmed) return { ok: true, request: { kind: 'milestone-info', which: 'confirmed' } };
  if (FIXED.has(topic)) return plain;
  const parts = topic.split('/');
  switch (parts[0]) {
    case 'blocks': {
      const tagged =
        (parts.length === 3 && parts[1] === 'tagged-data') ||
        (parts.length === 4 && parts[1] === 'transaction' && parts[2] === 'tagged-data');
      if (!tagged) return fail('unknown blocks topic');
      return TAG.test(parts[parts.length - 1]!)
        ? plain
        : fail('tagged-data/{tag}: expected 0x and 1 to 64 bytes of lower-case hex');
    }
    case 'block-metadata':
      if (parts.length === 2 && ID32.test(parts[1]!))
        return { ok: true, request: { kind: 'block-metadata', blockId: parts[1]! } };
      return fail('block-metadata/{blockId}: expected 0x and 32 bytes of lower-case hex');
    case 'transactions':
      if (parts.length === 3 && parts[2] === 'included-block' && ID32.test(parts[1]!))
        return { ok: true, request: { kind: 'included-block', transactionId: parts[1]! } };
      return fail('expected transactions/{transactionId}/included-block with 0x and 32 bytes of lower-case hex');
    case 'outputs':
      return outputsTopic(parts, hrp);
    default:
      return fail('unknown topic');
  }
}
