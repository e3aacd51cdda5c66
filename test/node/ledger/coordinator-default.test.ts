/**
 * Two coordinators on one network fork it: a node that dials static peers runs the built-in coordinator only when the
 * operator asks for it explicitly; a node without peers (the dev default) runs it whenever the network has its keys.
 */
import { expect } from 'chai';
import type { NodeConfig } from '../../../src/node/config.ts';
import { CollectingLogger, startConfiguredNode } from '../../../harness/node.ts';
import { tempDir } from '../support.ts';

describe('node: the built-in coordinator by default', function () {
  this.timeout(30_000);
  const dir = tempDir('ledger-node-coo-');

  async function logOf(extra: Partial<NodeConfig>): Promise<string> {
    const logger = new CollectingLogger();
    const node = await startConfiguredNode({ powWorkers: 0, ...extra }, { dataDir: dir.path, logger, rest: false });
    await node.stop();
    return logger.lines.join('\n');
  }

  it('runs on a dev network without peers', async () => {
    expect(await logOf({})).to.contain('coordinator on');
  });

  it('stays off on a node that dials peers, saying how to turn it on', async () => {
    const log = await logOf({ peers: ['127.0.0.1:9'] });
    expect(log).to.contain('coordinator off: this node dials peers');
    expect(log).not.to.contain('coordinator on');
  });

  it('runs with peers when asked explicitly, and never with --coordinator false', async () => {
    expect(await logOf({ peers: ['127.0.0.1:9'], coordinator: true })).to.contain('coordinator on');
    expect(await logOf({ coordinator: false })).not.to.contain('coordinator on');
  });
});
