/**
 * Faults between nodes on one machine: partitions and packet loss between loopback addresses (127.0.0.x) with
 * nftables, in a table of this process's own (`ledger_faults_<pid>`), so that tests never touch other rules. The
 * kernel here has no `netem`: delay needs a proxy in the test, not a rule.
 *
 * Rules sit in the output hook (every loopback packet passes it once, on its way out), before conntrack, and match
 * every packet, so an established TCP connection is cut as well as new ones. `heal()` removes every rule, `close()`
 * the table; `close()` also runs when the process exits, and `open()` first removes the tables of processes that died
 * without closing theirs. Only loopback addresses are accepted.
 *
 * A process that dials a loopback address without binding its socket speaks from 127.0.0.1, whatever address it
 * listens on (the kernel's loopback route says `src 127.0.0.1`), and a node cannot bind its peer dials (grpc-js has no
 * such option). `bindSource(gid, address)` gives the connections a process of that group opens the address it stands
 * for (source NAT in the postrouting hook, by the socket's group: spawn the process with that `gid`). Such a
 * connection's packets are seen by the output hook with 127.0.0.1 as source one way, so every rule is also added to a
 * postrouting chain after the NAT, for those packets only (`ct status snat ct direction original`): each packet is
 * matched once, by one of the two chains, and a partition cuts both ways.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const ENSURE = fileURLToPath(new URL('../scripts/ensure-nft.sh', import.meta.url));
const PREFIX = 'ledger_faults_';
/** The table's chains: the rules before conntrack, the source bindings, the rules after them (see the file comment). */
const CHAINS = [
  'out { type filter hook output priority -400 ; policy accept ; }',
  'nat { type nat hook postrouting priority 100 ; policy accept ; }',
  'post { type filter hook postrouting priority 110 ; policy accept ; }',
];

/** The path of `nft` (installed with apt-get when missing), or undefined with the reason when it cannot be had. */
export async function findNft(): Promise<{ path?: string; reason?: string }> {
  try {
    const { stdout } = await run('bash', [ENSURE]);
    return { path: stdout.trim() };
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    return { reason: (err.stderr ?? '').trim() || err.message };
  }
}

