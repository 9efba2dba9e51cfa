/**
 * Compiling CRD validation rules: every rule of every schema node once, rejecting rules that do not
 * compile, whose estimated cost is too high, or whose `reason`/`fieldPath`/`message` are invalid.
 */
import { type Flavor, orchFlavor } from '@orchard/meta';
import { fieldSchema, type StructuralSchema, type ValidationRule } from '@orchard/schema';
import { maxSizeOf } from './cost-estimator.js';
import { type CelEnv, type CelFeatureGates, compile, createEnv, type Program } from './environment.js';
import { type CelErrorCode, isCelError } from './errors.js';
import { StaticEstimatedCostLimit, StaticEstimatedCRDCostLimit } from './limits.js';
import { celTypeOf } from './types.js';

/** The reasons a rule may declare (default `FieldValueInvalid`). */
export const validationRuleReasons = [
  'FieldValueInvalid',
  'FieldValueForbidden',
  'FieldValueRequired',
  'FieldValueDuplicate',
] as const;
/**
 * A `reason` a validation rule may declare, one of `validationRuleReasons`; any other value rejects the rule
 * when it is compiled.
 */
export type ValidationRuleReason = (typeof validationRuleReasons)[number];

/** Longest message a `messageExpression` may produce before it is replaced by the static message. */
export const MaxMessageExpressionLength = 5000;

/**
 * Options of `compileValidationRules`; all optional, with the defaults named on each field. Problems with the
 * rules are returned as `errors`, never thrown.
 */
export interface CompileValidationRulesOptions {
  /** Names the extension in error paths (`x-orch-validations` / `x-kubernetes-validations`). Default orch. */
  flavor?: Flavor;
  /** Path prefix of the schema in error paths. Default `openAPIV3Schema`. */
  schemaPath?: string;
  /** Per-rule estimated cost limit. Default `StaticEstimatedCostLimit`. */
  estimatedCostLimit?: number;
  /** Limit of the sum over rules of estimated cost × cardinality. Default `StaticEstimatedCRDCostLimit`. */
  crdEstimatedCostLimit?: number;
  featureGates?: Partial<CelFeatureGates>;
}

/** Why a rule was rejected (a cause of the CRD's 422). */
export interface ValidationRuleError {
  /** Path of the offending field, e.g. `openAPIV3Schema.properties[spec].x-orch-validations[0].rule`. */
  field: string;
  reason: 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueForbidden';
  message: string;
  /** The CelError code behind it, when it comes from compiling. */
  code?: CelErrorCode;
}

/**
 * One `x-orch-validations` / `x-kubernetes-validations` rule that compiled: its position in the schema node's
 * list, the rule as written, its program and its `messageExpression` program (undefined without one).
 * Immutable; reusable for any number of validations.
 */
export interface CompiledRule {
  readonly index: number;
  readonly rule: ValidationRule;
  readonly program: Program;
  readonly messageProgram: Program | undefined;
  /** Whether the rule refers to `oldSelf` (a transition rule). */
  readonly isTransition: boolean;
  /** Estimated cost × how many times the rule can run per object. */
  readonly estimatedTotalCost: number;
}

/**
 * The compiled rules of one schema node and the compiled nodes below it (by property name, for additional
 * properties, and for list items); subtrees without rules are left out.
 */
export interface CompiledNode {
  readonly schema: StructuralSchema;
  readonly rules: readonly CompiledRule[];
  readonly properties?: Readonly<Record<string, CompiledNode>>;
  readonly additionalProperties?: CompiledNode;
  readonly items?: CompiledNode;
}

/**
 * The result of `compileValidationRules` for one schema: the compiled tree to pass to `validateWithRules`,
 * every rule that was rejected, and the estimated cost of the whole schema.
 */
export interface CompiledValidationRules {
  /** The compiled tree (undefined when the schema has no rules anywhere). */
  readonly root: CompiledNode | undefined;
  /** Every rejected rule; non-empty means the CRD must be rejected. */
  readonly errors: readonly ValidationRuleError[];
  readonly totalEstimatedCost: number;
}

interface Walk {
  path: string;
  cardinality: number;
  correlatable: boolean;
}

/** The environments of one `compileValidationRules` call, by schema node and variables (owned by that call). */
type EnvCache = Map<StructuralSchema, Map<string, CelEnv>>;

