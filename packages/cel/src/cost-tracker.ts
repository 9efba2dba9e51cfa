/**
 * The runtime cost tracker: counts deterministic cost units while an expression runs and halts it
 * with a `cost-budget-exceeded` CelError as soon as the budget is exhausted.
 */
import { CelError } from './errors.js';

/**
 * Counts runtime cost units across one or more evaluations; `createCostTracker` makes one. `charge` mutates
 * `used` and throws a `cost-budget-exceeded` CelError once `used` exceeds `limit`, halting the evaluation
 * that charged it.
 */
export interface CostTracker {
  /** Units spent so far (across every evaluation charged to this tracker). */
  readonly used: number;
  /** The budget; evaluation stops once `used` exceeds it. */
  readonly limit: number;
  /** Charge `units`; throws `cost-budget-exceeded` when the budget is exceeded. */
  charge(units: number): void;
  /** Units left before the budget is exhausted (never negative). */
  remaining(): number;
}

class Tracker implements CostTracker {
  used = 0;
  constructor(readonly limit: number) {}
  charge(units: number): void {
    this.used += units;
    if (this.used > this.limit) throw budgetExceeded(this.limit);
  }
  remaining(): number {
    return Math.max(0, this.limit - this.used);
  }
}

/** A tracker with `limit` units: share one across several evaluations for a total budget. */
export function createCostTracker(limit: number): CostTracker {
  if (!(limit >= 0)) throw new CelError('invalid-argument', `cost limit must be >= 0, got ${limit}`);
  return new Tracker(limit);
}

export function budgetExceeded(limit: number): CelError {
  return new CelError(
    'cost-budget-exceeded',
    `operation cancelled: actual cost limit exceeded (limit ${limit})`,
  );
}
