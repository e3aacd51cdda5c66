/**
 * The generated code in src/grpc/gen/ must be exactly what protoc + ts-proto make of proto/ (DESIGN.md: committed,
 * never edited, drift-checked). Runs `scripts/gen-proto.sh --check`, and proves the check catches a change by
 * running it on a scratch copy whose generated output was edited.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

function check(dir: string): { status: number | null; output: string } {
  const r = spawnSync('bash', [join(dir, 'scripts/gen-proto.sh'), '--check'], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

/** A scratch checkout holding only what the generator needs (node_modules linked, not copied). */
function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gen-proto-'));
  cpSync(join(root, 'proto'), join(dir, 'proto'), { recursive: true });
  cpSync(join(root, 'scripts/gen-proto.sh'), join(dir, 'scripts/gen-proto.sh'));
  cpSync(join(root, 'src/grpc/gen'), join(dir, 'src/grpc/gen'), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return dir;
}

describe('grpc generated code drift', function () {
  this.timeout(60000);

  it('src/grpc/gen/ matches what proto/ generates', () => {
    const r = check(root);
    expect(r.output).to.contain('src/grpc/gen/ is up to date');
    expect(r.status, r.output).to.equal(0);
  });

  it('generates one TypeScript file per .proto file (plus the imported google/protobuf/any)', () => {
    const protos = readdirSync(join(root, 'proto'))
      .filter((f) => f.endsWith('.proto'))
      .map((f) => f.replace(/\.proto$/, '.ts'));
    const gen = readdirSync(join(root, 'src/grpc/gen')).filter((f) => f.endsWith('.ts'));
    expect(gen.sort()).to.deep.equal(protos.sort());
  });

  describe('the check fails with a diff', () => {
    let dir = '';
    beforeEach(() => {
      dir = scratchCopy();
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('when a generated file was edited by hand', () => {
      appendFileSync(join(dir, 'src/grpc/gen/node.ts'), '// hand edit\n');
      const r = check(dir);
      expect(r.status).to.equal(1);
      expect(r.output).to.contain('-// hand edit');
      expect(r.output).to.contain('out of date');
    });

    it('when a .proto file changed without regenerating', () => {
      appendFileSync(join(dir, 'proto/node.proto'), '\nmessage Extra {\n  string note = 1;\n}\n');
      const r = check(dir);
      expect(r.status).to.equal(1);
      expect(r.output).to.contain('+export interface Extra');
    });
  });
});
