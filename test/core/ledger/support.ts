/**
 * A small coordinator and wallet for ledger tests (and the ledger benchmark): real Ed25519 keys, signed transfers,
 * blocks stored raw, and milestones whose Merkle roots the coordinator computes the way a coordinator does (walk the
 * cone and apply it against the current ledger), then signs.
 */
import { compareBytes, toHex } from '../../../src/core/bytes.ts';
import { encodeBlock } from '../../../src/core/codec/index.ts';
import {
  blake2b256,
  ed25519AddressFromPublicKey,
  ed25519PublicKeyFromSeed,
  ed25519Sign,
} from '../../../src/core/crypto/index.ts';
import {
  blockId,
  essenceHash,
  inputsCommitmentOf,
  milestoneIdOf,
  networkIdFromName,
  outputId,
  transactionIdOf,
} from '../../../src/core/ids/index.ts';
import type { MilestoneKeyRange } from '../../../src/core/ids/index.ts';
import {
  applyWhiteFlag,
  initLedger,
  LedgerState,
  StoreBlockSource,
  validateTransactionSemantics,
  walkCone,
  type GenesisOutput,
} from '../../../src/core/ledger/index.ts';
import type {
  BasicOutput,
  Block,
  BlockPayload,
  CommonOutput,
  Ed25519Address,
  MilestoneOption,
  MilestonePayload,
  TransactionPayload,
  Unlock,
} from '../../../src/core/model/index.ts';
import { SHIMMER_PROTOCOL } from '../../../src/core/model/index.ts';
import { META, NodeStore, type KeyValueStore } from '../../../src/core/store/index.ts';

export const PROTOCOL = SHIMMER_PROTOCOL;
export const NETWORK_ID = networkIdFromName(PROTOCOL.networkName);
export const GENESIS_INDEX = 10;
export const GENESIS_TIMESTAMP = 1_700_000_000;
export const GENESIS_MILESTONE_ID = blake2b256(new TextEncoder().encode('genesis milestone'));
export const ENTRY_POINT = blake2b256(new TextEncoder().encode('solid entry point'));

/** A deterministic 32-byte value from a label. */
export function bytes32(label: string): Uint8Array {
  return blake2b256(new TextEncoder().encode(label));
}

export class Wallet {
  readonly seed: Uint8Array;
  readonly publicKey: Uint8Array;
  readonly address: Ed25519Address;

  constructor(label: string) {
    this.seed = bytes32(`wallet ${label}`);
    this.publicKey = ed25519PublicKeyFromSeed(this.seed);
    this.address = ed25519AddressFromPublicKey(this.publicKey);
  }
}

export function basicOutput(amount: bigint, address: Ed25519Address): BasicOutput {
  return { type: 3, amount, nativeTokens: [], unlockConditions: [{ type: 0, address }], features: [] };
}

export interface Spendable {
  outputId: Uint8Array;
  output: CommonOutput;
}

/** A transaction of `owner` spending `inputs` (all owned by it) into `outputs`, signed. */
export function transfer(owner: Wallet, inputs: readonly Spendable[], outputs: CommonOutput[]): TransactionPayload {
  const essence = {
    type: 1 as const,
    networkId: NETWORK_ID,
    inputs: inputs.map((i) => ({
      type: 0 as const,
      transactionId: i.outputId.slice(0, 32),
      transactionOutputIndex: i.outputId[32]! | (i.outputId[33]! << 8),
    })),
    inputsCommitment: inputsCommitmentOf(inputs.map((i) => i.output)),
    outputs,
  };
  const signature = ed25519Sign(owner.seed, essenceHash(essence));
  const unlocks: Unlock[] = inputs.map((_, i) =>
    i === 0 ? { type: 0, signature: { type: 0, publicKey: owner.publicKey, signature } } : { type: 1, reference: 0 },
  );
  return { type: 6, essence, unlocks };
}

/** The outputs a transaction creates, as spendable inputs. */
export function outputsOf(tx: TransactionPayload): Spendable[] {
  const id = transactionIdOf(tx);
  return tx.essence.outputs.map((output, i) => ({ outputId: outputId(id, i), output }));
}

