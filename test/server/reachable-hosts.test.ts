import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { reachableHosts } from '../../src/server/ui-server.js';

const entry = (
  address: string,
  family: 'IPv4' | 'IPv6',
  internal: boolean,
): NetworkInterfaceInfo =>
  family === 'IPv4'
    ? { address, family, internal, netmask: '255.0.0.0', mac: '00:00:00:00:00:00', cidr: null }
    : {
        address,
        family,
        internal,
        netmask: 'ffff::',
        mac: '00:00:00:00:00:00',
        cidr: null,
        scopeid: 0,
      };

const interfaces = {
  lo: [entry('127.0.0.1', 'IPv4', true), entry('::1', 'IPv6', true)],
  eth0: [
    entry('192.168.1.20', 'IPv4', false),
    entry('fe80::1', 'IPv6', false),
    entry('2001:db8::5', 'IPv6', false),
  ],
};

describe('reachableHosts', () => {
  it('keeps a specific host as it is', () => {
    expect(reachableHosts('127.0.0.1', interfaces)).toEqual(['127.0.0.1']);
    expect(reachableHosts('192.168.1.20', interfaces)).toEqual(['192.168.1.20']);
  });

  it("lists this machine's IPv4 addresses for 0.0.0.0, external first", () => {
    expect(reachableHosts('0.0.0.0', interfaces)).toEqual(['192.168.1.20', '127.0.0.1']);
  });

  it('lists every address but link-local ones for ::', () => {
    expect(reachableHosts('::', interfaces)).toEqual([
      '192.168.1.20',
      '2001:db8::5',
      '127.0.0.1',
      '::1',
    ]);
  });

  it('falls back to loopback on a machine without interfaces', () => {
    expect(reachableHosts('0.0.0.0', {})).toEqual(['127.0.0.1']);
  });
});
