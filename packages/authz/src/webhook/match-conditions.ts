/**
 * Webhook match conditions (doc 2 §2.6): up to 64 CEL expressions over `request` (a v1
 * SubjectAccessReview spec), compiled once. Any `false` skips the webhook; all `true` calls it; an
 * error with no `false` is the webhook's failure policy. An empty list matches everything.
 */
import { compileConfigExpression } from '@orchard/authn/internal';
import { type CelEnv, createEnv, type Program } from '@orchard/cel';
import { type FieldCause, fieldErrors } from '@orchard/meta';

/** At most this many match conditions per webhook (doc 2 §8). */
export const maxMatchConditions = 64;

let sharedEnv: CelEnv | undefined;
/**
 * The environment of match conditions: `request`, a v1 SubjectAccessReview spec. Declared as a map:
 * a schema-typed object would escape reserved words (`namespace` → `__namespace__`), which upstream's
 * typed `request` does not, so `request.resourceAttributes.namespace` must stay readable; a field of
 * the wrong type is then found when the condition runs (an error, decided by the failure policy).
 */
function matchConditionEnv(): CelEnv {
  sharedEnv ??= createEnv({ variables: { request: 'map<string, dyn>' } });
  return sharedEnv;
}

/** Compiled match conditions and the field errors of those that did not compile. */
export interface CompiledMatchConditions {
  readonly programs: readonly Program[];
  readonly causes: readonly FieldCause[];
}

/**
 * Compiles `expressions` (field path `at`, e.g. `authorizers[0].webhook.matchConditions`) with
 * upstream's rules: at most 64, none empty or repeated, each compiling to `bool`. Never throws: the
 * causes name every bad entry.
 */
export function compileMatchConditions(expressions: readonly string[], at: string): CompiledMatchConditions {
  if (expressions.length > maxMatchConditions)
    return {
      programs: [],
      causes: [
        {
          reason: 'FieldValueTooMany',
          field: at,
          message: `Too many: ${expressions.length}: must have at most ${maxMatchConditions} items`,
        },
      ],
    };
  const programs: Program[] = [];
  const causes: FieldCause[] = [];
  const seen = new Set<string>();
  for (const [i, expression] of expressions.entries()) {
    const field = `${at}[${i}].expression`;
    if (expression.trim() === '') {
      causes.push(fieldErrors.required(field));
      continue;
    }
    if (seen.has(expression)) {
      causes.push(fieldErrors.duplicate(field, expression));
      continue;
    }
    seen.add(expression);
    const program = compileConfigExpression(expression, matchConditionEnv(), field, causes, 'bool');
    if (program) programs.push(program);
  }
  return { programs, causes };
}

/** The verdict of match conditions on one request; `error` carries every evaluation error. */
export type MatchVerdict =
  | { readonly kind: 'match' }
  | { readonly kind: 'skip' }
  | { readonly kind: 'error'; readonly error: string };

const matched: MatchVerdict = Object.freeze({ kind: 'match' });
const skipped: MatchVerdict = Object.freeze({ kind: 'skip' });

/**
 * Evaluates `programs` on `request` in order: the first `false` skips (later ones are not run, as
 * upstream stops there); otherwise any error (or a non-boolean result) is the verdict `error`.
 */
export function evaluateMatchConditions(programs: readonly Program[], request: unknown): MatchVerdict {
  const errors: string[] = [];
  for (const p of programs) {
    let v: unknown;
    try {
      v = p.evaluate({ request });
    } catch (e) {
      errors.push(`${p.expression}: ${(e as Error)?.message ?? String(e)}`);
      continue;
    }
    if (v === false) return skipped;
    if (v !== true) errors.push(`${p.expression}: did not evaluate to a bool`);
  }
  return errors.length > 0 ? { kind: 'error', error: errors.join('; ') } : matched;
}
