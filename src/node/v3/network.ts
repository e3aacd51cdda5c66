/**
 * The fixed facts of a v3 (IOTA 2.0) network, all derived from its genesis section: the protocol parameters, the
 * network ID, the genesis block and slot commitment, the known block issuers and the committee seats. Every other
 * part of the v3 engine reads them from here.
 */
import { toHex0x } from '../../core/bytes.ts';
import {
  genesisSlotCommitmentV3,
  networkIdFromName,
  protocolParametersHashV3,
  slotCommitmentIdV3,
  type ProtocolParametersV3,
  type SlotCommitmentV3,
} from '../../core/v3/index.ts';
import { committeeThresholdV3 } from '../../core/v3/consensus/committee.ts';
import { genesisBlockIdV3, type GenesisAccountV3, type GenesisV3 } from './genesis-v3.ts';

/** The in-memory map key of a block, transaction, output or account ID (0x hex). */
export const key = (id: Uint8Array): string => toHex0x(id);

export class V3Network {
  readonly genesis: GenesisV3;
  readonly params: ProtocolParametersV3;
  readonly networkId: bigint;
  readonly genesisBlockId: Uint8Array;
  readonly genesisCommitment: SlotCommitmentV3;
  readonly genesisCommitmentId: Uint8Array;
  /** The genesis time in ns: the issuing time the genesis block stands for. */
  readonly genesisTimeNs: bigint;
  /** The committee, in seat order. */
  readonly seats: GenesisAccountV3[];
  /** The hash validation blocks must carry. */
  readonly protocolParametersHash: Uint8Array;
  private readonly accounts = new Map<string, GenesisAccountV3>();

  constructor(genesis: GenesisV3) {
    this.genesis = genesis;
    this.params = genesis.protocolParameters;
    this.networkId = networkIdFromName(this.params.networkName);
    this.genesisBlockId = genesisBlockIdV3(this.params);
    this.genesisCommitment = genesisSlotCommitmentV3(this.params);
    this.genesisCommitmentId = slotCommitmentIdV3(this.genesisCommitment);
    this.genesisTimeNs = BigInt(this.params.genesisUnixTimestamp) * 1_000_000_000n;
    for (const a of genesis.accounts) this.accounts.set(key(a.accountId), a);
    this.seats = genesis.accounts.filter((a) => a.seat);
    this.protocolParametersHash = protocolParametersHashV3(this.params);
  }

  /** A known block issuer, or undefined. */
  account(accountId: Uint8Array): GenesisAccountV3 | undefined {
    return this.accounts.get(key(accountId));
  }

  /** Seats whose validator seed the genesis holds. */
  get validatorSeats(): GenesisAccountV3[] {
    return this.seats.filter((s) => s.validatorSeed !== undefined);
  }

  /** Votes needed for acceptance / confirmation: more than two thirds of the seats. */
  get committeeThreshold(): number {
    return committeeThresholdV3(this.seats.length);
  }
}