function envFor(
  envCache: EnvCache,
  schema: StructuralSchema,
  optionalOldSelf: boolean,
  gates: Partial<CelFeatureGates> | undefined,
): CelEnv {
  const key = `${optionalOldSelf}:${JSON.stringify(gates ?? {})}`;
  let m = envCache.get(schema);
  if (m === undefined) {
    m = new Map();
    envCache.set(schema, m);
  }
  let env = m.get(key);
  if (env === undefined) {
    env = createEnv({
      variables: {
        self: { schema },
        oldSelf: optionalOldSelf
          ? { type: `optional<${celTypeOf(schema)}>`, optionalOf: schema }
          : { schema },
      },
      ...(gates ? { featureGates: gates } : {}),
    });
    m.set(key, env);
  }
  return env;
}

const fieldPathSegment = /^(?:\.([a-zA-Z_][a-zA-Z0-9_-]*)|\['((?:[^'\\]|\\.)*)'\])/;

/** Resolves a rule's relative `fieldPath` (`.spec.x`, `['a.b']`) against `schema`; an error message or undefined. */
function checkFieldPath(fieldPath: string, schema: StructuralSchema): string | undefined {
  let rest = fieldPath;
  let s: StructuralSchema | undefined = schema;
  if (rest === '') return 'must not be empty';
  while (rest.length > 0) {
    const m = fieldPathSegment.exec(rest);
    if (!m) return `invalid field path: ${fieldPath}`;
    const name = m[1] ?? (m[2] as string).replace(/\\(.)/g, '$1');
    const next: StructuralSchema | undefined = fieldSchema(s, name);
    if (next === undefined && !s?.preserveUnknownFields)
      return `fieldPath ${fieldPath} does not exist in the schema`;
    s = next;
    rest = rest.slice(m[0].length);
  }
  return undefined;
}