function checkLoopback(address: string): string {
  if (!/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address))
    throw new Error(`fault rules take loopback IPv4 addresses (127.0.0.x) only, not ${address}`);
  return address;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class NftFaults {
  readonly table = `${PREFIX}${process.pid}`;
  private opened = false;
  private readonly onExit = () => this.closeSync();

  private constructor(private readonly nft: string) {}

  /** Creates the table and its chains (removing stale tables of dead processes first). */
  static async open(nftPath?: string): Promise<NftFaults> {
    let path = nftPath;
    if (path === undefined) {
      const found = await findNft();
      if (found.path === undefined) throw new Error(`no nft: ${found.reason}`);
      path = found.path;
    }
    const faults = new NftFaults(path);
    await faults.removeStale();
    await faults.exec(['add', 'table', 'inet', faults.table]);
    for (const chain of CHAINS) await faults.exec(['add chain inet', faults.table, chain]);
    faults.opened = true;
    process.once('exit', faults.onExit);
    return faults;
  }

  /**
   * Cuts the network into `groups`: every packet between two addresses of different groups is dropped, both ways.
   * Addresses in no group keep talking to everyone.
   */
  async partition(groups: readonly (readonly string[])[]): Promise<void> {
    for (let i = 0; i < groups.length; i++)
      for (let j = i + 1; j < groups.length; j++)
        for (const a of groups[i]!) for (const b of groups[j]!) await this.drop(a, b);
  }

  /** Drops every packet between `a` and `b`, both ways. */
  async drop(a: string, b: string): Promise<void> {
    await this.rule(`ip saddr ${checkLoopback(a)} ip daddr ${checkLoopback(b)} drop`);
    await this.rule(`ip saddr ${b} ip daddr ${a} drop`);
  }

  /** Drops `percent` % of the packets (chosen at random, per packet) between every two of `addresses`. */
  async loss(percent: number, addresses: readonly string[]): Promise<void> {
    if (!Number.isInteger(percent) || percent < 1 || percent > 99) throw new Error(`loss is 1..99 %, not ${percent}`);
    const set = `{ ${addresses.map(checkLoopback).join(', ')} }`;
    await this.rule(`ip saddr ${set} ip daddr ${set} numgen random mod 100 < ${percent} drop`);
  }

  /**
   * Connections to loopback addresses that sockets of group `gid` open without a source address of their own (they
   * would speak from 127.0.0.1) speak from `address` instead; stays until close(), heal() keeps it.
   */
  async bindSource(gid: number, address: string): Promise<void> {
    if (!Number.isInteger(gid) || gid <= 0) throw new Error(`bindSource takes a group ID above 0, not ${gid}`);
    const to = checkLoopback(address);
    await this.exec([
      'add rule inet',
      this.table,
      `nat meta skgid ${gid} ip saddr 127.0.0.1 ip daddr 127.0.0.0/8 snat ip to ${to}`,
    ]);
  }

  /** Removes every rule but the source bindings (the network is whole again). */
  async heal(): Promise<void> {
    await this.exec(['flush chain inet', this.table, 'out']);
    await this.exec(['flush chain inet', this.table, 'post']);
  }

  /** Packets the rules in place dropped so far (each rule counts; heal() resets them with the rules). */
  async dropped(): Promise<number> {
    let n = 0;
    for (const m of (await this.list()).matchAll(/counter packets (\d+) bytes \d+ drop/g)) n += Number(m[1]);
    return n;
  }

  /** The rules in place, as `nft` lists them (for a test's log). */
  async list(): Promise<string> {
    return (await run(this.nft, ['list', 'table', 'inet', this.table])).stdout;
  }

  /** Removes the table; safe to call twice. */
  async close(): Promise<void> {
    if (!this.opened) return;
    this.opened = false;
    process.off('exit', this.onExit);
    await this.exec(['delete', 'table', 'inet', this.table]);
  }

  private closeSync(): void {
    if (!this.opened) return;
    this.opened = false;
    try {
      execFileSync(this.nft, ['delete', 'table', 'inet', this.table], { stdio: 'ignore' });
    } catch {
      // already gone
    }
  }

  /** The fault tables of other live processes whose rules name one of `addresses` (they may cut them too). */
  async othersTouching(addresses: readonly string[]): Promise<string[]> {
    const { stdout } = await run(this.nft, ['list', 'tables']);
    const out: string[] = [];
    for (const m of stdout.matchAll(new RegExp(`table inet (${PREFIX}(\\d+))`, 'g'))) {
      if (m[1] === this.table || !alive(Number(m[2]))) continue;
      const rules = await run(this.nft, ['list', 'table', 'inet', m[1]!]).then(
        (r) => r.stdout,
        () => '', // gone meanwhile
      );
      if (addresses.some((a) => new RegExp(`\\b${a.replace(/\./g, '\\.')}(?![\\d.])`).test(rules))) out.push(m[1]!);
    }
    return out;
  }

  private async removeStale(): Promise<void> {
    const { stdout } = await run(this.nft, ['list', 'tables']);
    for (const m of stdout.matchAll(new RegExp(`table inet (${PREFIX}(\\d+))`, 'g'))) {
      if (!alive(Number(m[2]))) await this.exec(['delete', 'table', 'inet', m[1]!]);
    }
  }

  /** Adds a rule ending in `drop` to both filter chains, counting what it drops. */
  private async rule(text: string): Promise<void> {
    const counted = text.replace(/ drop$/, ' counter drop');
    await this.exec(['add rule inet', this.table, 'out', counted]);
    await this.exec(['add rule inet', this.table, 'post', `ct status snat ct direction original ${counted}`]);
  }

  private async exec(args: string[]): Promise<void> {
    // one argument string: nft parses its command line as one statement
    await run(this.nft, [args.join(' ')]);
  }
}
