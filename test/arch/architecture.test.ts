/**
 * Dependency direction: gateway -> grpc ; node -> grpc, storage, core ; storage -> core ; core -> core + @noble/*.
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
  const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]/g;
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
  it('src/core imports only src/core, @noble/* and nothing from the host runtime', () => {
    const bad: string[] = [];
    for (const f of files('src/core')) {
      for (const spec of imports(f)) {
        const ok = spec.startsWith('.') ? area(f, spec) === 'src/core' : spec.startsWith('@noble/');
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
        if (spec.startsWith('.') && !['src/core', 'src/storage'].includes(area(f, spec))) bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    expect(bad).to.deep.equal([]);
  });

  it('gateway reaches the node only through the gRPC client, never core, storage or node internals', () => {
    const bad: string[] = [];
    for (const f of files('gateway')) {
      for (const spec of imports(f)) {
        if (spec.startsWith('.') && !['gateway', 'src/grpc'].includes(area(f, spec))) bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    expect(bad).to.deep.equal([]);
  });

  it('src/node composes grpc, storage and core; only rest.ts hosts the gateway app; nothing below imports src/node', () => {
    const bad: string[] = [];
    for (const f of files('src/node')) {
      for (const spec of imports(f)) {
        if (!spec.startsWith('.')) continue;
        const a = area(f, spec);
        if (a === 'gateway' && !f.endsWith('/src/node/rest.ts')) bad.push(`${relative(root, f)} imports ${spec}`);
        else if (!['src/node', 'src/core', 'src/storage', 'src/grpc', 'gateway'].includes(a) && !spec.endsWith('package.json')) bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
    for (const dir of ['src/core', 'src/storage', 'src/grpc', 'gateway']) {
      for (const f of files(dir)) {
        for (const spec of imports(f)) if (spec.startsWith('.') && area(f, spec) === 'src/node') bad.push(`${relative(root, f)} imports ${spec}`);
      }
    }
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
