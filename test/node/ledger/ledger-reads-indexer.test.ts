/**
 * The indexer's routes (TIP-26) end to end over REST, on the scenario of ledger-reads-support.ts: basic outputs by
 * address and the combined unlockableByAddress route, pages that follow the cursor, and the refusals.
 */
import { expect } from 'chai';
import { toHex0x } from '../../../src/core/bytes.ts';
import { ed25519AddressFromPublicKey, ed25519PublicKeyFromSeed } from '../../../src/core/crypto/index.ts';
import { bech32EncodeAddress, outputId } from '../../../src/core/ids/index.ts';
import { devWalletOf } from '../../../src/node/genesis/genesis-ledger.ts';
import { TRANSPORTS } from '../../gateway/harness.ts';
import { OTHER_SEED, restOver, scenarioSuite, type Json } from './ledger-reads-support.ts';

describe('ledger reads over REST: the indexer (a composed dev-network node)', function () {
  this.timeout(30000);
  const s = scenarioSuite();

  for (const transport of TRANSPORTS) {
    describe(`[over ${transport}]`, () => {
      const { url } = restOver(transport, s);

      describe('the indexer (TIP-26)', () => {
        const indexer = async (path: string): Promise<{ status: number; body: Json }> => {
          const res = await fetch(url(`/api/indexer/v1${path}`));
          return { status: res.status, body: JSON.parse(await res.text()) };
        };
        const hrp = (): string => s.genesis.protocol.bech32Hrp;
        const other = (): string =>
          bech32EncodeAddress(hrp(), ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(OTHER_SEED)));
        const wallet = (): string =>
          bech32EncodeAddress(
            hrp(),
            ed25519AddressFromPublicKey(ed25519PublicKeyFromSeed(devWalletOf(s.genesis)!.seed)),
          );
        // What OTHER_SEED's address owns, oldest first: its genesis share, the transfer (milestone 1), the migration
        // (2).
        const owned = (): string[] =>
          [s.genesisOutputs[1]!.outputId, outputId(s.txId, 0), outputId(s.ms2.milestoneId, 0)].map(toHex0x);

        it('basic outputs by address and unlockableByAddress list what the address owns, oldest first', async () => {
          const basic = await indexer(`/outputs/basic?address=${other()}`);
          expect(basic.status).to.equal(200);
          expect(basic.body).to.deep.include({ ledgerIndex: 2, items: owned() });
          expect(basic.body.cursor).to.equal(undefined);
          expect((await indexer(`/outputs?unlockableByAddress=${other()}`)).body.items).to.deep.equal(owned());
          // The dev wallet spent its genesis output: only its change is left.
          expect((await indexer(`/outputs/basic?address=${wallet()}`)).body.items).to.deep.equal([
            toHex0x(outputId(s.txId, 1)),
          ]);
        });

        it('pages of one follow the cursor without gaps or repeats', async () => {
          const seen: string[] = [];
          let cursor: string | undefined;
          do {
            const page = await indexer(
              `/outputs/basic?address=${other()}&pageSize=1${cursor === undefined ? '' : `&cursor=${cursor}`}`,
            );
            expect([page.status, page.body.pageSize, page.body.items.length]).to.deep.equal([200, 1, 1]);
            seen.push(...(page.body.items as string[]));
            cursor = page.body.cursor as string | undefined;
          } while (cursor !== undefined && seen.length < 10);
          expect(seen).to.deep.equal(owned());
        });

        const refused: [string, () => string, number, RegExp][] = [
          ['an unknown parameter', () => '/outputs/basic?colour=red', 400, /colour/],
          ['an address of another network', () => `/outputs/basic?address=${'smr' + other().slice(3)}`, 400, /address/],
          [
            'a parameter given twice',
            () => `/outputs/basic?address=${'x'}&address=${'y'}`,
            400,
            /address is given 2 times/,
          ],
          ['a malformed cursor', () => '/outputs/basic?cursor=zz.1', 400, /cursor/],
          ['an alias ID of 31 bytes', () => `/outputs/alias/0x${'ab'.repeat(31)}`, 400, /alias ID/],
          [
            'an alias no output carries',
            () => `/outputs/alias/0x${'ab'.repeat(32)}`,
            404,
            /no unspent output of alias/,
          ],
          ['an NFT no output carries', () => `/outputs/nft/0x${'cd'.repeat(32)}`, 404, /no unspent output of nft/],
          [
            'a foundry no output carries',
            () => `/outputs/foundry/0x08${'ef'.repeat(37)}`,
            404,
            /no unspent output of foundry/,
          ],
        ];
        for (const [what, path, code, message] of refused) {
          it(`${what}: ${code}`, async () => {
            const res = await indexer(path());
            expect([res.status, res.body.error?.code]).to.deep.equal([code, code]);
            expect(res.body.error.message).to.match(message);
          });
        }
      });
    });
  }
});
