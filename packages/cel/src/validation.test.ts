import { kubernetesFlavor } from '@orchard/meta';
import type { StructuralSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { compileValidationRules, validateWithRules } from './validation.js';

const schema: StructuralSchema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      validations: [
        { rule: 'self.minReplicas <= self.maxReplicas', message: 'minReplicas must not exceed maxReplicas' },
        {
          rule: 'self.image.startsWith("registry.example.com/")',
          messageExpression: '"image " + self.image + " is not from the registry"',
          reason: 'FieldValueForbidden',
        },
        {
          rule: '!has(self.tier) || self.tier in ["gold", "silver"]',
          fieldPath: '.tier',
          reason: 'FieldValueRequired',
          message: 'tier must be gold or silver',
        },
        { rule: 'self.minReplicas >= oldSelf.minReplicas', message: 'minReplicas may not decrease' },
      ],
      properties: {
        minReplicas: { type: 'integer' },
        maxReplicas: { type: 'integer' },
        image: { type: 'string', maxLength: 256 },
        tier: { type: 'string', maxLength: 16 },
        mode: {
          type: 'string',
          maxLength: 16,
          validations: [{ rule: 'self == oldSelf', message: 'mode is immutable' }],
        },
        ports: {
          type: 'array',
          maxItems: 16,
          listType: 'map',
          listMapKeys: ['name'],
          items: {
            type: 'object',
            properties: { name: { type: 'string', maxLength: 16 }, port: { type: 'integer' } },
            validations: [
              { rule: 'self.port > 0 && self.port < 65536', message: 'port out of range' },
              { rule: 'self.port == oldSelf.port', message: 'port is immutable' },
            ],
          },
        },
        labels: {
          type: 'object',
          maxProperties: 8,
          additionalProperties: {
            type: 'string',
            maxLength: 63,
            validations: [{ rule: 'self.matches("^[a-z]+$")', message: 'lowercase only' }],
          },
        },
        optionalOld: {
          type: 'string',
          maxLength: 10,
          validations: [
            {
              rule: 'oldSelf.hasValue() || self == "initial"',
              optionalOldSelf: true,
              message: 'must start as initial',
            },
          ],
        },
      },
    },
  },
};

const valid = {
  spec: {
    minReplicas: 1,
    maxReplicas: 3,
    image: 'registry.example.com/app:1',
    tier: 'gold',
    mode: 'a',
    ports: [{ name: 'http', port: 80 }],
    labels: { app: 'web' },
    optionalOld: 'initial',
  },
};

