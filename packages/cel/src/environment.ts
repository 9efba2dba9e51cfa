/**
 * Environments and programs: `createEnv()` declares variables (by CEL type or by schema) and
 * feature gates; `compile(expr, env)` parses and type-checks once; `program.evaluate()` runs under
 * a cost budget.
 */
import { Environment } from '@marcbachmann/cel-js';
import type { StructuralSchema } from '@orchard/schema';
import { CompileHooks } from './compile-hooks.js';
import { type CostEstimate, estimateCost, type FieldCache } from './cost-estimator.js';
import { CelError, fromEngineError, isCelError } from './errors.js';
import { registerLibraries } from './library/index.js';
import { resolveNames } from './names.js';
import {
  applyParsed,
  type Checker,
  type CheckHooks,
  captureChecker,
  captureEvaluator,
  type EngineNode,
  type Evaluator,
  hooksSymbol,
  lenientSymbol,
  type Preprocessed,
  paramsAsDyn,
  preprocess,
  registerCheckProbe,
  registerProbe,
} from './patches/index.js';
import { CompiledProgram, type EvaluationAst, type Program } from './program.js';

export type { EvaluateOptions, EvaluationResult, Program } from './program.js';

import { type CelType, celTypeOf, registerSchemaTypes } from './types.js';

/** Feature gates that change the environment (same names and defaults as upstream). */
export interface CelFeatureGates {
  /** `.fieldSelector()` / `.labelSelector()` on authorizer resource checks. Alpha in 1.31: default false. */
  AuthorizeWithSelectors: boolean;
}

/**
 * The feature gates an environment gets for each gate `CelEnvOptions.featureGates` leaves unset: all off, as
 * upstream 1.32. Frozen; pass a partial `featureGates` instead of mutating it.
 */
export const defaultCelFeatureGates: Readonly<CelFeatureGates> = Object.freeze({
  AuthorizeWithSelectors: false,
});

/** A declared variable: a CEL type, or a schema (its type is derived, its sizes bound the cost estimate). */
export interface VariableDeclaration {
  type?: CelType;
  schema?: StructuralSchema;
  /** With `type: 'optional<…>'`: the schema of the optional's value (for compile-time field types). */
  optionalOf?: StructuralSchema;
}

/**
 * Options of `createEnv`: the declared variables, feature gates, container and extra functions; every field
 * is optional and an empty object gives an environment with the spec's libraries and no variables.
 * `createEnv` copies what it needs and does not mutate this object.
 */
export interface CelEnvOptions {
  /** Variables by name: a CEL type (`'int'`, `'map<string, dyn>'`, `'Authorizer'`) or a declaration. */
  variables?: Record<string, CelType | VariableDeclaration>;
  featureGates?: Partial<CelFeatureGates>;
  /**
   * The namespace names are resolved in (cel-go's container): with `'x.y'`, an identifier `z`
   * resolves to a declared `x.y.z`, else `x.z`, else `z`.
   */
  container?: string;
  /**
   * Functions by signature (`'fn(string, int): string'`, a method `'string.shout(): string'`),
   * type-checked like the built-in ones; the implementation gets the CEL values (int64 as
   * `bigint`, …) and returns one. Evaluation stays synchronous.
   */
  functions?: Record<string, (...args: never[]) => unknown>;
}

/** A compiled-against environment. Create once, compile many expressions against it. */
export interface CelEnv {
  readonly variables: ReadonlyMap<string, { type: CelType; schema?: StructuralSchema }>;
  readonly featureGates: Readonly<CelFeatureGates>;
  readonly container: string | undefined;
}

interface EnvInternals extends CelEnv {
  engine: Environment;
  evaluator: Evaluator;
  checker: Checker;
  /** A checking-only environment where schema objects are message types (field types checked). */
  typed: { engine: Environment; checker: Checker } | undefined;
  /** The declared variable names. */
  declared: ReadonlySet<string>;
  /** Whether names need resolving (a container or dotted variable names); set on first compile. */
  resolvesNames?: boolean;
  /** The estimate's field lookups in the variables' schemas (see `FieldCache`). */
  fields: FieldCache;
}

const bases = new Map<string, Environment>();

function baseEnvironment(gates: CelFeatureGates): Environment {
  const key = JSON.stringify(gates);
  let base = bases.get(key);
  if (base === undefined) {
    base = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false });
    registerProbe(base);
    registerCheckProbe(base);
    registerLibraries(base, gates);
    bases.set(key, base);
  }
  return base;
}

