/**
 * The storage contract: every KeyValueStore adapter (in-memory, LevelDB, ...) must pass this suite, and so must
 * NodeStore on top of it. Call `storeContract('name', makeHarness)` from a *.test.ts file.
 */
import { keyValueStoreContract } from './contract-kv.ts';
import { nodeStoreContract } from './contract-node-store.ts';
import { StoreUnderTest, type StoreHarness } from './contract-support.ts';

export type { StoreHarness } from './contract-support.ts';

export function storeContract(name: string, makeHarness: () => StoreHarness): void {
  describe(`storage contract: ${name}`, () => {
    const ctx = new StoreUnderTest();

    beforeEach(async () => {
      ctx.harness = makeHarness();
      ctx.kv = await ctx.harness.open();
    });
    afterEach(async () => {
      await ctx.kv.close();
      await ctx.harness.cleanup?.();
    });

    keyValueStoreContract(ctx);
    nodeStoreContract(ctx);
  });
}
