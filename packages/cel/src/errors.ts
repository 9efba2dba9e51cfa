/**
 * `CelError`: every failure @orchard/cel reports, recognised by `isCelError` (a brand, not
 * `instanceof`, so two copies of the package still agree).
 */

import { hasBrand } from '@orchard/meta/internal';

/** What went wrong. */
export type CelErrorCode =
  /** The expression is not valid CEL syntax. */
  | 'parse'
  /** The expression does not type-check against the declared variables. */
  | 'type-check'
  /** Evaluation failed (no such key, no matching overload, overflow, division by zero, a library error…). */
  | 'evaluation'
  /** The runtime cost budget was exhausted; evaluation was halted. */
  | 'cost-budget-exceeded'
  /** The static worst-case cost estimate exceeds the limit; the expression is rejected before it runs. */
  | 'estimated-cost-exceeded'
  /** An argument given to the SDK (not to the expression) is invalid. */
  | 'invalid-argument';

/** A position in the expression source (0-based offsets; 1-based line and column). */
export interface CelSourcePosition {
  start: number;
  end: number;
  line: number;
  column: number;
}

const brand = Symbol.for('@orchard/cel.CelError');

/**
 * Optional details of a `CelError`: the engine's finer code, where in the expression it failed, the
 * expression itself, and the underlying error as `cause`.
 */
export interface CelErrorOptions {
  /** The lower-level code of the underlying engine (`no_such_key`, `division_by_zero`, …). */
  detail?: string;
  position?: CelSourcePosition;
  expression?: string;
  cause?: unknown;
}

/**
 * The one error type @orchard/cel throws, from `compile` (codes `parse`, `type-check`,
 * `estimated-cost-exceeded`, `invalid-argument`) and from evaluation (`evaluation`, `cost-budget-exceeded`).
 * Its `message` is `summary` followed by ` (at line:column)` when the position is known; recognise it with
 * `isCelError`, not `instanceof`.
 */
export class CelError extends Error {
  readonly code: CelErrorCode;
  /** The engine's finer code, when there is one (`no_such_key`, `numeric_overflow`, …). */
  readonly detail: string | undefined;
  readonly position: CelSourcePosition | undefined;
  readonly expression: string | undefined;
  /** The message without the source excerpt. */
  readonly summary: string;
  readonly [brand] = true;

  constructor(code: CelErrorCode, summary: string, options: CelErrorOptions = {}) {
    const where = options.position ? ` (at ${options.position.line}:${options.position.column})` : '';
    super(`${summary}${where}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CelError';
    this.code = code;
    this.summary = summary;
    this.detail = options.detail;
    this.position = options.position;
    this.expression = options.expression;
  }
}

/** True for a `CelError` from any copy of this package. */
export function isCelError(e: unknown): e is CelError {
  return hasBrand(e, brand);
}

/** Line/column of an offset in `source`. */
export function positionOf(source: string, start: number, end = start): CelSourcePosition {
  let line = 1;
  let column = 1;
  for (let i = 0; i < start && i < source.length; i++) {
    if (source[i] === '\n') {
      line++;
      column = 1;
    } else column++;
  }
  return { start, end, line, column };
}

interface EngineError {
  name?: string;
  code?: string;
  summary?: string;
  message?: string;
  range?: { start: number; end: number };
}

/** Turns an error of the underlying engine into a `CelError` (a `CelError` passes through). */
export function fromEngineError(
  e: unknown,
  expression: string,
  fallback: CelErrorCode = 'evaluation',
  /** Maps an offset of the parsed source to `expression` (when the source was rewritten). */
  toOriginal?: (offset: number) => number,
): CelError {
  if (isCelError(e)) return e;
  if (typeof e !== 'object' || e === null) return new CelError(fallback, String(e), { expression });
  const err = e as EngineError;
  const code: CelErrorCode =
    err.name === 'ParseError'
      ? 'parse'
      : err.name === 'TypeError' && err.code !== undefined
        ? 'type-check'
        : fallback;
  const summary = err.summary ?? err.message ?? String(e);
  const map = toOriginal ?? ((o: number) => o);
  const position = err.range ? positionOf(expression, map(err.range.start), map(err.range.end)) : undefined;
  return new CelError(code, summary, { detail: err.code, position, expression, cause: e });
}
