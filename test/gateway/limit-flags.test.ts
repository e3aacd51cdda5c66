/**
 * The event API's limit flags on both commands: `ledger-node gateway` (gateway/limit-flags.ts) and `ledger-node run`
 * (src/node/config.ts, handed to the gateway by src/node/rest.ts) set the same MqttLimits of gateway/mqtt/mount.ts.
 */
import { expect } from 'chai';
import { limitOptions, LIMIT_FLAGS } from '../../gateway/limit-flags.ts';
import { ConfigError, parseRunArgs } from '../../src/node/config.ts';
import { mqttLimits } from '../../src/node/rest.ts';

const SIX = ['--mqtt-max-connections', '--mqtt-max-connections-per-ip', '--mqtt-max-subscriptions', '--mqtt-max-buffered-bytes', '--mqtt-max-packet-bytes', '--mqtt-ping-interval'];

describe('event API limit flags (ledger-node gateway and run)', () => {
  it('the gateway takes all six and sets each limit; the ping interval is in seconds', () => {
    for (const f of SIX) expect(LIMIT_FLAGS).to.include(f);
    const o = limitOptions(new Map([['--mqtt-max-connections', '5'], ['--mqtt-max-connections-per-ip', '2'], ['--mqtt-max-subscriptions', '7'], ['--mqtt-max-buffered-bytes', '1024'], ['--mqtt-max-packet-bytes', '2048'], ['--mqtt-ping-interval', '2.5']]));
    expect(o.mqtt).to.deep.equal({ maxConnections: 5, maxConnectionsPerIp: 2, maxSubscriptions: 7, maxBufferedBytes: 1024, maxPacketBytes: 2048, pingIntervalMs: 2500 });
  });

  it('the gateway refuses bad values, naming the flag', () => {
    expect(() => limitOptions(new Map([['--mqtt-max-packet-bytes', '0']]))).to.throw(/invalid --mqtt-max-packet-bytes: "0"/);
    expect(() => limitOptions(new Map([['--mqtt-max-packet-bytes', '1e3']]))).to.throw(/--mqtt-max-packet-bytes/);
    for (const bad of ['0', '-1', 'abc', '3601', '']) expect(() => limitOptions(new Map([['--mqtt-ping-interval', bad]])), bad).to.throw(/invalid --mqtt-ping-interval/);
  });

  it('the node takes the same flags and hands the same limits to its gateway', () => {
    const config = parseRunArgs(['--mqtt-max-packet-bytes', '4096', '--mqtt-ping-interval', '10', '--mqtt-max-buffered-bytes', '65536']);
    expect(mqttLimits(config)).to.deep.equal({ maxBufferedBytes: 65536, maxPacketBytes: 4096, pingIntervalMs: 10_000 });
    expect(mqttLimits(parseRunArgs([]))).to.deep.equal({});
    expect(() => parseRunArgs(['--mqtt-ping-interval', '0'])).to.throw(ConfigError, /--mqtt-ping-interval/);
    expect(() => parseRunArgs(['--mqtt-max-packet-bytes', 'x'])).to.throw(ConfigError, /--mqtt-max-packet-bytes/);
  });
});
