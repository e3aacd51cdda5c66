/**
 * The v3 RPCs on the real gRPC server of a dev node (no genesis file, LevelDB): the generated dev network has a v3
 * part (one validator seat, the token supply owned by the validator key, all in genesis.json); a transaction
 * submitted as JSON through SubmitBlockV3 is confirmed by the built-in validator, and the included block survives
 * a restart. A network without a v3 part answers UNAVAILABLE.
 */
import { expect } from 'chai';
import { credentials } from '@grpc/grpc-js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { blake2b256 } from '../../../src/core/crypto/blake2b.ts';
import { ed25519PublicKeyFromSeed } from '../../../src/core/crypto/ed25519.ts';
import { fromHex0x, toHex0x } from '../../../src/core/bytes.ts';
import {
  blockFromJsonV3,
  blockToJsonV3,
  decodeBlockV3,
  encodeBlockV3,
  protocolParametersFromInfoV3,
  slotFromTime,
  slotOfId,
} from '../../../src/core/v3/index.ts';
import { BlockView, NodeServiceClient } from '../../../src/grpc/gen/node.ts';
import { parseServiceError } from '../../../src/grpc/status.ts';
import { parseRunArgs } from '../../../src/node/config.ts';
import { genesisOutputIdsV3, genesisV3FromJson } from '../../../src/node/v3/genesis-v3.ts';
import { startConfiguredNode, startTestNode, type ConfiguredNode } from '../../../harness/node.ts';
import { basic, basicBlock, inputOf, key, signedTx, txIdOf } from '../../../harness/fixtures/v3.ts';
import { waitFor } from '../../../harness/wait.ts';
import { tempDir } from '../support.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Dynamic = any;

function rpc<T>(client: NodeServiceClient, method: string, req: object): Promise<T> {
  return new Promise((resolve, reject) =>
    (client as Dynamic)[method](req, (e: Error | null, r: T) => (e ? reject(e) : resolve(r))),
  );
}

