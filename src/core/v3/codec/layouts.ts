/**
 * The layout table of every v3 object (docs/protocol.md §V3–§V7, iota.go as the node runs it). Field order = wire
 * order = JSON key order. Bounds, allowed types per context and ordering rules live here, next to the layout. Here:
 * transactions, payloads, blocks and commitments; the shared families (addresses, unlock conditions, features) are in
 * layouts-common.ts, outputs, signatures and unlocks in layouts-outputs.ts, both re-exported here.
 */
import { equalBytes, toHex0x } from '../../bytes.ts';
import { encodeKind } from './binary.ts';
import * as C from '../model/codes.ts';
import {
  bytes,
  family,
  fixed,
  list,
  member,
  payload,
  struct,
  u16,
  u32,
  u64,
  u8,
  union,
  type Check,
  type CheckFailure,
  type Kind,
  type StructSchema,
} from './schema.ts';
import {
  ADDRESS,
  bad,
  byBytes,
  byField,
  contextInputOrder,
  findDuplicate,
  noTrailingZero,
  type Obj,
} from './layouts-common.ts';
import { OUTPUT, SIGNATURE, UNLOCK } from './layouts-outputs.ts';

export { ADDRESS, BLOCK_ISSUER_KEY, FEATURE, UNLOCK_CONDITION, findDuplicate } from './layouts-common.ts';
export { OUTPUT, SIGNATURE, TOKEN_SCHEME, UNLOCK } from './layouts-outputs.ts';

// ---------------------------------------------------------------------------------------------------------------
// transaction (§V5)

export const CONTEXT_INPUT = family('context input');
member(CONTEXT_INPUT, C.CONTEXT_INPUT_COMMITMENT, 'commitment input', [fixed('commitmentId', 36)]);
member(CONTEXT_INPUT, C.CONTEXT_INPUT_BLOCK_ISSUANCE_CREDIT, 'block issuance credit input', [fixed('accountId', 32)]);
member(CONTEXT_INPUT, C.CONTEXT_INPUT_REWARD, 'reward input', [u16('index', 0, 127)]);

export const INPUT = family('input');
member(INPUT, C.INPUT_UTXO, 'UTXO input', [fixed('transactionId', 36), u16('transactionOutputIndex', 0, 127)]);

export const ALLOTMENT: StructSchema = {
  name: 'allotment',
  fields: [fixed('accountId', 32), u64('mana')],
  checks: [(v) => ((v.mana as bigint) === 0n ? bad('VALUE_OUT_OF_RANGE', 'mana must be > 0', 'mana') : undefined)],
};

export const PAYLOAD = family('payload');

/** Fields 1–7 of the transaction (the part hashed into the transaction commitment). */
export const ESSENCE_FIELDS: StructSchema['fields'] = [
  u64('networkId'),
  u32('creationSlot'),
  list(
    'contextInputs',
    { k: 'union', family: CONTEXT_INPUT },
    {
      prefix: 2,
      min: 0,
      max: 128,
      omitEmpty: true,
      order: contextInputOrder,
      orderName: 'sorted by type and key, unique',
    },
  ),
  list('inputs', { k: 'union', family: INPUT }, { prefix: 2, min: 1, max: 128 }),
  list(
    'allotments',
    { k: 'struct', schema: ALLOTMENT },
    {
      prefix: 2,
      min: 0,
      max: 128,
      omitEmpty: true,
      order: byField('accountId'),
      orderName: 'sorted by account ID, unique',
    },
  ),
  bytes('capabilities', 1, 0, 1, true),
  payload('payload', PAYLOAD, [C.PAYLOAD_TAGGED_DATA]),
];
export const OUTPUTS_FIELD = list('outputs', { k: 'union', family: OUTPUT }, { prefix: 2, min: 1, max: 128 });

