import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { assembleWat, buildKernelModuleText, GENERATED } from '../../../scripts/build-wasm.ts';
import { kernelWat } from '../../../src/core/pow/wasm/kernel-wat.ts';
import { kernelBytes } from '../../../src/core/pow/wasm-kernel.ts';

describe('node/pow WASM build (generated-code drift)', function () {
  this.timeout(20000);
  it('rebuilding from kernel-wat.ts with wabt gives exactly the committed kernel.generated.ts', async () => {
    expect(await buildKernelModuleText(), 'run: npx tsx scripts/build-wasm.ts').to.equal(
      readFileSync(GENERATED, 'utf8'),
    );
  });
  it('the kernel the runtime loads is byte for byte the assembled source', async () => {
    expect(Array.from(kernelBytes())).to.deep.equal(Array.from(await assembleWat(kernelWat())));
  });
  it('a changed source would be caught', async () => {
    const changed = kernelWat().replace('(i32.const 27)', '(i32.const 26)');
    expect(changed).to.not.equal(kernelWat());
    expect(Array.from(await assembleWat(changed))).to.not.deep.equal(Array.from(kernelBytes()));
  });
});
