/**
 * The running node (harness/node.ts startConfiguredNode: memory store, in-process REST gateway, no proof of work)
 * under mutated block submissions and malformed HTTP: every answer is 2xx or 4xx with the JSON error body, never 5xx,
 * and a GET of a known block still works after each batch. A failure names the target and seed (replay with
 * scripts/fuzz.ts).
 */
import { expect } from 'chai';
import { CollectingLogger, type ConfiguredNode, startConfiguredNode } from '../../harness/node.ts';
import { loadTargets } from '../../harness/fuzz/targets.ts';
import { blockCase, rawHttpCases, seeds, sendCase, sendRaw, servesPost } from '../../harness/fuzz/http.ts';

const CASES_PER_TARGET = 120;
const MASTER_SEED = Number(process.env.FUZZ_SEED ?? 20261121);

describe('fuzz: the running node answers mutated submissions with 2xx/4xx, never 5xx', function () {
  this.timeout(120_000);
  let harness: ConfiguredNode;
  let base: string;
  let knownBlock: string;
  let logger: CollectingLogger;
  const statuses = new Map<number, number>();

  before(async () => {
    logger = new CollectingLogger();
    harness = await startConfiguredNode({ minPowScore: 0, powWorkers: 0 }, { logger, store: 'memory' });
    base = harness.rest;
    const res = await fetch(`${base}/api/core/v2/blocks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ protocolVersion: 2, payload: { type: 5, tag: '0x66757a7a', data: '0x01' } }),
    });
    expect(res.status).to.equal(201);
    knownBlock = ((await res.json()) as { blockId: string }).blockId;
  });
  after(async () => {
    await harness.stop();
  });

  async function stillServes(): Promise<void> {
    const res = await fetch(`${base}/api/core/v2/blocks/${knownBlock}`);
    expect(res.status, 'GET of a known block after the batch').to.equal(200);
    expect(((await res.json()) as { payload: { tag: string } }).payload.tag).to.equal('0x66757a7a');
  }

  const targets = loadTargets().filter((t) =>
    ['v2 decodeBlock', 'v2 blockFromJson (submission)', 'v3 decodeBlockV3', 'v3 blockFromJsonV3'].includes(t.name),
  );

  for (const target of targets) {
    it(`${target.name}: ${CASES_PER_TARGET} mutated blocks POSTed`, async function () {
      if (target.name.startsWith('v3')) {
        const type = target.input === 'bytes' ? 'application/vnd.iota.serializer-v2' : 'application/json';
        if (!(await servesPost(base, '/api/core/v3/blocks', type))) this.skip(); // no v3 submission route (yet)
      }
      const failures: string[] = [];
      for (const seed of seeds(MASTER_SEED ^ target.name.length, CASES_PER_TARGET)) {
        const c = blockCase(target, seed);
        const verdict = await sendCase(base, c);
        statuses.set(verdict.status, (statuses.get(verdict.status) ?? 0) + 1);
        if (!verdict.ok) failures.push(`${c.label}: ${verdict.reason}`);
      }
      expect(failures, failures.slice(0, 5).join('\n')).to.deep.equal([]);
      await stillServes();
    });
  }

  it('malformed HTTP requests get a 4xx (or a closed connection for unparseable ones), never 5xx', async () => {
    const port = harness.node.restPort!;
    const seen: string[] = [];
    for (const c of rawHttpCases(`127.0.0.1:${port}`)) {
      const { status } = await sendRaw(port, c.raw, 5000, c.halfClose === true);
      seen.push(`${c.label}: ${status}`);
      expect(status === 0 || (status >= 400 && status < 500), `${c.label} -> ${status}`).to.equal(true);
    }
    if (process.env.FUZZ_VERBOSE) console.log(seen.join('\n'));
    // the ones the gateway itself answers (HTTP parsed fine, content wrong) are 4xx, not a dropped connection
    for (const label of [
      'invalid UTF-8 in a JSON body',
      'junk media type',
      'no media type',
      'empty binary body',
      'JSON null',
    ]) {
      expect(
        seen.find((s) => s.startsWith(`${label}:`)),
        label,
      ).to.match(/: 4\d\d$/);
    }
    await stillServes();
  });

  it('logged no unexpected gateway errors (a bare 500 would have been logged)', () => {
    expect(logger.lines.filter((l) => l.startsWith('ERROR'))).to.deep.equal([]);
    expect([...statuses.keys()].filter((s) => s >= 500)).to.deep.equal([]);
    expect(statuses.get(400) ?? 0).to.be.greaterThan(0);
  });
});
