/**
 * Helpers of the explorer e2e tests: GETs of a node's REST routes, every page of an explorer route (following
 * cursors), the owner of an output as the core API shows it, and a milestone's cone found from the core API alone
 * (the blocks whose metadata names the milestone, walked from its parents).
 */
import { expect } from 'chai';
import { fromHex0x } from '../../../src/core/bytes.ts';
import { bech32EncodeAddress } from '../../../src/core/ids/index.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A REST client of one node: `get('/api/...')` answers the status and the parsed body. */
export function restOf(origin: string): (path: string) => Promise<{ status: number; body: Json }> {
  return async (path) => {
    const res = await fetch(`${origin}${path}`, { headers: { accept: 'application/json' } });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  };
}

type Get = ReturnType<typeof restOf>;

/** Every item of an explorer list route, following `cursor` (`key` names the list: items or blocks). */
export async function explorerPages(
  get: Get,
  path: string,
  params: Record<string, string>,
  key = 'items',
): Promise<{ items: Json[]; pages: number }> {
  const items: Json[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const query = new URLSearchParams({ ...params, ...(cursor !== null ? { cursor } : {}) });
    const r = await get(`/api/explorer/v2${path}?${query}`);
    expect(r.status, `${path}?${query}: ${JSON.stringify(r.body)}`).to.equal(200);
    expect(r.body).to.have.property('cursor');
    items.push(...r.body[key]);
    cursor = r.body.cursor;
    if (++pages > 10_000) throw new Error('too many pages');
  } while (cursor !== null);
  return { items, pages };
}

/** The bech32 owner of an output in TIP-25 JSON (basic outputs: the Address unlock condition). */
export function ownerOf(output: Json, hrp: string): string {
  const uc = output.unlockConditions.find((u: Json) => u.type === 0);
  return bech32EncodeAddress(hrp, { type: 0, pubKeyHash: fromHex0x(uc.address.pubKeyHash) });
}

/**
 * The blocks milestone `index` referenced, from the core API: a walk from the milestone's parents through the blocks
 * whose metadata says `referencedByMilestoneIndex` is `index` (the others end the walk).
 */
export async function coneOf(get: Get, index: number): Promise<Map<string, Json>> {
  const ms = await get(`/api/core/v2/milestones/by-index/${index}`);
  expect(ms.status).to.equal(200);
  const cone = new Map<string, Json>();
  const seen = new Set<string>();
  let frontier: string[] = ms.body.parents;
  while (frontier.length > 0) {
    const next: string[] = [];
    for (const id of frontier) {
      if (seen.has(id)) continue;
      seen.add(id);
      const md = await get(`/api/core/v2/blocks/${id}/metadata`);
      if (md.status !== 200 || md.body.referencedByMilestoneIndex !== index) continue;
      cone.set(id, md.body);
      next.push(...md.body.parents);
    }
    frontier = next;
  }
  return cone;
}