/** An environment with the spec's libraries and the given variables. */
export function createEnv(options: CelEnvOptions = {}): CelEnv {
  const featureGates = Object.freeze({ ...defaultCelFeatureGates, ...options.featureGates });
  const engine = baseEnvironment(featureGates).clone();
  const variables = new Map<string, { type: CelType; schema?: StructuralSchema }>();
  for (const [name, decl] of Object.entries(options.variables ?? {})) {
    const d = typeof decl === 'string' ? { type: decl } : decl;
    const type = d.type ?? celTypeOf(d.schema);
    try {
      engine.registerVariable(name, type);
    } catch (e) {
      throw new CelError('invalid-argument', `variable ${name}: ${(e as Error).message}`, { cause: e });
    }
    variables.set(name, d.schema === undefined ? { type } : { type, schema: d.schema });
  }
  const register = (target: Environment): void => {
    for (const [signature, impl] of Object.entries(options.functions ?? {})) {
      try {
        target.registerFunction(signature, impl as (...a: unknown[]) => unknown);
      } catch (e) {
        throw new CelError('invalid-argument', `function ${signature}: ${(e as Error).message}`, {
          cause: e,
        });
      }
    }
  };
  register(engine);
  const evaluator = captureEvaluator(engine);
  const checker = captureChecker(engine);
  let typed: EnvInternals['typed'];
  if ([...variables.values()].some((v) => v.schema !== undefined)) {
    const typedEngine = baseEnvironment(featureGates).clone();
    register(typedEngine);
    let n = 0;
    const next = () => `orchard.Object${++n}`;
    const seen = new Map<StructuralSchema, CelType>();
    for (const [name, v] of variables) {
      let type = v.type;
      if (v.schema !== undefined) type = registerSchemaTypes(typedEngine, v.schema, next, seen);
      else if (/^optional<.*>$/.test(type) && typeof options.variables?.[name] === 'object') {
        const inner = (options.variables[name] as VariableDeclaration).optionalOf;
        if (inner !== undefined) type = `optional<${registerSchemaTypes(typedEngine, inner, next, seen)}>`;
      }
      typedEngine.registerVariable(name, type);
    }
    typed = { engine: typedEngine, checker: captureChecker(typedEngine, true) };
  }
  const container = options.container || undefined;
  const declared: ReadonlySet<string> = new Set(variables.keys());
  const env: EnvInternals = {
    variables,
    featureGates,
    container,
    engine,
    evaluator,
    checker,
    typed,
    declared,
    fields: new Map(),
  };
  return env;
}

/**
 * Options of `compile`; all optional. `compile` throws a CelError with code `parse`, `type-check` (including
 * a wrong `outputType`) or `estimated-cost-exceeded` when the expression is rejected.
 */
export interface CompileOptions {
  /** Reject the expression when its estimated worst-case cost exceeds this (no check when unset). */
  estimatedCostLimit?: number;
  /** Required output type (`'bool'` for a validation rule, `'string'` for a message expression). */
  outputType?: CelType;
  /**
   * `false`: compile without type-checking (cel-go's unchecked programs). Parse errors are still
   * reported, but every operator, function and field selection dispatches on the runtime types,
   * an identifier that is not declared is read from the activation, and a call with no matching
   * overload or an unknown function fails when it is evaluated (so `f(1) || true` is `true`).
   * The output type is `dyn`. Default `true`; rules and anything user-facing should keep it.
   */
  check?: boolean;
}

/** Whether a compile against `env` must resolve qualified names (computed once per environment). */
function needsNameResolution(env: EnvInternals): boolean {
  let v = env.resolvesNames;
  if (v === undefined) {
    v = env.container !== undefined || [...env.variables.keys()].some((k) => k.includes('.'));
    env.resolvesNames = v;
  }
  return v;
}

/** Parse-level rewrites of a parsed AST, before it is checked (the `has()` fix rides on the check). */
function resolveParsed(root: EngineNode, pre: Preprocessed, env: EnvInternals, unchecked: boolean): void {
  if (pre.changed || pre.bytes.size > 0) applyParsed(root, pre);
  if (unchecked || needsNameResolution(env))
    resolveNames(root, { declared: env.declared, container: env.container, unchecked });
}

/**
 * Checks `parsed` on `checker` with `hooks` seeing every node once; restores the checker's state.
 * Returns the engine's check result (`{ valid, type?, error? }`).
 */
function checkHooked(
  parsed: ReturnType<Environment['parse']>,
  checker: Checker,
  hooks: CheckHooks,
  lenient: boolean,
): ReturnType<ReturnType<Environment['parse']>['check']> {
  checker[hooksSymbol] = hooks;
  if (lenient) checker[lenientSymbol] = true;
  try {
    return parsed.check();
  } finally {
    checker[hooksSymbol] = undefined;
    checker[lenientSymbol] = false;
  }
}

/** The estimate of `root`; its `type-check` errors (undefined fields) carry the expression. */
function estimateOrThrow(root: EngineNode, expr: string, env: EnvInternals): CostEstimate {
  try {
    return estimateCost(root, env.variables, env.fields);
  } catch (e) {
    if (isCelError(e))
      throw new CelError(e.code, e.summary, { expression: expr, position: e.position, detail: e.detail });
    throw e;
  }
}

interface Prepared extends EvaluationAst {
  type: CelType;
  references: ReadonlySet<string>;
}