/** No two outputs may continue the same chain: non-zero account / anchor / NFT IDs and foundry IDs are unique. */
const chainUniqueness: Check = (v) => {
  const seen = new Set<string>();
  const outputs = v.outputs as Obj[];
  for (let i = 0; i < outputs.length; i++) {
    const o = outputs[i]!;
    let key: string | undefined;
    const id = (o.accountId ?? o.anchorId ?? o.nftId) as Uint8Array | undefined;
    if (o.type !== C.OUTPUT_DELEGATION && id && !id.every((b) => b === 0)) key = `${String(o.type)}:${toHex0x(id)}`;
    if (o.type === C.OUTPUT_FOUNDRY) {
      const account = ((o.unlockConditions as Obj[])[0]!.address as Obj).accountId as Uint8Array;
      key = `3:${toHex0x(account)}:${String(o.serialNumber)}:${String((o.tokenScheme as Obj).type)}`;
    }
    if (key === undefined) continue;
    if (seen.has(key))
      return bad('DUPLICATE', `output ${i} continues the same chain as an earlier output`, `outputs[${i}]`);
    seen.add(key);
  }
  return undefined;
};

export const TRANSACTION: StructSchema = {
  name: 'transaction',
  fields: [...ESSENCE_FIELDS, OUTPUTS_FIELD],
  checks: [
    noTrailingZero('capabilities'),
    chainUniqueness,
    (v) => {
      const inputs = v.inputs as Obj[];
      const dup = findDuplicate(inputs.map((i) => concatInput(i)));
      return dup >= 0
        ? bad('DUPLICATE', `input ${dup} spends the same output as an earlier input`, `inputs[${dup}]`)
        : undefined;
    },
    (v) => {
      const ctx = v.contextInputs as Obj[];
      const needsCommitment = ctx.some((c) => c.type !== C.CONTEXT_INPUT_COMMITMENT);
      if (needsCommitment && !ctx.some((c) => c.type === C.CONTEXT_INPUT_COMMITMENT)) {
        return bad(
          'MISSING_FIELD',
          'a commitment input is required when BIC or reward inputs are present',
          'contextInputs',
        );
      }
      const n = (v.inputs as unknown[]).length;
      for (let i = 0; i < ctx.length; i++) {
        const c = ctx[i]!;
        if (c.type === C.CONTEXT_INPUT_REWARD && (c.index as number) >= n) {
          return bad(
            'VALUE_OUT_OF_RANGE',
            `reward input index ${String(c.index)} is not below the input count ${n}`,
            `contextInputs[${i}].index`,
          );
        }
      }
      return undefined;
    },
  ],
};

function concatInput(i: Obj): Uint8Array {
  const id = i.transactionId as Uint8Array;
  const out = new Uint8Array(id.length + 2);
  out.set(id);
  out[id.length] = (i.transactionOutputIndex as number) & 0xff;
  out[id.length + 1] = (i.transactionOutputIndex as number) >> 8;
  return out;
}

/**
 * Unlock rules that need the position (iota.go SignaturesUniqueAndReferenceUnlocksValidator): one unlock per input;
 * signature unlocks unique by public key, also against signatures inside earlier multi unlocks; a referential unlock
 * (reference / account / anchor / NFT) points to an earlier signature or multi unlock, or to an earlier referential
 * unlock when it is itself chainable (account / anchor / NFT); multi unlocks are unique; inside a multi unlock a
 * signature may not repeat an outer one and a referential unlock may only point to an outer signature unlock (or
 * chain through an outer referential one).
 */