describe('compileValidationRules', () => {
  it('compiles every rule of every node once', () => {
    const c = compileValidationRules(schema);
    expect(c.errors).toEqual([]);
    expect(c.root?.properties?.spec?.rules).toHaveLength(4);
    expect(c.root?.properties?.spec?.rules.map((r) => r.isTransition)).toEqual([false, false, false, true]);
    expect(c.totalEstimatedCost).toBeGreaterThan(0);
  });

  it.each<[string, StructuralSchema, RegExp, string]>([
    [
      'a syntax error',
      { type: 'object', validations: [{ rule: 'self.a ==' }] },
      /compilation failed/,
      'openAPIV3Schema.x-orch-validations[0].rule',
    ],
    [
      'a type error',
      { type: 'integer', validations: [{ rule: 'self + "a" == 1' }] },
      /compilation failed/,
      'openAPIV3Schema.x-orch-validations[0].rule',
    ],
    [
      'a non-bool rule',
      { type: 'integer', validations: [{ rule: 'self + 1' }] },
      /must evaluate to bool/,
      'openAPIV3Schema.x-orch-validations[0].rule',
    ],
    [
      'an undeclared field',
      { type: 'object', properties: { a: { type: 'string' } }, validations: [{ rule: 'self.b == "x"' }] },
      /undefined field 'b'/,
      'openAPIV3Schema.x-orch-validations[0].rule',
    ],
    [
      'an empty rule',
      { type: 'object', validations: [{ rule: '' }] },
      /Required value/,
      'openAPIV3Schema.x-orch-validations[0].rule',
    ],
    [
      'an unknown reason',
      { type: 'object', validations: [{ rule: 'true', reason: 'Nope' }] },
      /Unsupported value: "Nope"/,
      'openAPIV3Schema.x-orch-validations[0].reason',
    ],
    [
      'a fieldPath outside the schema',
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        validations: [{ rule: 'true', fieldPath: '.b' }],
      },
      /does not exist/,
      'openAPIV3Schema.x-orch-validations[0].fieldPath',
    ],
    [
      'a bad messageExpression',
      { type: 'string', validations: [{ rule: 'true', messageExpression: '1 + 1' }] },
      /messageExpression compilation failed/,
      'openAPIV3Schema.x-orch-validations[0].messageExpression',
    ],
    [
      'oldSelf inside an atomic list',
      { type: 'array', items: { type: 'string', maxLength: 5, validations: [{ rule: 'self == oldSelf' }] } },
      /uncorrelatable/,
      'openAPIV3Schema.items.x-orch-validations[0].rule',
    ],
    [
      'an expensive rule over unbounded lists',
      {
        type: 'object',
        properties: { xs: { type: 'array', items: { type: 'string' } } },
        validations: [{ rule: 'self.xs.all(a, self.xs.all(b, a == b))' }],
      },
      /estimated rule cost exceeds budget/,
      'openAPIV3Schema.x-orch-validations[0].rule',
    ],
    [
      'optionalOldSelf without oldSelf',
      { type: 'string', validations: [{ rule: 'self == "a"', optionalOldSelf: true }] },
      /may not be set/,
      'openAPIV3Schema.x-orch-validations[0].optionalOldSelf',
    ],
  ])('rejects %s', (_name, s, message, field) => {
    const c = compileValidationRules(s);
    expect(c.errors.map((e) => e.field)).toContain(field);
    expect(c.errors.map((e) => e.message).join('\n')).toMatch(message);
  });

  it('names the extension after the flavor', () => {
    const c = compileValidationRules(
      { type: 'object', validations: [{ rule: 'self.a ==' }] },
      { flavor: kubernetesFlavor },
    );
    expect(c.errors[0]?.field).toBe('openAPIV3Schema.x-kubernetes-validations[0].rule');
  });

  it('accepts the same expensive rule once the list is bounded', () => {
    const c = compileValidationRules({
      type: 'object',
      properties: { xs: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 10 } } },
      validations: [{ rule: 'self.xs.all(a, self.xs.all(b, a == b))' }],
    });
    expect(c.errors).toEqual([]);
  });
});

