/**
 * The pure packages on their own, no server: the same code the API server runs, usable in any
 * Node server, browser or edge runtime (they import no Node built-ins).
 *
 * - @orchard/schema: read a CRD-style OpenAPI schema, check it is structural, prune, default, validate;
 * - @orchard/cel: compile and evaluate expressions, and a schema's validation rules;
 * - @orchard/patch: strategic merge patch (lists merged by key) next to JSON merge patch;
 * - @orchard/ssa: two field managers applying to one object, a conflict, and `force`.
 */
import { pathToFileURL } from 'node:url';
import {
  compile,
  compileValidationRules,
  createEnv,
  isCelError,
  toCelValue,
  validateWithRules,
} from '@orchard/cel';
import { type ApiObject, kubernetesFlavor } from '@orchard/meta';
import { applyMergePatch, applyStrategicMergePatch } from '@orchard/patch';
import {
  applyDefaults,
  builtinSchema,
  checkStructural,
  formatFieldError,
  fromOpenApi,
  type OpenApiSchema,
  prune,
  type StructuralSchema,
  validate,
} from '@orchard/schema';
import { apply, isApplyConflict } from '@orchard/ssa';

const flavor = kubernetesFlavor; // x-kubernetes-* markers; orchFlavor reads x-orch-*

// ---------------------------------------------------------------------------------------------
// @orchard/schema

/** The `spec` schema of a CRD, as written in `openAPIV3Schema`. */
export const widgetSpecOpenApi: OpenApiSchema = {
  type: 'object',
  required: ['color'],
  'x-kubernetes-validations': [
    { rule: 'self.replicas <= self.maxReplicas', message: 'replicas must not exceed maxReplicas' },
  ],
  properties: {
    color: { type: 'string', enum: ['red', 'green', 'blue'] },
    replicas: { type: 'integer', minimum: 0, default: 1 },
    maxReplicas: { type: 'integer', default: 10 },
    memory: { 'x-kubernetes-int-or-string': true },
  },
};

export function schemaDemo() {
  const openApi: OpenApiSchema = { type: 'object', properties: { spec: widgetSpecOpenApi } };
  const structuralProblems = checkStructural(openApi, flavor, { path: 'openAPIV3Schema' });
  const notStructural = checkStructural(
    { type: 'object', properties: { spec: {} } }, // a property without a type
    flavor,
    { path: 'openAPIV3Schema' },
  ).map(formatFieldError);

  const schema = fromOpenApi(openApi, flavor);
  const obj = {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w' },
    spec: { color: 'pink', bogus: 1 },
  };
  const pruned = prune(obj, schema); // removes unknown fields in place, returns their paths
  applyDefaults(obj, schema); // fills replicas and maxReplicas
  const errors = validate(obj, schema).map(formatFieldError);
  return { structuralProblems, notStructural, pruned, defaulted: obj.spec, errors, schema };
}

// ---------------------------------------------------------------------------------------------
// @orchard/cel

export function celDemo() {
  const spec = fromOpenApi(widgetSpecOpenApi, flavor);
  const env = createEnv({ variables: { self: { schema: spec } } });

  const program = compile('self.replicas <= self.maxReplicas && self.color != "red"', env);
  const ok = program.evaluate({ self: toCelValue({ color: 'blue', replicas: 2, maxReplicas: 3 }, spec) });
  const tooMany = program.evaluate({
    self: toCelValue({ color: 'blue', replicas: 5, maxReplicas: 3 }, spec),
  });

  // The Kubernetes libraries: quantities, RE2 regexes, lists…
  const quantity = compile("quantity(string(self.memory)).isLessThan(quantity('1Gi'))", env).evaluate({
    self: toCelValue({ color: 'red', memory: '512Mi' }, spec),
  });

  // Type errors are found at compile time, with a position.
  let compileError = '';
  try {
    compile('self.replicas + "a"', env);
  } catch (e) {
    if (isCelError(e)) compileError = `${e.code}: ${e.message}`;
  }

  // A schema's x-kubernetes-validations rules, as the server runs them for custom resources.
  const rules = compileValidationRules(spec, { flavor });
  const causes = validateWithRules({ color: 'red', replicas: 20, maxReplicas: 5 }, undefined, rules);
  return { ok, tooMany, quantity, compileError, ruleErrors: rules.errors, causes };
}

