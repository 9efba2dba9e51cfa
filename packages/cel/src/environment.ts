/**
 * Environments and programs: `createEnv()` declares variables (by CEL type or by schema) and
 * feature gates; `compile(expr, env)` parses and type-checks once; `program.evaluate()` runs under
 * a cost budget.
 */
import { Environment } from '@marcbachmann/cel-js';
import type { StructuralSchema } from '@orchard/schema';
import { CompileHooks, hasOnlyHooks } from './compile-hooks.js';
import { type CostEstimate, estimateCost } from './cost-estimator.js';
import type { CostTracker } from './cost-tracker.js';
import { budgetExceeded } from './cost-tracker.js';
import { CelError, fromEngineError, isCelError } from './errors.js';
import { registerLibraries } from './library/index.js';
import { PerCallLimit } from './limits.js';
import { resolveNames } from './names.js';
import {
  applyParsed,
  type CallCost,
  type Checker,
  type CheckHooks,
  captureChecker,
  captureEvaluator,
  costRegionOptions,
  costSymbol,
  type EngineNode,
  type Evaluator,
  hooksSymbol,
  isPlainRun,
  lenientSymbol,
  type Preprocessed,
  paramsAsDyn,
  planCostRegions,
  preprocess,
  registerCheckProbe,
  registerProbe,
  switchRun,
} from './patches/index.js';
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
  };
  return env;
}

/**
 * Options of one `Program.evaluate`/`evaluateWithCost` call; the call throws a `cost-budget-exceeded`
 * CelError when it exceeds `costBudget` or what is left of `tracker`, whichever is smaller.
 */
export interface EvaluateOptions {
  /** Cost limit of this evaluation. Default `PerCallLimit` (1,000,000). */
  costBudget?: number;
  /** A tracker shared across evaluations (a total budget); charged with this evaluation's cost. */
  tracker?: CostTracker;
}

/**
 * What `Program.evaluateWithCost` returns: the CEL value (int64 as `bigint`, …) and the cost units it spent.
 */
export interface EvaluationResult {
  value: unknown;
  /** Cost units this evaluation spent. */
  cost: number;
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

/** A compiled expression. Evaluation is synchronous and does not mutate the activation. */
export interface Program {
  readonly expression: string;
  /** The checked type of the result (`bool`, `string`, `dyn`, …). */
  readonly outputType: CelType;
  /** The static worst-case cost estimate. */
  readonly estimatedCost: CostEstimate;
  /** The declared variables the expression refers to (e.g. whether a rule uses `oldSelf`). */
  readonly references: ReadonlySet<string>;
  /** Evaluates; throws a `CelError` (`evaluation` or `cost-budget-exceeded`). */
  evaluate(activation?: Record<string, unknown>, options?: EvaluateOptions): unknown;
  /** Like `evaluate`, also reporting the cost spent. */
  evaluateWithCost(activation?: Record<string, unknown>, options?: EvaluateOptions): EvaluationResult;
}

class CompiledProgram implements Program {
  constructor(
    readonly expression: string,
    readonly outputType: CelType,
    readonly estimatedCost: CostEstimate,
    readonly references: ReadonlySet<string>,
    private readonly fn: (ctx: Record<string, unknown>) => unknown,
    private readonly evaluator: Evaluator,
    private readonly root: EngineNode,
  ) {}

  /**
   * The root region's constant cost for the region pass, or undefined (always charged per node);
   * planned on the first evaluation (`planCostRegions`), so compiling a rule costs nothing more.
   */
  private regions: number | undefined | null = null;

  evaluate(activation: Record<string, unknown> = {}, options: EvaluateOptions = {}): unknown {
    return this.evaluateWithCost(activation, options).value;
  }

  evaluateWithCost(
    activation: Record<string, unknown> = {},
    options: EvaluateOptions = {},
  ): EvaluationResult {
    const shared = options.tracker;
    const budget = options.costBudget ?? PerCallLimit;
    const limit = shared === undefined ? budget : Math.min(budget, shared.remaining());
    const call: CallCost = { used: 1, limit, halted: false, shared, slow: false, rerun: false };
    const ev = this.evaluator;
    const outer = ev[costSymbol];
    ev[costSymbol] = call;
    try {
      // the region pass (cost-regions.ts); anything it cannot decide is evaluated again per node
      if (this.regions === null) this.regions = planCostRegions(this.root);
      const regions = this.regions;
      if (regions !== undefined && limit >= 1 && isPlainRun(ev) && !costRegionOptions.perNodeOnly) {
        try {
          const value = this.fn(activation);
          call.used += regions;
          if (!call.rerun && !call.halted && call.used <= limit && !(value instanceof Promise))
            return { value, cost: call.used };
        } catch {
          // decided by the exact pass below
        }
        call.used = 1;
        call.halted = false;
        call.rerun = false;
      }
      return { value: this.evaluatePerNode(activation, call), cost: call.used };
    } finally {
      ev[costSymbol] = outer;
      shared?.charge(Math.min(call.used, shared.remaining()));
    }
  }

