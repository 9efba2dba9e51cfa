import { describe, expect, it } from 'vitest';
import { formatIp, parseIp, parsePortRange, parseServiceIpRange } from './ip-range.js';

describe('service ranges', () => {
  it.each([
    ['10.0.0.0/24', 'IPv4', '10.0.0.0/24', '10.0.0.1', 254],
    ['10.96.0.0/12', 'IPv4', '10.96.0.0/12', '10.96.0.1', 2 ** 20 - 2],
    ['10.0.0.7/30', 'IPv4', '10.0.0.4/30', '10.0.0.5', 2],
    ['fd00:10:96::/112', 'IPv6', 'fd00:10:96::/112', 'fd00:10:96::1', 65535],
  ])('%s → %s range %s from %s, %d addresses', (text, family, cidr, first, size) => {
    const r = parseServiceIpRange(text);
    expect(r).toMatchObject({ family, cidr, size });
    expect(formatIp(r.family, r.base)).toBe(first);
  });

  it.each([
    [
      '10.0.0.0/8',
      'specified --service-cluster-ip-range is too large; for 32-bit addresses, the mask must be >= 12',
    ],
    ['fd00::/64', 'for 128-bit addresses, the mask must be >= 108'],
    ['10.0.0.0', 'invalid CIDR address'],
    ['10.0.0.256/24', 'invalid CIDR address'],
    ['10.0.0.0/33', 'invalid CIDR address'],
    ['10.0.0.0/24,fd00::/112', 'dual-stack ranges are not supported'],
    ['10.0.0.0/32', 'holds no allocatable address'],
  ])('refuses %s', (text, message) => {
    expect(() => parseServiceIpRange(text)).toThrow(message);
  });

  it('parses and prints addresses as Go does', () => {
    expect(parseIp('010.0.0.1')).toBeUndefined();
    expect(parseIp('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(parseIp('nope')).toBeUndefined();
    const v6 = parseIp('2001:DB8:0:0:1:0:0:1');
    expect(v6 && formatIp(v6.family, v6.value)).toBe('2001:db8::1:0:0:1');
    const zero = parseIp('::');
    expect(zero && formatIp(zero.family, zero.value)).toBe('::');
  });

  it('parses node-port ranges', () => {
    expect(parsePortRange('30000-32767')).toEqual({ base: 30000, size: 2768 });
    expect(parsePortRange('8080')).toEqual({ base: 8080, size: 1 });
    for (const bad of ['0-10', '10-5', '30000-70000', 'a-b', ''])
      expect(() => parsePortRange(bad)).toThrow('--service-node-port-range');
  });
});
