/**
 * Writes docs/settings.md, the reference of every setting of `ledger-node run` and `ledger-node gateway`, from their
 * declarations (src/node/settings.ts, gateway/settings/gateway.ts). `--check` writes nothing and exits 1 when the file
 * differs (test/node/settings.test.ts checks the same).
 *   npx tsx scripts/gen-settings-doc.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { settingsReference } from '../src/node/settings.ts';

const { values } = parseArgs({ options: { check: { type: 'boolean' } } });
const path = new URL('../docs/settings.md', import.meta.url);
const text = settingsReference();
if (values.check) {
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    // missing: differs
  }
  if (current !== text) {
    console.error('docs/settings.md differs from the declarations: run npx tsx scripts/gen-settings-doc.ts');
    process.exit(1);
  }
} else {
  writeFileSync(path, text);
  console.log('wrote docs/settings.md');
}