  /** The exact pass: every node charged by the cost hook, halting where the budget runs out. */
  private evaluatePerNode(activation: Record<string, unknown>, call: CallCost): unknown {
    const ev = this.evaluator;
    const wasPlain = isPlainRun(ev);
    call.slow = true;
    switchRun(ev, true);
    let value: unknown;
    try {
      if (call.used > call.limit) throw budgetExceeded(call.limit);
      value = this.fn(activation);
    } catch (e) {
      if (call.halted) throw withPosition(budgetExceeded(call.limit), this.expression);
      throw fromEngineError(e, this.expression, 'evaluation');
    } finally {
      switchRun(ev, !wasPlain);
    }
    // An exceeded budget inside `a || b` may have been absorbed by CEL's commutative error rules.
    if (call.halted) throw withPosition(budgetExceeded(call.limit), this.expression);
    if (value instanceof Promise)
      throw new CelError('evaluation', 'asynchronous functions are not supported', {
        expression: this.expression,
      });
    return value;
  }
}

function withPosition(e: CelError, expression: string): CelError {
  return new CelError(e.code, e.summary, { expression, detail: e.detail });
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

/**
 * Parses and type-checks `expr` against `env`. Throws a `CelError` with code `parse`,
 * `type-check` (with the source position) or `estimated-cost-exceeded`.
 */
export function compile(expr: string, env: CelEnv, options: CompileOptions = {}): Program {
  const internals = env as EnvInternals;
  if (internals.engine === undefined)
    throw new CelError('invalid-argument', 'env was not created by createEnv()');
  const pre = preprocess(expr);
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = internals.engine.parse(pre.source);
  } catch (e) {
    throw fromEngineError(e, expr, 'parse', pre.toOriginal);
  }
  const unchecked = options.check === false;
  const root = parsed.ast as unknown as EngineNode;
  resolveParsed(root, pre, internals, unchecked);
  // one pass: the checker hook fixes `has()`, patches each checked node and collects references
  const hooks = new CompileHooks(expr, unchecked, internals.variables);
  const checked = checkHooked(parsed, internals.checker, hooks, unchecked);
  if (!checked.valid)
    throw fromEngineError(checked.error, expr, checked.error?.name === 'ParseError' ? 'parse' : 'type-check');
  hooks.finish();
  let outputType = unchecked ? 'dyn' : (checked.type ?? 'dyn');
  const rootType = root.checkedType as Parameters<typeof paramsAsDyn>[1] | undefined;
  if (!unchecked && rootType?.hasPlaceholderType) {
    const t = paramsAsDyn(internals.checker, rootType).name;
    outputType = t === 'list<dyn>' ? 'list' : t === 'map<dyn, dyn>' ? 'map' : t;
  }
  let estimate: CostEstimate;
  try {
    estimate = estimateCost(root, env.variables);
  } catch (e) {
    if (isCelError(e))
      throw new CelError(e.code, e.summary, { expression: expr, position: e.position, detail: e.detail });
    throw e;
  }
  const typed = internals.typed;
  if (typed !== undefined && !unchecked) {
    // the same expression against message types: field types are checked too
    const shadow = typed.engine.parse(pre.source);
    resolveParsed(shadow.ast as unknown as EngineNode, pre, internals, false);
    const typedCheck = checkHooked(shadow, typed.checker, hasOnlyHooks, false);
    if (!typedCheck.valid) throw fromEngineError(typedCheck.error, expr, 'type-check');
    outputType = typedCheck.type ?? outputType;
  }
  if (options.outputType !== undefined && outputType !== options.outputType && outputType !== 'dyn') {
    throw new CelError('type-check', `expression must evaluate to ${options.outputType}, got ${outputType}`, {
      expression: expr,
    });
  }
  if (options.estimatedCostLimit !== undefined && estimate.max > options.estimatedCostLimit) {
    throw new CelError(
      'estimated-cost-exceeded',
      `estimated rule cost exceeds budget by factor of ${(estimate.max / options.estimatedCostLimit).toFixed(1)}x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`,
      { expression: expr, detail: String(estimate.max) },
    );
  }
  return new CompiledProgram(
    expr,
    outputType,
    estimate,
    hooks.references,
    parsed as unknown as (ctx: Record<string, unknown>) => unknown,
    internals.evaluator,
    root,
  );
}
