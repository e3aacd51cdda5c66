/**
 * harness/nft.ts against the kernel: a partition cuts TCP between two loopback addresses (also a connection opened
 * before the cut) and heal() mends it; a process of a bound group dials from its address, and a partition cuts its
 * connection both ways; close() leaves no table behind. Skipped without nft (fails with CI=true).
 */
import { expect } from 'chai';
import { execFileSync, spawn } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { findNft, NftFaults } from '../../../harness/nft.ts';

const A = '127.0.0.2';
const B = '127.0.0.3';

/** Resolves true when a TCP connection from A to B's port opens within `ms`. */
function reaches(port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createConnection({ host: B, port, localAddress: A });
    const timer = setTimeout(() => done(false), ms);
    function done(ok: boolean) {
      clearTimeout(timer);
      s.destroy();
      resolve(ok);
    }
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

/** Resolves true when `line` sent over `socket` comes back (the server echoes) within `ms`. */
function echoes(socket: Socket, line: string, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.off('data', onData);
      resolve(false);
    }, ms);
    function onData(d: Buffer) {
      if (!d.toString().includes(line)) return;
      clearTimeout(timer);
      socket.off('data', onData);
      resolve(true);
    }
    socket.on('data', onData);
    socket.write(line);
  });
}

describe('harness/nft: partitions between loopback addresses', function () {
  this.timeout(30000);
  let nft: string | undefined;
  let server: Server;
  let port = 0;
  let faults: NftFaults | undefined;

  before(async function () {
    const found = await findNft();
    if (found.path === undefined) {
      if (process.env.CI === 'true') throw new Error(`nft is needed on CI: ${found.reason}`);
      this.skip();
    }
    nft = found.path;
    server = createServer((s) => s.pipe(s));
    await new Promise<void>((r) => server.listen(0, B, r));
    port = (server.address() as { port: number }).port;
  });

  after(async () => {
    await faults?.close();
    server?.close();
  });

  it('cuts new and open connections, heals, and removes its table', async () => {
    faults = await NftFaults.open(nft);
    const open = createConnection({ host: B, port, localAddress: A });
    await new Promise((r) => open.once('connect', r));
    expect(await echoes(open, 'before\n', 2000)).to.equal(true);

    await faults.partition([[A], [B]]);
    expect(await faults.list()).to.contain(`ip saddr ${A} ip daddr ${B} counter packets`);
    expect(await reaches(port, 1000)).to.equal(false);
    expect(await echoes(open, 'during\n', 1000)).to.equal(false);
    expect(await faults.dropped()).to.be.above(0);

    await faults.heal();
    expect(await faults.dropped()).to.equal(0);
    expect(await reaches(port, 2000)).to.equal(true);
    // TCP retransmits what the cut dropped: the line sent during the cut arrives, then a new one
    expect(await echoes(open, 'after\n', 5000)).to.equal(true);
    open.destroy();

    await faults.loss(50, [A, B]);
    expect(await faults.list()).to.match(/numgen random mod 100 < 50/);
    const table = faults.table;
    await faults.close();
    await faults.close();
    expect(execFileSync(nft!, ['list', 'tables']).toString()).not.to.contain(table);
  });

  it('a process of a bound group dials from its address; a partition cuts that connection both ways', async () => {
    const GID = 70402;
    faults = await NftFaults.open(nft);
    await faults.bindSource(GID, A);
    const other = createServer();
    await new Promise<void>((r) => other.listen(0, B, r));
    const accepted = new Promise<Socket>((r) => other.once('connection', r));
    const otherPort = (other.address() as { port: number }).port;
    // the child prints what it receives and sends a tick every 50 ms: each direction is seen apart
    const script =
      `const c = require('node:net').connect(${otherPort}, '${B}'); c.on('error', () => {});` +
      `c.on('data', (d) => process.stdout.write(d)); setInterval(() => c.write('tick'), 50);`;
    const child = spawn(process.execPath, ['-e', script], { gid: GID, stdio: ['ignore', 'pipe', 'ignore'] });
    let printed = '';
    child.stdout.on('data', (d: Buffer) => {
      printed += d.toString();
    });
    let ticks = 0;
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    /** [ticks the server received, whether `line` reached the child] over `ms` after writing it. */
    const exchange = async (socket: Socket, line: string, ms: number): Promise<[number, boolean]> => {
      const before = ticks;
      socket.write(line);
      await pause(ms);
      return [ticks - before, printed.includes(line)];
    };
    try {
      const socket = await accepted;
      socket.on('data', (d: Buffer) => {
        ticks += d.toString().split('tick').length - 1;
      });
      expect(socket.remoteAddress).to.equal(A);
      const [t1, r1] = await exchange(socket, 'before', 500);
      expect([t1 > 0, r1]).to.deep.equal([true, true]);
      await faults.partition([[A], [B]]);
      await pause(200); // what was already on its way
      const [t2, r2] = await exchange(socket, 'during', 1000);
      expect([t2, r2]).to.deep.equal([0, false]);
      await faults.heal();
      const [t3, r3] = await exchange(socket, 'after', 5000);
      expect([t3 > 0, r3, printed.includes('during')]).to.deep.equal([true, true, true]);
      socket.destroy();
    } finally {
      child.kill('SIGKILL');
      other.close();
      await faults.close();
    }
  });

  it('refuses addresses outside loopback', async () => {
    faults = await NftFaults.open(nft);
    let message = '';
    await faults.drop('10.0.0.1', B).catch((e: Error) => {
      message = e.message;
    });
    expect(message).to.match(/loopback/);
    await faults.close();
  });
});