export interface BuiltBlock {
  id: Uint8Array;
  bytes: Uint8Array;
  block: Block;
}

export function makeBlock(parents: readonly Uint8Array[], payload?: BlockPayload, nonce = 0n): BuiltBlock {
  const sorted = [...parents].sort(compareBytes).filter((p, i, all) => i === 0 || compareBytes(all[i - 1]!, p) !== 0);
  const block: Block = { protocolVersion: 2, parents: sorted, nonce };
  if (payload !== undefined) block.payload = payload;
  const bytes = encodeBlock(block);
  return { id: blockId(bytes), bytes, block };
}

export class Coordinator {
  readonly seeds: Uint8Array[];
  readonly keyRanges: MilestoneKeyRange[];
  readonly threshold: number;

  constructor(keys = 3, threshold = 2) {
    this.seeds = Array.from({ length: keys }, (_, i) => bytes32(`coordinator key ${i}`));
    this.keyRanges = this.seeds.map((s) => ({ publicKey: ed25519PublicKeyFromSeed(s), start: 0, end: 0 }));
    this.threshold = threshold;
  }

  /** Signs with the first `signers` keys (default: all), signatures sorted by public key. */
  sign(
    ms: Omit<MilestonePayload, 'signatures'>,
    signers = this.seeds.length,
    seeds: Uint8Array[] = this.seeds,
  ): MilestonePayload {
    const unsigned: MilestonePayload = { ...ms, signatures: [] };
    const id = milestoneIdOf(unsigned);
    const signatures = seeds
      .slice(0, signers)
      .map((seed) => ({
        type: 0 as const,
        publicKey: ed25519PublicKeyFromSeed(seed),
        signature: ed25519Sign(seed, id),
      }))
      .sort((a, b) => compareBytes(a.publicKey, b.publicKey));
    return { ...unsigned, signatures };
  }
}

export interface MilestoneDraft {
  index: number;
  timestamp: number;
  previousMilestoneId: Uint8Array;
  parents: Uint8Array[];
  options?: MilestoneOption[];
}

/** A test network: a store with a genesis ledger, a wallet owning the genesis outputs, and a coordinator. */
export class TestNetwork {
  readonly store: NodeStore;
  readonly coordinator: Coordinator;
  readonly genesisOutputs: Spendable[];
  lastMilestoneId: Uint8Array = GENESIS_MILESTONE_ID;
  lastIndex = GENESIS_INDEX;
  lastTimestamp = GENESIS_TIMESTAMP;
  /** The most recent block added (parent of the next one by default). */
  tip: Uint8Array = ENTRY_POINT;

  private constructor(store: NodeStore, coordinator: Coordinator, genesisOutputs: Spendable[]) {
    this.store = store;
    this.coordinator = coordinator;
    this.genesisOutputs = genesisOutputs;
  }

  static async create(
    kv: KeyValueStore,
    owners: { wallet: Wallet; amount: bigint }[],
    opts: { coordinator?: Coordinator; treasury?: bigint } = {},
  ): Promise<TestNetwork> {
    const store = await NodeStore.open(kv, { networkName: PROTOCOL.networkName });
    const coordinator = opts.coordinator ?? new Coordinator();
    const genesisTx = bytes32('genesis outputs');
    const unspent: GenesisOutput[] = owners.map((o, i) => ({
      outputId: outputId(genesisTx, i % 128).slice(),
      blockId: new Uint8Array(32),
      milestoneIndexBooked: GENESIS_INDEX,
      milestoneTimestampBooked: GENESIS_TIMESTAMP,
      output: basicOutput(o.amount, o.wallet.address),
    }));
    // More than 128 owners: vary the transaction ID too.
    unspent.forEach((u, i) => {
      if (i >= 128) u.outputId = outputId(bytes32(`genesis outputs ${Math.floor(i / 128)}`), i % 128);
    });
    await initLedger(store, {
      protocolParameters: PROTOCOL,
      milestone: { index: GENESIS_INDEX, timestamp: GENESIS_TIMESTAMP, milestoneId: GENESIS_MILESTONE_ID },
      milestoneKeyRanges: coordinator.keyRanges,
      milestonePublicKeyCount: coordinator.threshold,
      solidEntryPoints: [ENTRY_POINT],
      unspentOutputs: unspent,
      ...(opts.treasury !== undefined
        ? { treasury: { milestoneId: GENESIS_MILESTONE_ID, amount: opts.treasury } }
        : {}),
    });
    return new TestNetwork(
      store,
      coordinator,
      unspent.map((u) => ({ outputId: u.outputId, output: u.output })),
    );
  }