/**
 * The evaluation AST of `expr`: parsed, names resolved, checked against the evaluation environment
 * with the `has()` fix, the checked-AST patches and the map-literal checks applied in the same pass.
 * Throws the `parse`/`type-check` CelError compile reports.
 */
function prepareEvaluation(expr: string, pre: Preprocessed, env: EnvInternals, unchecked: boolean): Prepared {
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = env.engine.parse(pre.source);
  } catch (e) {
    throw fromEngineError(e, expr, 'parse', pre.toOriginal);
  }
  const root = parsed.ast as unknown as EngineNode;
  resolveParsed(root, pre, env, unchecked);
  const hooks = new CompileHooks(expr, unchecked, env.variables);
  const checked = checkHooked(parsed, env.checker, hooks, unchecked);
  if (!checked.valid)
    throw fromEngineError(checked.error, expr, checked.error?.name === 'ParseError' ? 'parse' : 'type-check');
  hooks.finish();
  let type = unchecked ? 'dyn' : (checked.type ?? 'dyn');
  const rootType = root.checkedType as Parameters<typeof paramsAsDyn>[1] | undefined;
  if (!unchecked && rootType?.hasPlaceholderType) {
    const t = paramsAsDyn(env.checker, rootType).name;
    type = t === 'list<dyn>' ? 'list' : t === 'map<dyn, dyn>' ? 'map' : t;
  }
  const fn = parsed as unknown as EvaluationAst['fn'];
  return { fn, root, type, references: hooks.references };
}

/**
 * Parses and type-checks `expr` against `env`. Throws a `CelError` with code `parse`,
 * `type-check` (with the source position) or `estimated-cost-exceeded`.
 *
 * Over schema variables the compile-time check is the typed environment's (field types checked),
 * and the evaluation AST is built on the first evaluation; whenever the typed check, the
 * map-literal checks or the estimate reject the expression, the evaluation AST is built first,
 * so the error reported is the one the full pipeline meets first (evaluation check, map literals,
 * estimate, typed check).
 */
export function compile(expr: string, env: CelEnv, options: CompileOptions = {}): Program {
  const internals = env as EnvInternals;
  if (internals.engine === undefined)
    throw new CelError('invalid-argument', 'env was not created by createEnv()');
  const pre = preprocess(expr);
  const unchecked = options.check === false;
  const typed = internals.typed;
  if (typed === undefined || unchecked) {
    const ev = prepareEvaluation(expr, pre, internals, unchecked);
    // without schema variables the estimate rejects nothing: made when read, unless a limit is set
    const estimate =
      typed === undefined && options.estimatedCostLimit === undefined
        ? () => estimateOrThrow(ev.root, expr, internals)
        : estimateOrThrow(ev.root, expr, internals);
    return finish(expr, options, ev.type, estimate, ev.references, internals, ev);
  }
  const prepare = () => prepareEvaluation(expr, pre, internals, false);
  let shadow: ReturnType<Environment['parse']>;
  try {
    shadow = typed.engine.parse(pre.source);
  } catch (e) {
    prepare();
    throw fromEngineError(e, expr, 'parse', pre.toOriginal);
  }
  const root = shadow.ast as unknown as EngineNode;
  resolveParsed(root, pre, internals, false);
  const hooks = new CompileHooks(expr, false, internals.variables, false);
  const checked = checkHooked(shadow, typed.checker, hooks, false);
  if (!checked.valid) {
    estimateOrThrow(prepare().root, expr, internals);
    throw fromEngineError(checked.error, expr, 'type-check');
  }
  let estimate: CostEstimate;
  try {
    hooks.finish();
    estimate = estimateOrThrow(root, expr, internals);
  } catch (e) {
    prepare();
    throw e;
  }
  return finish(expr, options, checked.type ?? 'dyn', estimate, hooks.references, internals, prepare);
}

/** The checks of the result (output type, estimated cost limit) and the program. */
function finish(
  expr: string,
  options: CompileOptions,
  outputType: CelType,
  estimate: CostEstimate | (() => CostEstimate),
  references: ReadonlySet<string>,
  env: EnvInternals,
  ast: EvaluationAst | (() => EvaluationAst),
): Program {
  if (options.outputType !== undefined && outputType !== options.outputType && outputType !== 'dyn') {
    throw new CelError('type-check', `expression must evaluate to ${options.outputType}, got ${outputType}`, {
      expression: expr,
    });
  }
  const limit = options.estimatedCostLimit;
  const max = limit === undefined ? 0 : (typeof estimate === 'function' ? estimate() : estimate).max;
  if (limit !== undefined && max > limit) {
    throw new CelError(
      'estimated-cost-exceeded',
      `estimated rule cost exceeds budget by factor of ${(max / limit).toFixed(1)}x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      { expression: expr, detail: String(max) },
    );
  }
  return new CompiledProgram(expr, outputType, estimate, references, env.evaluator, ast);
}