function compileNode(
  schema: StructuralSchema,
  w: Walk,
  ext: string,
  opts: Required<Pick<CompileValidationRulesOptions, 'estimatedCostLimit'>> &
    CompileValidationRulesOptions & { readonly envs: EnvCache },
  errors: ValidationRuleError[],
  total: { cost: number },
): CompiledNode | undefined {
  const rules: CompiledRule[] = [];
  (schema.validations ?? []).forEach((rule, index) => {
    const at = `${w.path}.${ext}[${index}]`;
    if (typeof rule.rule !== 'string' || rule.rule.trim() === '') {
      errors.push({ field: `${at}.rule`, reason: 'FieldValueRequired', message: 'Required value' });
      return;
    }
    if (rule.reason !== undefined && !(validationRuleReasons as readonly string[]).includes(rule.reason)) {
      errors.push({
        field: `${at}.reason`,
        reason: 'FieldValueInvalid',
        message: `Unsupported value: "${rule.reason}": supported values: ${validationRuleReasons.map((r) => `"${r}"`).join(', ')}`,
      });
    }
    if (rule.fieldPath !== undefined) {
      const bad = checkFieldPath(rule.fieldPath, schema);
      if (bad)
        errors.push({
          field: `${at}.fieldPath`,
          reason: 'FieldValueInvalid',
          message: `Invalid value: "${rule.fieldPath}": ${bad}`,
        });
    }
    if (rule.message !== undefined && (rule.message.trim() === '' || /[\r\n]/.test(rule.message))) {
      errors.push({
        field: `${at}.message`,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(rule.message)}: message must be non-empty and must not contain line breaks`,
      });
    }
    const env = envFor(opts.envs, schema, rule.optionalOldSelf === true, opts.featureGates);
    let program: Program;
    try {
      program = compile(rule.rule, env, { outputType: 'bool', estimatedCostLimit: opts.estimatedCostLimit });
    } catch (e) {
      if (!isCelError(e)) throw e;
      const what =
        e.code === 'estimated-cost-exceeded' ? 'Forbidden' : `Invalid value: ${JSON.stringify(rule.rule)}`;
      errors.push({
        field: `${at}.rule`,
        reason: e.code === 'estimated-cost-exceeded' ? 'FieldValueForbidden' : 'FieldValueInvalid',
        message: `${what}: ${e.code === 'estimated-cost-exceeded' ? '' : 'compilation failed: '}${e.message}`,
        code: e.code,
      });
      return;
    }
    const isTransition = program.references.has('oldSelf');
    if (isTransition && !w.correlatable) {
      errors.push({
        field: `${at}.rule`,
        reason: 'FieldValueInvalid',
        message: `Invalid value: ${JSON.stringify(rule.rule)}: oldSelf cannot be used on the uncorrelatable portion of the schema within ${w.path}`,
      });
      return;
    }
    if (rule.optionalOldSelf && !isTransition) {
      errors.push({
        field: `${at}.optionalOldSelf`,
        reason: 'FieldValueForbidden',
        message: 'Forbidden: may not be set if rule does not use oldSelf',
      });
    }
    let messageProgram: Program | undefined;
    if (rule.messageExpression !== undefined) {
      try {
        messageProgram = compile(rule.messageExpression, env, {
          outputType: 'string',
          estimatedCostLimit: opts.estimatedCostLimit,
        });
      } catch (e) {
        if (!isCelError(e)) throw e;
        errors.push({
          field: `${at}.messageExpression`,
          reason: e.code === 'estimated-cost-exceeded' ? 'FieldValueForbidden' : 'FieldValueInvalid',
          message: `Invalid value: ${JSON.stringify(rule.messageExpression)}: messageExpression compilation failed: ${e.message}`,
          code: e.code,
        });
      }
    }
    const cost = (program.estimatedCost.max + (messageProgram?.estimatedCost.max ?? 0)) * w.cardinality;
    total.cost += cost;
    rules.push({ index, rule, program, messageProgram, isTransition, estimatedTotalCost: cost });
  });

  const node: {
    schema: StructuralSchema;
    rules: CompiledRule[];
    properties?: Record<string, CompiledNode>;
    additionalProperties?: CompiledNode;
    items?: CompiledNode;
  } = {
    schema,
    rules,
  };
  let any = rules.length > 0;
  if (schema.properties) {
    const props: Record<string, CompiledNode> = {};
    for (const [name, ps] of Object.entries(schema.properties)) {
      const c = compileNode(ps, { ...w, path: `${w.path}.properties[${name}]` }, ext, opts, errors, total);
      if (c) props[name] = c;
    }
    if (Object.keys(props).length > 0) {
      node.properties = props;
      any = true;
    }
  }
  if (typeof schema.additionalProperties === 'object') {
    const c = compileNode(
      schema.additionalProperties,
      {
        path: `${w.path}.additionalProperties`,
        cardinality: w.cardinality * maxSizeOf(schema),
        correlatable: w.correlatable,
      },
      ext,
      opts,
      errors,
      total,
    );
    if (c) {
      node.additionalProperties = c;
      any = true;
    }
  }
  if (schema.items) {
    const c = compileNode(
      schema.items,
      {
        path: `${w.path}.items`,
        cardinality: w.cardinality * maxSizeOf(schema),
        correlatable: w.correlatable && schema.listType === 'map',
      },
      ext,
      opts,
      errors,
      total,
    );
    if (c) {
      node.items = c;
      any = true;
    }
  }
  return any ? node : undefined;
}

/** Compiles every validation rule of `schema` (once, when the CRD is created or updated). */
export function compileValidationRules(
  schema: StructuralSchema,
  options: CompileValidationRulesOptions = {},
): CompiledValidationRules {
  const flavor = options.flavor ?? orchFlavor;
  const ext = flavor.ext('validations');
  const errors: ValidationRuleError[] = [];
  const total = { cost: 0 };
  const opts = {
    ...options,
    estimatedCostLimit: options.estimatedCostLimit ?? StaticEstimatedCostLimit,
    envs: new Map() as EnvCache,
  };
  const root = compileNode(
    schema,
    { path: options.schemaPath ?? 'openAPIV3Schema', cardinality: 1, correlatable: true },
    ext,
    opts,
    errors,
    total,
  );
  const crdLimit = options.crdEstimatedCostLimit ?? StaticEstimatedCRDCostLimit;
  if (total.cost > crdLimit) {
    errors.push({
      field: options.schemaPath ?? 'openAPIV3Schema',
      reason: 'FieldValueForbidden',
      message: `Forbidden: ${ext} estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of ${(total.cost / crdLimit).toFixed(1)}x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
    });
  }
  return { root, errors, totalEstimatedCost: total.cost };
}