describe('v3 RPCs on a dev node', function () {
  this.timeout(60000);
  const dir = tempDir('ledger-node-v3-rpc-');
  const start = (): Promise<ConfiguredNode> =>
    startConfiguredNode({ powWorkers: 0, minPowScore: 0, validationInterval: 40 }, { dataDir: dir.path, rest: false });

  it('--validation-interval is a run flag', () => {
    expect(parseRunArgs(['--validation-interval', '25']).validationInterval).to.equal(25);
    expect(() => parseRunArgs(['--validation-interval', '-1'])).to.throw(/expected/);
  });

  it('dev network: submit as JSON, confirmed by the built-in validator, included block kept on restart', async () => {
    let node: ConfiguredNode | undefined = await start();
    let client = new NodeServiceClient(`127.0.0.1:${node.node.grpcPort}`, credentials.createInsecure());
    try {
      const file = JSON.parse(readFileSync(join(dir.path, 'genesis.json'), 'utf8'));
      const g = genesisV3FromJson(file.v3);
      expect(g.accounts).to.have.length(1);
      const seed = g.accounts[0]!.validatorSeed!;
      const owner = {
        seed,
        publicKey: ed25519PublicKeyFromSeed(seed),
        hash: blake2b256(ed25519PublicKeyFromSeed(seed)),
        accountId: g.accounts[0]!.accountId,
      };
      const info = JSON.parse((await rpc<{ json: string }>(client, 'getInfoV3', {})).json);
      const params = protocolParametersFromInfoV3(info, 3);
      expect(params.networkName).to.equal('ledger-dev');
      const iss = JSON.parse((await rpc<{ json: string }>(client, 'getIssuanceV3', {})).json);
      const now = BigInt(Date.now()) * 1_000_000n;
      const after = BigInt(iss.latestParentBlockIssuingTime) + 1n;
      const time = now > after ? now : after;
      const tx = signedTx(
        {
          creationSlot: slotFromTime(time, params),
          inputs: [inputOf(genesisOutputIdsV3(g)[0]!)],
          outputs: [basic(params.tokenSupply - 1_000_000n, key(80)), basic(1_000_000n, owner)],
        },
        owner,
        params,
      );
      const bytes = basicBlock(params, {
        issuer: owner,
        parents: iss.strongParents.map((p: string) => fromHex0x(p)),
        issuingTime: time,
        commitmentId: fromHex0x(info.status.latestCommitmentId),
        payload: tx,
      });
      const json = JSON.stringify(blockToJsonV3(decodeBlockV3(bytes, params)));
      const { blockId } = await rpc<{ blockId: Uint8Array }>(client, 'submitBlockV3', {
        block: { $case: 'json', value: json },
      });
      await waitFor(
        'confirmation',
        async () =>
          JSON.parse((await rpc<{ json: string }>(client, 'getBlockMetadataV3', { blockId, view: 0 })).json)
            .blockState === 'confirmed'
            ? true
            : undefined,
        15000,
      );
      const inc = await rpc<{ blockId: Uint8Array; raw: Uint8Array; json: string }>(client, 'getIncludedBlockV3', {
        transactionId: txIdOf(tx),
        view: BlockView.BLOCK_VIEW_UNSPECIFIED,
      });
      expect(toHex0x(inc.blockId)).to.equal(toHex0x(blockId));
      expect(toHex0x(inc.raw)).to.equal(toHex0x(bytes));
      expect(toHex0x(encodeBlockV3(blockFromJsonV3(inc.json)))).to.equal(toHex0x(bytes));
      const structured = await rpc(client, 'getBlockV3', { blockId, view: BlockView.BLOCK_VIEW_STRUCTURED }).catch(
        (e) => parseServiceError(e),
      );
      expect(structured).to.include({ code: 'INVALID_REQUEST' });

      client.close();
      await node.stop();
      node = await start();
      client = new NodeServiceClient(`127.0.0.1:${node.node.grpcPort}`, credentials.createInsecure());
      const again = await rpc<{ blockId: Uint8Array; raw: Uint8Array }>(client, 'getIncludedBlockV3', {
        transactionId: txIdOf(tx),
        view: BlockView.BLOCK_VIEW_RAW,
      });
      expect(toHex0x(again.raw)).to.equal(toHex0x(bytes));
      const md = JSON.parse((await rpc<{ json: string }>(client, 'getBlockMetadataV3', { blockId, view: 0 })).json);
      // applied ('accepted'), and 'committed' once the clock made its slot committable (10 slots later)
      const txState = md.transactionMetadata?.transactionState;
      expect(['accepted', 'committed']).to.include(txState);
      expect(md).to.deep.equal({
        blockId: toHex0x(blockId),
        blockState: 'confirmed',
        transactionMetadata: {
          transactionId: toHex0x(txIdOf(tx)),
          transactionState: txState,
          earliestAttachmentSlot: slotOfId(blockId),
        },
      });
    } finally {
      client.close();
      await node?.stop();
    }
  });

  it('a network without a v3 part answers UNAVAILABLE; included-block stays NOT_FOUND', async () => {
    const n = await startTestNode();
    try {
      for (const [m, req] of [
        ['getInfoV3', {}],
        ['getIssuanceV3', {}],
        ['submitBlockV3', { block: { $case: 'raw', value: new Uint8Array([1]) } }],
        ['getBlockV3', { blockId: new Uint8Array(36), view: 0 }],
      ] as const) {
        const e = parseServiceError(
          await rpc(n.client, m, req).then(
            () => expect.fail(`${m} should fail`),
            (x) => x,
          ),
        );
        expect(e.code, m).to.equal('UNAVAILABLE');
        expect(e.message).not.to.match(/^service unavailable/);
        expect(e.message).to.match(/no v3/);
      }
      const e = parseServiceError(
        await rpc(n.client, 'getIncludedBlockV3', { transactionId: new Uint8Array(36), view: 0 }).then(
          () => expect.fail('should fail'),
          (x) => x,
        ),
      );
      expect(e.code).to.equal('NOT_FOUND');
    } finally {
      await n.close();
    }
  });
});
