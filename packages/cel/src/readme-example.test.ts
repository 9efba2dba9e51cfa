import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubernetesFlavor } from '@orchard/meta';
import { fromOpenApi } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { compile, compileValidationRules, createEnv, toCelValue, validateWithRules } from './index.js';

/** The README's example, step by step, on a CRD version's schema (it takes a StructuralSchema). */
describe('README example', () => {
  const crd = {
    spec: {
      versions: [
        {
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { replicas: { type: 'integer' }, image: { type: 'string', maxLength: 200 } },
                  'x-kubernetes-validations': [{ rule: 'self.replicas <= 10', message: 'at most 10' }],
                },
              },
            },
          },
        },
      ],
    },
  };

  it('converts the OpenAPI schema with fromOpenApi before compiling rules', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
    expect(readme).toContain('fromOpenApi(crd.spec.versions[0].schema.openAPIV3Schema, kubernetesFlavor)');
    expect(readme).not.toContain('compileValidationRules(crd.');

    const schema = fromOpenApi(crd.spec.versions[0]!.schema.openAPIV3Schema, kubernetesFlavor);
    const spec = schema.properties!.spec!;
    const env = createEnv({ variables: { self: { schema: spec }, claims: 'map<string, dyn>' } });
    const program = compile('self.replicas <= 10 && self.image.matches("^registry/")', env);
    const obj = { spec: { replicas: 12, image: 'registry/app' } };
    expect(program.evaluate({ self: toCelValue(obj.spec, spec) }, { costBudget: 1_000_000 })).toBe(false);

    const rules = compileValidationRules(schema, { flavor: kubernetesFlavor });
    expect(rules.errors).toEqual([]);
    const causes = validateWithRules(obj, undefined, rules);
    expect(causes).toMatchObject([{ field: 'spec', message: expect.stringContaining('at most 10') }]);
  });
});