// ---------------------------------------------------------------------------------------------
// @orchard/patch

const deploymentSchema = builtinSchema(flavor, 'apps', 'v1', 'Deployment') as StructuralSchema;

const deployment = (containers: { name: string; image: string }[], replicas = 3): ApiObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas, template: { spec: { containers } } },
});

export function patchDemo() {
  const current = deployment([
    { name: 'app', image: 'nginx:1' },
    { name: 'proxy', image: 'envoy:1' },
  ]);
  const change = { spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } };
  // Strategic merge: containers are merged by their `name` (patchMergeKey from the built-in schema).
  const strategic = applyStrategicMergePatch(current, change, deploymentSchema);
  // JSON merge patch (RFC 7386): lists are replaced, so `proxy` is gone.
  const merge = applyMergePatch(current, change);
  // A directive: delete one element by key.
  const deleted = applyStrategicMergePatch(
    current,
    { spec: { template: { spec: { containers: [{ name: 'proxy', $patch: 'delete' }] } } } },
    deploymentSchema,
  );
  const images = (o: unknown) =>
    (
      (o as { spec: { template: { spec: { containers: { name: string; image: string }[] } } } }).spec.template
        .spec.containers ?? []
    ).map((c) => `${c.name}=${c.image}`);
  return { strategic: images(strategic), merge: images(merge), deleted: images(deleted) };
}

// ---------------------------------------------------------------------------------------------
// @orchard/ssa

export function ssaDemo() {
  const opts = { apiVersion: 'apps/v1', kind: 'Deployment', schema: deploymentSchema };
  // "platform" creates the deployment with one container and 3 replicas.
  let live = apply(undefined, deployment([{ name: 'app', image: 'nginx:1' }], 3), {
    ...opts,
    manager: 'platform',
  }).object;
  // "injector" adds a sidecar: containers is a list-map keyed by name, so both managers co-exist.
  const sidecar: ApiObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { template: { spec: { containers: [{ name: 'proxy', image: 'envoy:1' }] } } },
  };
  live = apply(live, sidecar, { ...opts, manager: 'injector' }).object;

  // "autoscaler" wants 5 replicas, which "platform" owns: a conflict.
  const scale: ApiObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: { replicas: 5 },
  };
  let conflict = '';
  try {
    apply(live, scale, { ...opts, manager: 'autoscaler' });
  } catch (e) {
    if (!isApplyConflict(e)) throw e;
    conflict = e.message;
  }
  // With force the autoscaler takes spec.replicas; platform no longer owns it.
  live = apply(live, scale, { ...opts, manager: 'autoscaler', force: true }).object;

  const spec = live.spec as { replicas: number; template: { spec: { containers: { name: string }[] } } };
  return {
    replicas: spec.replicas,
    containers: spec.template.spec.containers.map((c) => c.name),
    conflict,
    managers: (live.metadata?.managedFields ?? []).map((m) => `${m.manager}:${m.operation}`),
    managedFields: live.metadata?.managedFields ?? [],
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const s = schemaDemo();
  console.log(
    'schema: structural problems',
    s.structuralProblems.length,
    '| not structural:',
    s.notStructural,
  );
  console.log('schema: pruned', s.pruned, '→ defaulted spec', JSON.stringify(s.defaulted));
  console.log('schema: validation errors', s.errors);
  const c = celDemo();
  console.log(
    'cel: rule on a good spec',
    c.ok,
    '| on too many replicas',
    c.tooMany,
    '| 512Mi < 1Gi',
    c.quantity,
  );
  console.log('cel: compile error', c.compileError);
  console.log('cel: validation rule causes', c.causes);
  const p = patchDemo();
  console.log('patch: strategic', p.strategic, '| merge patch', p.merge, '| $patch: delete', p.deleted);
  const a = ssaDemo();
  console.log('ssa: conflict', JSON.stringify(a.conflict));
  console.log('ssa: replicas', a.replicas, 'containers', a.containers, 'managers', a.managers);
}