describe('validateWithRules', () => {
  const compiled = compileValidationRules(schema);

  it('accepts a valid object on create', () => {
    expect(validateWithRules(valid, undefined, compiled)).toEqual([]);
  });

  it('reports every failing rule with its field, reason and message', () => {
    const bad = {
      spec: {
        ...valid.spec,
        minReplicas: 5,
        image: 'docker.io/x',
        tier: 'bronze',
        ports: [{ name: 'http', port: 70000 }],
        labels: { app: 'Web' },
      },
    };
    expect(validateWithRules(bad, undefined, compiled)).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec',
        message: 'Invalid value: "object": minReplicas must not exceed maxReplicas',
      },
      {
        reason: 'FieldValueForbidden',
        field: 'spec',
        message: 'Forbidden: image docker.io/x is not from the registry',
      },
      {
        reason: 'FieldValueRequired',
        field: 'spec.tier',
        message: 'Required value: tier must be gold or silver',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.ports[0]',
        message: 'Invalid value: "object": port out of range',
      },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.labels[app]',
        message: 'Invalid value: "string": lowercase only',
      },
    ]);
  });

  it('runs transition rules only on update, against the correlated old value', () => {
    const old = { spec: { ...valid.spec, minReplicas: 2, mode: 'b', ports: [{ name: 'http', port: 8080 }] } };
    expect(validateWithRules(valid, old, compiled).map((c) => [c.field, c.message])).toEqual([
      ['spec', 'Invalid value: "object": minReplicas may not decrease'],
      ['spec.mode', 'Invalid value: "string": mode is immutable'],
      ['spec.ports[0]', 'Invalid value: "object": port is immutable'],
    ]);
  });

  it('skips a transition rule when the old value does not exist', () => {
    const old = { spec: { ...valid.spec, mode: undefined, ports: [{ name: 'other', port: 1 }] } };
    expect(validateWithRules(valid, old, compiled)).toEqual([]);
  });

  it('runs optionalOldSelf rules on create with oldSelf = optional.none()', () => {
    const bad = { spec: { ...valid.spec, optionalOld: 'other' } };
    expect(validateWithRules(bad, undefined, compiled).map((c) => c.message)).toEqual([
      'Invalid value: "string": must start as initial',
    ]);
    expect(validateWithRules(bad, { spec: { ...valid.spec, optionalOld: 'x' } }, compiled)).toEqual([]);
  });

  it('falls back to the default message', () => {
    const c = compileValidationRules({
      type: 'object',
      properties: { a: { type: 'integer' } },
      validations: [{ rule: 'self.a > 1' }],
    });
    expect(validateWithRules({ a: 0 }, undefined, c)).toEqual([
      { reason: 'FieldValueInvalid', field: '', message: 'Invalid value: "object": failed rule: self.a > 1' },
    ]);
  });

  it('reports a rule that errors at runtime', () => {
    const c = compileValidationRules({
      type: 'object',
      properties: { a: { type: 'integer' } },
      validations: [{ rule: 'self.a / 0 == 1' }],
    });
    expect(validateWithRules({ a: 1 }, undefined, c)[0]?.message).toMatch(
      /division by zero evaluating rule: self.a \/ 0 == 1/,
    );
  });

  it('stops with a cost error when the total budget runs out', () => {
    const s: StructuralSchema = {
      type: 'object',
      properties: { xs: { type: 'array', maxItems: 2000, items: { type: 'integer' } } },
      validations: [
        { rule: 'self.xs.all(a, self.xs.all(b, a != b || a == b))' },
        { rule: 'size(self.xs) > 0' },
      ],
    };
    const c = compileValidationRules(s, {
      estimatedCostLimit: Number.MAX_SAFE_INTEGER,
      crdEstimatedCostLimit: Number.MAX_SAFE_INTEGER,
    });
    const obj = { xs: Array.from({ length: 2000 }, (_, i) => i) };
    const causes = validateWithRules(obj, undefined, c, { budget: 100_000, perCallLimit: 1_000_000 });
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: '',
        message:
          'Invalid value: "object": validation failed due to running out of cost budget, no further validation rules will be run',
      },
    ]);
  });

  it('reports a rule that exceeds the per-call limit and goes on', () => {
    const s: StructuralSchema = {
      type: 'object',
      properties: { xs: { type: 'array', maxItems: 2000, items: { type: 'integer' } } },
      validations: [
        { rule: 'self.xs.all(a, self.xs.all(b, a != b || a == b))' },
        { rule: 'size(self.xs) < 0', message: 'second' },
      ],
    };
    const c = compileValidationRules(s, {
      estimatedCostLimit: Number.MAX_SAFE_INTEGER,
      crdEstimatedCostLimit: Number.MAX_SAFE_INTEGER,
    });
    const causes = validateWithRules({ xs: Array.from({ length: 2000 }, (_, i) => i) }, undefined, c);
    expect(causes.map((x) => x.message)).toEqual([
      'Invalid value: "object": call cost exceeds limit for rule: self.xs.all(a, self.xs.all(b, a != b || a == b))',
      'Invalid value: "object": second',
    ]);
  });
});
