/**
 * Compiled programs: evaluation under a cost budget (the region pass, with the exact per-node
 * pass as the reference), over an evaluation AST that is built when the program is compiled or,
 * for expressions over schema variables, on its first evaluation.
 */
import type { CostEstimate } from './cost-estimator.js';
import type { CostTracker } from './cost-tracker.js';
import { budgetExceeded } from './cost-tracker.js';
import { CelError, fromEngineError } from './errors.js';
import { PerCallLimit } from './limits.js';
import {
  type CallCost,
  costRegionOptions,
  costSymbol,
  type EngineNode,
  type Evaluator,
  isPlainRun,
  planCostRegions,
  switchRun,
} from './patches/index.js';
import type { CelType } from './types.js';

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

/** The AST a program evaluates: checked against the evaluation environment, patches applied. */
export interface EvaluationAst {
  /** The engine's evaluation entry point for the AST. */
  fn: (ctx: Record<string, unknown>) => unknown;
  root: EngineNode;
}

/** A `Program` over an evaluation AST given, or built by `prepare` on the first evaluation. */
export class CompiledProgram implements Program {
  private fn!: EvaluationAst['fn'];
  private root!: EngineNode;
  private prepare: (() => EvaluationAst) | undefined;

  private estimate: CostEstimate | (() => CostEstimate);

  /** `estimate` may be a function: the estimate is then made when `estimatedCost` is first read. */
  constructor(
    readonly expression: string,
    readonly outputType: CelType,
    estimate: CostEstimate | (() => CostEstimate),
    readonly references: ReadonlySet<string>,
    private readonly evaluator: Evaluator,
    ast: EvaluationAst | (() => EvaluationAst),
  ) {
    this.estimate = estimate;
    if (typeof ast === 'function') this.prepare = ast;
    else this.use(ast);
  }

  get estimatedCost(): CostEstimate {
    if (typeof this.estimate === 'function') this.estimate = this.estimate();
    return this.estimate;
  }

  private use(ast: EvaluationAst): void {
    this.fn = ast.fn;
    this.root = ast.root;
    this.prepare = undefined;
  }

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
    if (this.prepare !== undefined) this.use(this.prepare());
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
