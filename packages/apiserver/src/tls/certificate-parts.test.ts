import { describe, expect, it } from 'vitest';
import { certificateParts as parts } from './certificate-parts.js';
import { booleanTrue, explicit, namedBits, octets, oid, sequence, unsignedInteger } from './der.js';

/** An extension as RFC 5280 §4.1 defines it (criticality FALSE is the default, so left out). */
const extension = (id: string, critical: boolean, value: Uint8Array) =>
  critical ? sequence(oid(id), booleanTrue(), octets(value)) : sequence(oid(id), octets(value));
/** Key usage bits (RFC 5280 §4.2.1.3). */
const usage = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;

describe('fixed certificate parts', () => {
  it.each([
    ['version3', explicit(0, unsignedInteger(Buffer.from([2])))],
    ['ecdsaWithSha256', sequence(oid('1.2.840.10045.4.3.2'))],
    ['commonName', oid('2.5.4.3')],
    ['organization', oid('2.5.4.10')],
    ['subjectKeyIdentifier', oid('2.5.29.14')],
    ['authorityKeyIdentifier', oid('2.5.29.35')],
    ['subjectAltName', oid('2.5.29.17')],
    ['caBasicConstraints', extension('2.5.29.19', true, sequence(booleanTrue()))],
    [
      'caKeyUsage',
      extension('2.5.29.15', true, namedBits([usage.digitalSignature, usage.keyCertSign, usage.cRLSign])),
    ],
    ['leafBasicConstraints', extension('2.5.29.19', true, sequence())],
    [
      'leafKeyUsage',
      extension('2.5.29.15', true, namedBits([usage.digitalSignature, usage.keyEncipherment])),
    ],
    ['serverAuth', extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1')))],
    ['clientAuth', extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.2')))],
  ] as const)('%s is what der.ts builds from its definition', (name, built) => {
    expect(parts[name].toString('hex')).toBe(built.toString('hex'));
  });
});