  /** Stores a block (default parent: the previous block) and makes it the tip. */
  async add(payload?: BlockPayload, parents: Uint8Array[] = [this.tip]): Promise<BuiltBlock> {
    const built = makeBlock(parents, payload, payload === undefined ? 1n : 0n);
    await this.store
      .batch()
      .addBlock({
        blockId: built.id,
        bytes: built.bytes,
        parents: built.block.parents,
        metadata: { protocolVersion: 2, solid: true, arrivalTime: 1 },
        ...(payload?.type === 6 ? { transactionId: transactionIdOf(payload) } : {}),
      })
      .commit({ sync: false });
    this.tip = built.id;
    return built;
  }

  /** The next milestone's draft: index + 1, timestamp + 1, chained to the last milestone, parents = the tip. */
  draft(parents: Uint8Array[] = [this.tip]): MilestoneDraft {
    return {
      index: this.lastIndex + 1,
      timestamp: this.lastTimestamp + 1,
      previousMilestoneId: this.lastMilestoneId,
      parents: [...parents].sort(compareBytes),
    };
  }

  /** What the coordinator would sign for `draft`: both roots from walking and applying the cone. */
  async roots(draft: MilestoneDraft): Promise<{ inclusionMerkleRoot: Uint8Array; appliedMerkleRoot: Uint8Array }> {
    const ledger = new LedgerState(this.store);
    const cone = await walkCone(draft.parents, await StoreBlockSource.open(this.store), draft.index);
    const protocol = (await ledger.protocolParameters(draft.index))!;
    const wf = await applyWhiteFlag(cone, ledger, {
      milestoneIndex: draft.index,
      milestoneTimestamp: draft.timestamp,
      protocol,
      validate: validateTransactionSemantics,
    });
    return { inclusionMerkleRoot: wf.inclusionMerkleRoot, appliedMerkleRoot: wf.appliedMerkleRoot };
  }

  /**
   * A signed milestone payload for `draft` (roots computed unless given) in a nonce-0 block, stored as a node stores
   * arriving blocks.
   */
  async milestone(
    draft: MilestoneDraft = this.draft(),
    opts: {
      roots?: { inclusionMerkleRoot: Uint8Array; appliedMerkleRoot: Uint8Array };
      signers?: number;
      seeds?: Uint8Array[];
    } = {},
  ): Promise<BuiltBlock> {
    const roots = opts.roots ?? (await this.roots(draft));
    const ms = this.coordinator.sign(
      { type: 7, protocolVersion: 2, metadata: new Uint8Array(0), options: draft.options ?? [], ...draft, ...roots },
      opts.signers,
      opts.seeds,
    );
    const built = makeBlock(draft.parents, ms, 0n);
    await this.store
      .batch()
      .addBlock({
        blockId: built.id,
        bytes: built.bytes,
        parents: built.block.parents,
        metadata: { protocolVersion: 2, solid: true, arrivalTime: 1 },
      })
      .commit({ sync: false });
    return built;
  }

  /** Records `ms` as the last milestone (after a successful confirmation) and makes its block the tip. */
  accept(ms: BuiltBlock): void {
    const payload = ms.block.payload as MilestonePayload;
    this.lastIndex = payload.index;
    this.lastTimestamp = payload.timestamp;
    this.lastMilestoneId = milestoneIdOf(payload);
    this.tip = ms.id;
  }

  async ledgerIndex(): Promise<number | undefined> {
    return this.store.getMeta(META.ledgerIndex);
  }
}

/** Every key and value of a store, for "nothing was written" checks. */
export async function dump(kv: KeyValueStore): Promise<string[]> {
  const out: string[] = [];
  for await (const [k, v] of kv.entries()) out.push(`${toHex(k)}=${toHex(v)}`);
  return out;
}
