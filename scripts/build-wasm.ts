/**
 * Builds the WebAssembly kernels from their own source with npm packages only (wabt's JS build, no toolchain
 * download): src/core/pow/wasm/kernel-wat.ts -> WAT -> wasm -> src/core/pow/wasm/kernel.generated.ts.
 * Idempotent: the file is rewritten only when its content would change. `--check` fails instead of writing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import wabtInit from 'wabt';
import { kernelWat } from '../src/core/pow/wasm/kernel-wat.ts';
import { generatedModuleText } from '../src/core/pow/wasm/assemble.ts';
import { scriptSwitch } from './lib/args.ts';

export async function assembleWat(wat: string): Promise<Uint8Array> {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('kernel.wat', wat, { simd: true, bulk_memory: true });
  try {
    mod.validate();
    const { buffer } = mod.toBinary({ log: false, write_debug_names: false });
    return new Uint8Array(buffer);
  } finally {
    mod.destroy();
  }
}

export async function buildKernelModuleText(): Promise<string> {
  const wat = kernelWat();
  return generatedModuleText(wat, await assembleWat(wat));
}

export const GENERATED = new URL('../src/core/pow/wasm/kernel.generated.ts', import.meta.url);

async function main(): Promise<void> {
  const check = scriptSwitch('check');
  const text = await buildKernelModuleText();
  let current = '';
  try {
    current = readFileSync(GENERATED, 'utf8');
  } catch {
    current = '';
  }
  if (current === text) {
    console.log('wasm kernel up to date');
    return;
  }
  if (check) {
    console.error('wasm kernel out of date: run npx tsx scripts/build-wasm.ts');
    process.exit(1);
  }
  writeFileSync(GENERATED, text);
  console.log(`wasm kernel written (${text.length} chars)`);
}

if (import.meta.url === new URL(process.argv[1] ?? '', 'file://').href || process.argv[1]?.endsWith('build-wasm.ts')) {
  await main();
}
