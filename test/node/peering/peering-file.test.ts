/**
 * DATA_DIR/peering.json (src/node/peering/peering-file.ts): the peers added at run time, with alias and identity,
 * read back after a "restart" (a new PeeringFile over the folder); removal for good; the identity a peer proved kept
 * only when none was given; a file that is not a peering file stops the start, naming it.
 */
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PEERING_FILE, PeeringFile, parsePeeringFile } from '../../../src/node/peering/peering-file.ts';

const KEY_A = `0x${'aa'.repeat(32)}`;
const KEY_B = `0x${'bb'.repeat(32)}`;

describe('peering file: the peers added at run time, across restarts', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ledger-peering-file-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an empty list without a file; saved peers read back by the next start, in order', () => {
    const f = PeeringFile.open(dir);
    expect(f.peers()).to.deep.equal([]);
    expect(existsSync(join(dir, PEERING_FILE))).to.equal(false);
    f.save({ address: '127.0.0.1:15600', alias: 'a' });
    f.save({ address: '10.0.0.2:15600', identity: KEY_B });
    f.save({ address: '127.0.0.1:15600', alias: 'renamed' });
    expect(PeeringFile.open(dir).peers()).to.deep.equal([
      { address: '127.0.0.1:15600', alias: 'renamed' },
      { address: '10.0.0.2:15600', identity: KEY_B },
    ]);
    expect(existsSync(join(dir, `${PEERING_FILE}.tmp`))).to.equal(false);
  });

  it('keeps the identity a peer proved only when it was added without one', () => {
    const f = PeeringFile.open(dir);
    f.save({ address: '127.0.0.1:1' });
    f.save({ address: '127.0.0.1:2', identity: KEY_B });
    f.learned('127.0.0.1:1', KEY_A.toUpperCase().replace('0X', '0x'));
    f.learned('127.0.0.1:2', KEY_A);
    f.learned('127.0.0.1:3', KEY_A); // not a saved peer: a --peer or an inbound one
    expect(PeeringFile.open(dir).peers()).to.deep.equal([
      { address: '127.0.0.1:1', identity: KEY_A },
      { address: '127.0.0.1:2', identity: KEY_B },
    ]);
  });

  it('removes a peer for good; removing an unknown one writes nothing', () => {
    const f = PeeringFile.open(dir);
    f.save({ address: '127.0.0.1:1' });
    f.save({ address: '127.0.0.1:2' });
    expect(f.remove({ address: '127.0.0.1:1' })).to.equal(true);
    const text = readFileSync(join(dir, PEERING_FILE), 'utf8');
    expect(f.remove({ address: '127.0.0.1:9' })).to.equal(false);
    expect(readFileSync(join(dir, PEERING_FILE), 'utf8')).to.equal(text);
    expect(PeeringFile.open(dir).peers()).to.deep.equal([{ address: '127.0.0.1:2' }]);
  });

  it('reads the forms an operator may write: a multiaddress, a 0xKEY@ address', () => {
    expect(
      parsePeeringFile(
        JSON.stringify({ peers: [{ address: '/ip4/10.0.0.1/tcp/15600' }, { address: `${KEY_A}@10.0.0.3:15600` }] }),
      ),
    ).to.deep.equal([{ address: '10.0.0.1:15600' }, { address: '10.0.0.3:15600', identity: KEY_A }]);
  });

  it('a file that is not a peering file stops the start with its path and the reason', () => {
    const cases: [string, RegExp][] = [
      ['{not json', /is not a peering file/],
      ['{"peers": {}}', /expected \{"peers": \[\.\.\.\]\}/],
      ['{"peers": [{"alias": "x"}]}', /peers\[0\]: expected an object with an address/],
      ['{"peers": [{"address": "nowhere"}]}', /peers\[0\]\.address/],
      ['{"peers": [{"address": "127.0.0.1:1", "identity": "0x12"}]}', /peers\[0\]\.identity/],
      ['{"peers": [{"address": "127.0.0.1:1", "alias": 7}]}', /peers\[0\]\.alias/],
    ];
    for (const [text, reason] of cases) {
      writeFileSync(join(dir, PEERING_FILE), text);
      expect(() => PeeringFile.open(dir), text)
        .to.throw(new RegExp(`${PEERING_FILE}`))
        .and.to.match(reason);
    }
  });
});