const unlockRules: Check = (v) => {
  const tx = v.transaction as Obj;
  const unlocks = v.unlocks as Obj[];
  const inputs = (tx.inputs as unknown[]).length;
  if (unlocks.length !== inputs)
    return bad('COUNT_OUT_OF_RANGE', `${unlocks.length} unlocks for ${inputs} inputs`, 'unlocks');
  const signatures = new Map<string, number>(); // public key -> index of a top-level signature unlock
  const innerSignatures = new Map<string, number>(); // public key -> index of the multi unlock holding it
  const multis = new Map<string, number>(); // serialized multi unlock -> index
  const kindAt: ('signature' | 'multi' | 'referential')[] = [];
  const keyOf = (u: Obj) => toHex0x((u.signature as Obj).publicKey as Uint8Array);
  const chainable = (t: unknown) => t === C.UNLOCK_ACCOUNT || t === C.UNLOCK_ANCHOR || t === C.UNLOCK_NFT;
  const referenceProblem = (u: Obj, where: string, inner: boolean): CheckFailure | undefined => {
    const ref = u.reference as number;
    const target = kindAt[ref];
    if (target === 'referential') {
      return chainable(u.type)
        ? undefined
        : bad(
            'INVALID_UNLOCK',
            `${where} references the referential unlock ${ref} but cannot chain`,
            `${where}.reference`,
          );
    }
    if (target === 'signature' || (target === 'multi' && !inner)) return undefined;
    return bad(
      'INVALID_UNLOCK',
      `${where} references ${ref}, which is not an earlier ${inner ? 'signature' : 'signature or multi'} unlock`,
      `${where}.reference`,
    );
  };
  for (let i = 0; i < unlocks.length; i++) {
    const u = unlocks[i]!;
    const where = `unlocks[${i}]`;
    if (u.type === C.UNLOCK_SIGNATURE) {
      const k = keyOf(u);
      const seen = signatures.get(k) ?? innerSignatures.get(k);
      if (seen !== undefined)
        return bad('DUPLICATE', `signature unlock ${i} repeats the public key of unlock ${seen}`, where);
      signatures.set(k, i);
      kindAt[i] = 'signature';
    } else if (u.type === C.UNLOCK_MULTI) {
      const bytes = toHex0x(encodeKind({ k: 'union', family: UNLOCK }, u, where));
      const seen = multis.get(bytes);
      if (seen !== undefined) return bad('DUPLICATE', `multi unlock ${i} repeats multi unlock ${seen}`, where);
      const inner = u.unlocks as Obj[];
      for (let j = 0; j < inner.length; j++) {
        const s = inner[j]!;
        if (s.type === C.UNLOCK_SIGNATURE) {
          const k = keyOf(s);
          const outer = signatures.get(k);
          if (outer !== undefined)
            return bad(
              'DUPLICATE',
              `signature ${i}.${j} repeats the public key of unlock ${outer}`,
              `${where}.unlocks[${j}]`,
            );
          innerSignatures.set(k, i);
        } else if (s.type !== C.UNLOCK_EMPTY) {
          const p = referenceProblem(s, `${where}.unlocks[${j}]`, true);
          if (p) return p;
        }
      }
      multis.set(bytes, i);
      kindAt[i] = 'multi';
    } else {
      const p = referenceProblem(u, where, false);
      if (p) return p;
      kindAt[i] = 'referential';
    }
  }
  return undefined;
};

member(PAYLOAD, C.PAYLOAD_TAGGED_DATA, 'tagged data payload', [
  bytes('tag', 1, 0, 64, true),
  bytes('data', 4, 0, 8192, true),
]);
member(
  PAYLOAD,
  C.PAYLOAD_SIGNED_TRANSACTION,
  'signed transaction payload',
  [
    struct('transaction', TRANSACTION),
    list('unlocks', { k: 'union', family: UNLOCK, allowed: [0, 1, 2, 3, 4, 5] }, { prefix: 2, min: 1, max: 128 }),
  ],
  [unlockRules],
);
member(PAYLOAD, C.PAYLOAD_CANDIDACY_ANNOUNCEMENT, 'candidacy announcement payload', []);

// ---------------------------------------------------------------------------------------------------------------
// block (§V3)

export const HEADER: StructSchema = {
  name: 'block header',
  fields: [
    u8('protocolVersion'),
    u64('networkId'),
    u64('issuingTime'),
    fixed('slotCommitmentId', 36),
    u32('latestFinalizedSlot'),
    fixed('issuerId', 32),
  ],
};

const parents = (name: string, min: number, max: number) =>
  list(
    name,
    { k: 'fixed', size: C.BLOCK_ID_LENGTH },
    { prefix: 1, min, max, omitEmpty: min === 0, order: byBytes, orderName: 'sorted ascending, unique' },
  );

