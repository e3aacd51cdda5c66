/**
 * Typings for the ledger reads of iota.js 2.0.0-rc.4's SingleNodeClient (outputs, milestones, receipts, treasury) and
 * its output / milestone payload deserializers, on top of iota-client.d.ts, test/e2e/ledger/iota-ledger.d.ts and
 * test/interop/iota-modules.d.ts (the package's own typings are not reachable under NodeNext resolution).
 */
declare module '@iota/iota.js' {
  import type { ReadStream } from '@iota/util.js';
  export interface IOutputMetadataResponse {
    blockId: string;
    transactionId: string;
    outputIndex: number;
    isSpent: boolean;
    milestoneIndexSpent?: number;
    milestoneTimestampSpent?: number;
    transactionIdSpent?: string;
    milestoneIndexBooked: number;
    milestoneTimestampBooked: number;
    ledgerIndex: number;
  }
  export interface IOutputResponse {
    metadata: IOutputMetadataResponse;
    output: { type: number; amount: string; [key: string]: unknown };
  }
  export interface IMilestonePayload {
    type: 7;
    index: number;
    timestamp: number;
    previousMilestoneId: string;
    parents: string[];
    [key: string]: unknown;
  }
  export interface IMilestoneUtxoChangesResponse {
    index: number;
    createdOutputs: string[];
    consumedOutputs: string[];
  }
  export interface SingleNodeClient {
    output(outputId: string): Promise<IOutputResponse>;
    outputMetadata(outputId: string): Promise<IOutputMetadataResponse>;
    outputRaw(outputId: string): Promise<Uint8Array>;
    milestoneByIndex(index: number): Promise<IMilestonePayload>;
    milestoneByIndexRaw(index: number): Promise<Uint8Array>;
    milestoneById(milestoneId: string): Promise<IMilestonePayload>;
    milestoneByIdRaw(milestoneId: string): Promise<Uint8Array>;
    milestoneUtxoChangesByIndex(index: number): Promise<IMilestoneUtxoChangesResponse>;
    milestoneUtxoChangesById(milestoneId: string): Promise<IMilestoneUtxoChangesResponse>;
    receipts(migratedAt?: number): Promise<{ receipts: { receipt: unknown; milestoneIndex: number }[] }>;
    treasury(): Promise<{ milestoneId: string; amount: string }>;
  }
  export function deserializeOutput(readStream: ReadStream): { type: number; amount: string; [key: string]: unknown };
  export function deserializeMilestonePayload(readStream: ReadStream): IMilestonePayload;
}
