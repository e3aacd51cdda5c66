/**
 * Dependency direction: gateway -> grpc ; node -> grpc, storage, core ; storage -> core ; core -> core + @noble/*,
 * @scure/base ; harness -> src, gateway ; test, scripts, benchmarks -> harness, never scripts or benchmarks -> test.
 * Reads the import specifiers of every source file and checks them against these rules.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

function files(dir: string): string[] {
  const abs = join(root, dir);
  let out: string[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync(abs);
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(abs, e);
    if (statSync(p).isDirectory()) out = out.concat(files(relative(root, p)));
    else if (/\.(ts|js|mjs|cjs)$/.test(e) && !e.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

function imports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const re =
    /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
  const out: string[] = [];
  for (const m of src.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3])!);
  return out;
}

/** The area a resolved relative import lands in (first path segments under the repo). */
function area(file: string, spec: string): string {
  const target = relative(root, resolve(dirname(file), spec));
  const parts = target.split('/');
  return parts[0] === 'src' ? `src/${parts[1]}` : parts[0]!;
}

describe('architecture', () => {
  it('src/core imports only src/core, @noble/*, @scure/base and nothing from the host runtime', () => {
    const bad: string[] = [];
    for (const f of files('src/core')) {
      for (const spec of imports(f)) {
        const ok = spec.startsWith('.')
          ? area(f, spec) === 'src/core'
          : spec.startsWith('@noble/') || spec === '@scure/base';
        if (!ok) bad.push(`${relative(root, f)} imports ${spec}`);
      }
      const src = readFileSync(f, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
      if (/\bBuffer\b|\bprocess\.|\bDeno\./.test(src)) bad.push(`${relative(root, f)} uses a runtime global`);
    }
    expect(bad).to.deep.equal([]);
  });

  it('src/storage depends only on src/core (the storage port) and storage engines', () => {
    const bad: string[] = [];
    for (const f of files('src/storage')) {
      for (const spec of imports(f)) {
        if (spec.startsWith('.') && !['src/core', 'src/storage'].includes(area(f, spec)))
          bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    expect(bad).to.deep.equal([]);
  });

  it('gateway reaches the node only through the gRPC client, never core, storage or node internals', () => {
    const bad: string[] = [];
    for (const f of files('gateway')) {
      for (const spec of imports(f)) {
        if (spec.startsWith('.') && !['gateway', 'src/grpc'].includes(area(f, spec)))
          bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    expect(bad).to.deep.equal([]);
  });

  it('src/node composes grpc, storage and core; only rest.ts hosts the gateway app; none below imports it', () => {
    const bad: string[] = [];
    for (const f of files('src/node')) {
      for (const spec of imports(f)) {
        if (!spec.startsWith('.')) continue;
        const a = area(f, spec);
        if (a === 'gateway' && !f.endsWith('/src/node/rest.ts')) bad.push(`${relative(root, f)} imports ${spec}`);
        else if (
          !['src/node', 'src/core', 'src/storage', 'src/grpc', 'gateway'].includes(a) &&
          !spec.endsWith('package.json')
        )
          bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    for (const dir of ['src/core', 'src/storage', 'src/grpc', 'gateway']) {
      for (const f of files(dir)) {
        for (const spec of imports(f))
          if (spec.startsWith('.') && area(f, spec) === 'src/node') bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    expect(bad).to.deep.equal([]);
  });

  it('src/node: domain folders never import the composition root, and hold no wire types of the node service', () => {
    // The composition root (and the process around it) sits at the top of src/node; the domain folders below it are
    // built by it and see each other only through narrow ports. Only the gRPC adapter (src/node/grpc) speaks the
    // NodeService's messages; the peer layer speaks its own wire protocol (the PeerService).
    // The composition root: these files at the top of src/node and the wire functions of compose/.
    const roots = ['compose.ts', 'node.ts', 'run.ts', 'rest.ts'].map((f) => join(root, 'src/node', f));
    const composeDir = join(root, 'src/node/compose') + '/';
    const bad: string[] = [];
    for (const f of files('src/node')) {
      const folder = relative(join(root, 'src/node'), dirname(f)).split('/')[0]!;
      if (folder === '' || folder === 'compose') continue;
      for (const spec of imports(f)) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(f), spec);
        if (roots.includes(target) || target.startsWith(composeDir))
          bad.push(`${relative(root, f)} imports the composition root ${spec}`);
        const wire = area(f, spec) === 'src/grpc' || relative(join(root, 'src/node'), target).startsWith('grpc/');
        if (wire && folder !== 'grpc' && !(folder === 'peering' && target.endsWith('/src/grpc/gen/peer.ts')))
          bad.push(`${relative(root, f)} imports wire types ${spec}`);
      }
    }
    expect(bad).to.deep.equal([]);
  });

  it('harness imports only src, gateway and itself; scripts and benchmarks never import test/', () => {
    // One way to start a node, shared by tests, scripts and benchmarks, lives outside test/ so that scripts and
    // benchmarks do not reach into the test tree; the shipped code (src, gateway) never depends on it.
    const bad: string[] = [];
    for (const f of files('harness')) {
      for (const spec of imports(f)) {
        if (!spec.startsWith('.')) continue;
        const a = area(f, spec);
        if (!(a.startsWith('src/') || a === 'gateway' || a === 'harness'))
          bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    for (const dir of ['scripts', 'benchmarks']) {
      for (const f of files(dir)) {
        for (const spec of imports(f))
          if (spec.startsWith('.') && area(f, spec) === 'test') bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    for (const dir of ['src', 'gateway']) {
      for (const f of files(dir)) {
        for (const spec of imports(f))
          if (spec.startsWith('.') && area(f, spec) === 'harness') bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    expect(files('harness')).to.not.deep.equal([]);
    expect(bad).to.deep.equal([]);
  });

  it('src/core does not import from storage, grpc, node, cli or gateway (no cycles back up)', () => {
    const bad: string[] = [];
    for (const f of files('src/core')) {
      for (const spec of imports(f)) {
        if (spec.startsWith('.') && area(f, spec) !== 'src/core') bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    expect(bad).to.deep.equal([]);
  });
});
