import { describe, expect, it } from 'vitest';
import {
  children,
  ipBytes,
  ipVersion,
  namedBits,
  oid,
  readElement,
  sequence,
  tlv,
  unsignedInteger,
  x509Time,
} from './der.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('DER building blocks', () => {
  it('encode lengths in their shortest form', () => {
    expect(hex(tlv(0x04, Buffer.alloc(3)))).toBe('0403000000');
    expect(hex(tlv(0x04, Buffer.alloc(200))).slice(0, 6)).toBe('0481c8');
    expect(hex(tlv(0x04, Buffer.alloc(300))).slice(0, 8)).toBe('0482012c');
  });

  it('encode integers minimally, with a zero byte before a set high bit', () => {
    expect(hex(unsignedInteger(Buffer.from([0, 0, 5])))).toBe('020105');
    expect(hex(unsignedInteger(Buffer.from([0x80])))).toBe('02020080');
    expect(hex(unsignedInteger(Buffer.from([0])))).toBe('020100');
  });

  it('encode object identifiers (ecdsa-with-SHA256, extKeyUsage serverAuth)', () => {
    expect(hex(oid('1.2.840.10045.4.3.2'))).toBe('06082a8648ce3d040302');
    expect(hex(oid('1.3.6.1.5.5.7.3.1'))).toBe('06082b06010505070301');
  });

  it('drop trailing zero bits of named bit lists (key usage)', () => {
    expect(hex(namedBits([0, 5, 6]))).toBe('03020186');
    expect(hex(namedBits([0, 2]))).toBe('030205a0');
  });

  it('write UTCTime through 2049 and GeneralizedTime from 2050', () => {
    expect(
      Buffer.from(x509Time(new Date('2049-12-31T23:59:59.900Z')))
        .subarray(2)
        .toString(),
    ).toBe('491231235959Z');
    expect(hex(x509Time(new Date('2050-01-01T00:00:00Z'))).slice(0, 2)).toBe('18');
  });

  it('turn IPv4 and IPv6 addresses (compressed, embedded IPv4) into bytes', () => {
    expect(hex(ipBytes('192.0.2.7'))).toBe('c0000207');
    expect(hex(ipBytes('::1'))).toBe(`${'00'.repeat(15)}01`);
    expect(hex(ipBytes('2001:db8::1:0:0:1'))).toBe('20010db8000000000001000000000001');
    expect(hex(ipBytes('::ffff:10.1.2.3'))).toBe(`${'00'.repeat(10)}ffff0a010203`);
    expect(() => ipBytes('example.com')).toThrow('not an IP address: example.com');
  });

  it('answer the loopback addresses from a table that agrees with the parser, with a fresh copy each time', () => {
    expect(hex(ipBytes('127.0.0.1'))).toBe('7f000001');
    expect(ipBytes('::1')).toEqual(ipBytes('0:0:0:0:0:0:0:1'));
    expect(ipBytes('::1')).toEqual(ipBytes('::0.0.0.1'));
    const mine = ipBytes('127.0.0.1');
    mine.fill(0);
    expect(hex(ipBytes('127.0.0.1'))).toBe('7f000001');
  });

  it('read elements back, and refuse truncated or oversized lengths', () => {
    const seq = sequence(tlv(0x02, Buffer.from([1])), tlv(0x04, Buffer.alloc(130)));
    const parts = children(readElement(seq).contents);
    expect(parts.map((p) => p.tag)).toEqual([0x02, 0x04]);
    expect(parts[1]?.contents.length).toBe(130);
    expect(() => readElement(seq.subarray(0, seq.length - 1))).toThrow('DER: truncated element');
    expect(() => readElement(Buffer.from([0x30]))).toThrow('DER: truncated element');
    expect(() => readElement(Buffer.from([0x30, 0x85, 1, 1, 1, 1, 1]))).toThrow('DER: unsupported length');
    expect(() => readElement(Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff]))).toThrow(
      'DER: truncated element',
    );
  });
});

describe('ipVersion', () => {
  it('answers as net.isIP does', async () => {
    const { isIP } = await import('node:net');
    const cases = [
      '127.0.0.1',
      '::1',
      '0:0:0:0:0:0:0:1',
      '255.255.255.255',
      '256.1.1.1',
      '01.2.3.4',
      '1.2.3',
      '::',
      '::1',
      '1::',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7::8',
      '1::2::3',
      'fe80::1%eth0',
      '::ffff:10.1.2.3',
      '::ffff:300.1.2.3',
      '12345::',
      'g::1',
      'localhost',
      'host.example',
      '',
      ':',
      ':::',
      '1:2:3:4:5:6:1.2.3.4',
      '1:2:3:4:5:6:7:1.2.3.4',
      '[::1]',
      '__proto__',
      'a'.repeat(10_000),
    ];
    for (const c of cases) expect([c, ipVersion(c)]).toEqual([c, isIP(c)]);
  });
});