/** A block body's strong (at least one), weak and shallow-like parents, at most `max` of each. */
const bodyParents = (max: number) => [
  parents('strongParents', 1, max),
  parents('weakParents', 0, max),
  parents('shallowLikeParents', 0, max),
];

const disjointParents: Check = (v) => {
  const weak = v.weakParents as Uint8Array[];
  const others = [...(v.strongParents as Uint8Array[]), ...(v.shallowLikeParents as Uint8Array[])];
  for (let i = 0; i < weak.length; i++) {
    if (others.some((p) => equalBytes(p, weak[i]!)))
      return bad('DUPLICATE', `weak parent ${i} is also a strong or shallow-like parent`, `weakParents[${i}]`);
  }
  return undefined;
};

export const BODY = family('block body');
member(
  BODY,
  C.BODY_BASIC,
  'basic block body',
  [...bodyParents(8), payload('payload', PAYLOAD, [0, 1, 2]), u64('maxBurnedMana')],
  [disjointParents],
);
member(
  BODY,
  C.BODY_VALIDATION,
  'validation block body',
  [...bodyParents(50), u8('highestSupportedVersion'), fixed('protocolParametersHash', 32)],
  [disjointParents],
);

export const BLOCK: StructSchema = {
  name: 'block',
  fields: [struct('header', HEADER), union('body', BODY), union('signature', SIGNATURE)],
  checks: [
    (v) => {
      const body = v.body as Obj;
      const version = (v.header as Obj).protocolVersion as number;
      return body.type === C.BODY_VALIDATION && (body.highestSupportedVersion as number) < version
        ? bad(
            'VALUE_OUT_OF_RANGE',
            `highestSupportedVersion ${String(body.highestSupportedVersion)} is below the protocol version ${version}`,
            'body.highestSupportedVersion',
          )
        : undefined;
    },
  ],
};

// ---------------------------------------------------------------------------------------------------------------
// slot commitment (§V7.4) and output ID proof (§V7.8)

export const SLOT_COMMITMENT: StructSchema = {
  name: 'slot commitment',
  fields: [
    u8('protocolVersion'),
    u32('slot'),
    fixed('previousCommitmentId', 36),
    fixed('rootsId', 32),
    u64('cumulativeWeight'),
    u64('referenceManaCost'),
  ],
};

export const PROOF_NODE = family('output commitment proof node');
member(PROOF_NODE, 0, 'hashable node', [union('l', PROOF_NODE), union('r', PROOF_NODE)]);
member(PROOF_NODE, 1, 'leaf hash', [bytes('hash', 1, 32, 32)]);
member(PROOF_NODE, 2, 'value hash', [bytes('hash', 1, 32, 32)]);

export const OUTPUT_ID_PROOF: StructSchema = {
  name: 'output ID proof',
  fields: [
    u32('slot'),
    u16('outputIndex'),
    fixed('transactionCommitment', 32),
    union('outputCommitmentProof', PROOF_NODE),
  ],
};

// Handy kinds for the public API.
export const kinds = {
  block: { k: 'struct', schema: BLOCK } as Kind,
  header: { k: 'struct', schema: HEADER } as Kind,
  body: { k: 'union', family: BODY } as Kind,
  signature: { k: 'union', family: SIGNATURE } as Kind,
  payload: { k: 'union', family: PAYLOAD } as Kind,
  signedTransaction: { k: 'union', family: PAYLOAD, allowed: [C.PAYLOAD_SIGNED_TRANSACTION] } as Kind,
  transaction: { k: 'struct', schema: TRANSACTION } as Kind,
  unlocks: {
    k: 'list',
    prefix: 2,
    min: 1,
    max: 128,
    item: { k: 'union', family: UNLOCK, allowed: [0, 1, 2, 3, 4, 5] },
  } as Kind,
  output: { k: 'union', family: OUTPUT } as Kind,
  address: { k: 'union', family: ADDRESS } as Kind,
  unlock: { k: 'union', family: UNLOCK } as Kind,
  slotCommitment: { k: 'struct', schema: SLOT_COMMITMENT } as Kind,
  outputIdProof: { k: 'struct', schema: OUTPUT_ID_PROOF } as Kind,
};
