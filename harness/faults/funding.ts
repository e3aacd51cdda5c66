/**
 * The fault suite's coins, made before the first fault: the dev wallet's genesis output split, by transfers of the
 * reference client (wallet.ts), into one coin per transfer lane and a pool of 1 Mi coins for the double spends; each
 * split is submitted to the coordinator and included on every node before the next spends its change.
 */
import { waitFor } from '../wait.ts';
import type { Cluster } from './cluster.ts';
import { getJson, postBlock } from './client.ts';
import { randomSeed, Wallet, type Coin } from './wallet.ts';

/** Outputs of one transaction at most (TIP-20), the change included. */
const MAX_OUTPUTS = 128;
const LANE_AMOUNT = 1_000_000_000_000n;
const POOL_AMOUNT = 1_000_000n;

export async function fund(
  cluster: Cluster,
  wallet: Wallet,
  lanes: number,
  pool: number,
  timeoutMs = 60000,
): Promise<{ lanes: Coin[]; pool: Coin[] }> {
  let change = Wallet.genesisCoin(cluster.genesis);
  const laneCoins: Coin[] = [];
  const poolCoins: Coin[] = [];
  while (laneCoins.length < lanes || poolCoins.length < pool) {
    const wantLanes = lanes - laneCoins.length;
    const room = MAX_OUTPUTS - 1 - wantLanes;
    const wantPool = Math.min(pool - poolCoins.length, room);
    const to = [
      ...Array.from({ length: wantLanes }, () => ({ seed: randomSeed(), amount: LANE_AMOUNT })),
      ...Array.from({ length: wantPool }, () => ({ seed: randomSeed(), amount: POOL_AMOUNT })),
    ];
    const t = wallet.transfer(change, to);
    const coordinator = cluster.coordinator;
    await waitFor(
      `the coordinator taking the split ${t.txId}`,
      async () => ((await postBlock(coordinator.base, t.payload)).blockId ? true : undefined),
      timeoutMs,
      250,
    );
    for (const n of cluster.nodes)
      await waitFor(
        `${n.name} including the split ${t.txId}`,
        async () =>
          (await getJson(n.base, `/transactions/${t.txId}/included-block/metadata`)).status === 200 ? true : undefined,
        timeoutMs,
        100,
      );
    laneCoins.push(...t.created.slice(0, wantLanes));
    poolCoins.push(...t.created.slice(wantLanes, wantLanes + wantPool));
    change = t.created[t.created.length - 1]!;
  }
  return { lanes: laneCoins, pool: poolCoins };
}
