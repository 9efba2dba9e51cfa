import { type CompiledValidationRules, compileValidationRules, validateWithRules } from '@orchard/cel';
import { errors, type Flavor, type StatusCause } from '@orchard/meta';
import { fromOpenApi, type StructuralSchema } from '@orchard/schema';
import type { WriteStep } from '../handlers/write-pipeline.js';
import type { ResourceDefinition } from '../registry/resource.js';

/**
 * CRD validation rules (`x-…-validations`, CEL): compiled once per schema when the CRD is created
 * or changed (a rule that does not compile or costs too much rejects the CRD with a 422), then
 * evaluated on every create/update/patch/apply of the custom resources, all failures in one 422.
 */

type Obj = Record<string, any>;

/** Compiled rules by (flavor, schema JSON): validating the CRD and serving it compile only once. */
const cache = new Map<string, CompiledValidationRules>();
const cacheMax = 512;

export function compiledRulesFor(
  structural: StructuralSchema,
  flavor: Flavor,
  key: string,
  schemaPath?: string,
): CompiledValidationRules {
  const k = `${flavor.extensionPrefix}${schemaPath ?? ''}\u0000${key}`;
  let c = cache.get(k);
  if (c === undefined) {
    c = compileValidationRules(structural, { flavor, ...(schemaPath ? { schemaPath } : {}) });
    if (cache.size >= cacheMax) cache.delete(cache.keys().next().value as string);
    cache.set(k, c);
  }
  return c;
}

/** The causes that reject a CRD version whose rules do not compile or are too expensive. */
export function validateCrdRules(openAPIV3Schema: unknown, flavor: Flavor, path: string): StatusCause[] {
  const structural = fromOpenApi(openAPIV3Schema as Obj, flavor);
  const c = compiledRulesFor(structural, flavor, JSON.stringify(openAPIV3Schema), path);
  return c.errors.map((e) => ({ reason: e.reason, field: e.field, message: e.message }));
}

const byDefinition = new WeakMap<ResourceDefinition, ReadonlyMap<string, CompiledValidationRules>>();

/** Records the compiled rules of each version of a served custom resource. */
export function registerCrdRules(def: ResourceDefinition, crd: Obj, flavor: Flavor): void {
  const m = new Map<string, CompiledValidationRules>();
  for (const v of (crd.spec?.versions ?? []) as Obj[]) {
    const schema = v.schema?.openAPIV3Schema;
    if (schema === undefined) continue;
    const c = compiledRulesFor(fromOpenApi(schema, flavor), flavor, JSON.stringify(schema));
    if (c.root !== undefined) m.set(v.name, c);
  }
  byDefinition.set(def, m);
}

/** `validation-rules`: the CEL rules of a custom resource's schema; every failure is a 422 cause. */
export const crdValidationRulesStep: WriteStep = {
  name: 'validation-rules',
  operations: ['create', 'update', 'patch'],
  run(w) {
    const compiled = byDefinition.get(w.def)?.get(w.ctx.version);
    if (compiled === undefined) return;
    const causes = validateWithRules(w.obj, w.operation === 'create' ? undefined : w.old, compiled);
    if (causes.length === 0) return;
    const meta = w.obj.metadata ?? {};
    throw errors.invalid(w.def.group, w.def.kind, meta.name ?? meta.generateName ?? w.name, causes);
  },
};
