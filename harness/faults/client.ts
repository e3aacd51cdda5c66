/**
 * The fault suite's REST client (harness/crash/load.ts `request`: plain fetch with a timeout, status 0 when no answer
 * came): block submissions as JSON with no parents and no nonce (the node selects tips and does the proof of work),
 * `/info`, block metadata and the milestone reads the checker compares.
 */
import { request, type Result } from '../crash/load.ts';

export const V2 = '/api/core/v2';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const JSON_ACCEPT = { accept: 'application/json' };

/** A GET answered in JSON: the status (0: no answer within `timeoutMs`) and the body. */
export async function getJson(base: string, path: string, timeoutMs = 5000): Promise<{ status: number; body: Json }> {
  const r = await request({ base }, `${V2}${path}`, { headers: JSON_ACCEPT, timeoutMs });
  return { status: r.status, body: r.body };
}

/** Submits a block carrying `payload` (TIP-25 JSON); a 201 carries the block ID. */
export async function postBlock(
  base: string,
  payload: Json,
  timeoutMs = 15000,
): Promise<Result & { blockId?: string }> {
  const r = await request({ base }, `${V2}/blocks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...JSON_ACCEPT },
    body: JSON.stringify({ protocolVersion: 2, payload }),
    timeoutMs,
  });
  const id = (r.body as { blockId?: unknown } | undefined)?.blockId;
  return r.status === 201 && typeof id === 'string' ? { ...r, blockId: id } : r;
}

export interface MilestoneView {
  latest: number;
  confirmed: number;
  healthy: boolean;
}

/** The milestone indexes `/info` reports, or undefined without an answer. */
export async function milestones(base: string, timeoutMs = 2000): Promise<MilestoneView | undefined> {
  const r = await getJson(base, '/info', timeoutMs);
  if (r.status !== 200) return undefined;
  const s = r.body.status;
  return { latest: s.latestMilestone.index, confirmed: s.confirmedMilestone.index, healthy: s.isHealthy === true };
}

/** A hex string of `bytes` random bytes. */
export const randomHex = (bytes: number): string =>
  `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString('hex')}`;
