import { MemoryKeyValueStore } from '../../../src/core/store/memory.ts';
import { storeContract } from './contract.ts';

storeContract('in-memory', () => ({ open: async () => new MemoryKeyValueStore(), persistent: false }));
// Tiny chunks: every range, snapshot and delete crosses chunk boundaries (splits, emptied chunks).
storeContract('in-memory, chunks of 2', () => ({
  open: async () => new MemoryKeyValueStore({ chunkSize: 2 }),
  persistent: false,
}));
