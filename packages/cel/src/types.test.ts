import { Duration } from '@marcbachmann/cel-js/evaluator';
import type { StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { compile, createEnv } from './environment.js';
import { isCelError } from './errors.js';
import { thrownBy } from './test-helpers.js';
import { timestampNanos } from './timestamps.js';
import { celTypeOf, fromCelValue, toCelValue, toCelValueUntyped } from './types.js';

describe('type mapping from schemas', () => {
  it.each<[StructuralSchema, string]>([
    [{ type: 'integer' }, 'int'],
    [{ type: 'integer', format: 'int32' }, 'int'],
    [{ type: 'number' }, 'double'],
    [{ type: 'boolean' }, 'bool'],
    [{ type: 'string' }, 'string'],
    [{ type: 'string', format: 'byte' }, 'bytes'],
    [{ type: 'string', format: 'date' }, 'google.protobuf.Timestamp'],
    [{ type: 'string', format: 'date-time' }, 'google.protobuf.Timestamp'],
    [{ type: 'string', format: 'duration' }, 'google.protobuf.Duration'],
    [{ intOrString: true }, 'dyn'],
    [{ type: 'array', items: { type: 'integer' } }, 'list<int>'],
    [{ type: 'array', items: { type: 'array', items: { type: 'string' } } }, 'list<list<string>>'],
    [{ type: 'object', additionalProperties: { type: 'integer' } }, 'map<string, int>'],
    [{ type: 'object', properties: { a: { type: 'string' } } }, 'map<string, dyn>'],
    [{ preserveUnknownFields: true }, 'dyn'],
  ])('%j → %s', (schema, type) => {
    expect(celTypeOf(schema)).toBe(type);
  });
});

describe('schema-driven conversion', () => {
  const schema: StructuralSchema = {
    type: 'object',
    properties: {
      replicas: { type: 'integer' },
      ratio: { type: 'number' },
      port: { intOrString: true },
      data: { type: 'string', format: 'byte' },
      at: { type: 'string', format: 'date-time' },
      day: { type: 'string', format: 'date' },
      timeout: { type: 'string', format: 'duration' },
      'x-y': { type: 'string' },
      namespace: { type: 'string' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      '1bad': { type: 'string' },
    },
  };

  it('turns integers into int64, formats into CEL types, and escapes property names', () => {
    const v = toCelValue(
      {
        replicas: 3,
        ratio: 2,
        port: 8080,
        data: 'aGk=',
        at: '2024-01-02T03:04:05Z',
        day: '2024-01-02',
        timeout: '1m30s',
        'x-y': 'z',
        namespace: 'ns',
        labels: { 'app.kubernetes.io/name': 'web' },
        '1bad': 'dropped',
      },
      schema,
    ) as Record<string, unknown>;
    expect(v.replicas).toBe(3n);
    expect(v.ratio).toBe(2);
    expect(v.port).toBe(8080n);
    expect(v.data).toEqual(new Uint8Array([104, 105]));
    expect((v.at as Date).toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect((v.day as Date).toISOString()).toBe('2024-01-02T00:00:00.000Z');
    expect(v.timeout).toBeInstanceOf(Duration);
    expect((v.timeout as Duration).seconds).toBe(90n);
    expect(v.x__dash__y).toBe('z');
    expect(v.__namespace__).toBe('ns');
    expect(v.labels).toEqual({ 'app.kubernetes.io/name': 'web' });
    expect(Object.keys(v)).not.toContain('1bad');
  });

  it('round-trips back to JSON', () => {
    expect(fromCelValue({ a: 1n, b: [2n, 'x'], c: new Uint8Array([104, 105]) })).toEqual({
      a: 1,
      b: [2, 'x'],
      c: 'aGk=',
    });
  });

  const env = createEnv({ variables: { self: { schema } } });
  const self = toCelValue({ replicas: 3, 'x-y': 'z', namespace: 'ns', port: 'http', timeout: '90s' }, schema);
  it.each([
    ['self.replicas + 1 == 4', true],
    ['type(self.replicas) == int', true],
    ['self.x__dash__y', 'z'],
    ['self.__namespace__', 'ns'],
    ['self.port == "http"', true],
    ['self.timeout == duration("90s")', true],
  ])('%s → %s', (expr, want) => {
    expect(compile(expr, env).evaluate({ self })).toEqual(want);
  });

  it.each([
    'self.namespac',
    'self.x_y',
    'self.nosuch == 1',
    // field types are checked at compile time, as upstream
    'self.replicas + "a" == "b"',
    'self.x__dash__y + 1 == 2',
    'self.replicas.startsWith("1")',
    'self.labels.app == 1',
  ])('rejects %s at compile time', (expr) => {
    const err = thrownBy(() => compile(expr, env));
    expect(isCelError(err) && err.code).toBe('type-check');
  });
});

describe('list-type set and map semantics', () => {
  const schema: StructuralSchema = {
    type: 'object',
    properties: {
      set: { type: 'array', items: { type: 'string' }, listType: 'set' },
      atomic: { type: 'array', items: { type: 'string' } },
      ports: {
        type: 'array',
        listType: 'map',
        listMapKeys: ['name'],
        items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } },
      },
    },
  };
  const env = createEnv({ variables: { self: { schema }, oldSelf: { schema }, other: { schema } } });
  const self = toCelValue(
    {
      set: ['a', 'b'],
      atomic: ['a', 'b'],
      ports: [
        { name: 'http', port: 80 },
        { name: 'https', port: 443 },
      ],
    },
    schema,
  );
  const oldSelf = toCelValue(
    {
      set: ['b', 'a'],
      atomic: ['b', 'a'],
      ports: [
        { name: 'https', port: 443 },
        { name: 'http', port: 80 },
      ],
    },
    schema,
  );
  const other = toCelValue(
    {
      set: ['c', 'a'],
      ports: [
        { name: 'http', port: 8080 },
        { name: 'grpc', port: 9090 },
      ],
    },
    schema,
  );
  it.each([
    ['self.set == oldSelf.set', true],
    ['self.set == ["b", "a"]', true],
    ['self.set != oldSelf.set', false],
    ['self.atomic == oldSelf.atomic', false],
    ['self.ports == oldSelf.ports', true],
    ['self == oldSelf', false],
    ['self.set + ["c", "a"] == ["a", "b", "c"]', true],
    ['size(self.set + ["a"])', 2n],
    ['size(self.atomic + ["a"])', 3n],
    ['(self.ports + other.ports).map(p, p.port)', [8080n, 443n, 9090n]],
    ['size(self.ports + other.ports)', 3n],
    ['(self.set + other.set).size()', 3n],
  ])('%s → %s', (expr, want) => {
    expect(compile(expr, env).evaluate({ self, oldSelf, other })).toEqual(want);
  });
});

describe('nanosecond date-time values', () => {
  it('keeps the fraction beyond milliseconds both ways', () => {
    const schema = { type: 'string', format: 'date-time' } as const;
    const d = toCelValue('2024-01-02T03:04:05.123456789Z', schema) as Date;
    expect(timestampNanos(d) % 1_000_000_000n).toBe(123_456_789n);
    expect(fromCelValue(d)).toBe('2024-01-02T03:04:05.123456789Z');
    expect(fromCelValue(toCelValue('2024-01-02T03:04:05Z', schema))).toBe('2024-01-02T03:04:05.000Z');
  });
});

describe('hostile keys in client data', () => {
  it('keeps __proto__ and constructor as keys, never as the prototype or a schema', () => {
    const data = JSON.parse('{"__proto__":{"polluted":1},"constructor":{"x":2},"a":1}');
    const untyped = toCelValueUntyped(data) as Record<string, unknown>;
    expect(Object.getPrototypeOf(untyped)).toBe(Object.prototype);
    expect(Object.keys(untyped)).toEqual(['__proto__', 'constructor', 'a']);
    const typed = toCelValue(data, {
      type: 'object',
      properties: { a: { type: 'integer' } },
      preserveUnknownFields: true,
    }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(typed)).toBe(Object.prototype);
    expect(typed.a).toBe(1n);
    expect((typed as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});
