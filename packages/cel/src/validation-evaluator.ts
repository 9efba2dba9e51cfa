/**
 * Evaluating compiled CRD validation rules against an object (and its old version on update),
 * within the per-call and per-object runtime cost budgets.
 */
import { Optional } from '@marcbachmann/cel-js';
import { type FieldCause, fieldErrors } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import type { StructuralSchema } from '@orchard/schema';
import { createCostTracker } from './cost-tracker.js';
import { isCelError } from './errors.js';
import { PerCallLimit, RuntimeCELCostBudget } from './limits.js';
import { celEquals } from './list-semantics.js';
import { toCelValue } from './types.js';
import {
  type CompiledNode,
  type CompiledValidationRules,
  MaxMessageExpressionLength,
} from './validation-compiler.js';

/**
 * Options of `validateWithRules`; all optional. When the total `budget` is exhausted the remaining rules are
 * not run and a cost-budget cause is reported instead of throwing.
 */
export interface ValidateOptions {
  /** Total runtime cost budget across all rules for one object. Default `RuntimeCELCostBudget`. */
  budget?: number;
  /** Runtime cost limit of one rule. Default `PerCallLimit`. */
  perCallLimit?: number;
}

/** A failed rule: a field cause (`reason`, `field`, `message`) as upstream reports it in the 422. */
export type ValidationCause = FieldCause;

function schemaTypeName(s: StructuralSchema): string {
  return s.type ?? (s.intOrString ? 'string' : 'object');
}

class BudgetExhausted extends Error {}

/** Records that the object's total cost budget ran out (upstream's message) and stops validation. */
function budgetExhausted(
  causes: ValidationCause[],
  field: string,
  schema: StructuralSchema,
): BudgetExhausted {
  causes.push(
    fieldErrors.invalid(
      field,
      schemaTypeName(schema),
      'validation failed due to running out of cost budget, no further validation rules will be run',
    ),
  );
  return new BudgetExhausted();
}

/** Appends a rule's relative fieldPath (`.a.b`, `['x.y']`) to a data path. */
function joinFieldPath(path: string, rel: string): string {
  const p = path + rel;
  return p.startsWith('.') ? p.slice(1) : p;
}

/**
 * Evaluates the compiled rules against `obj` (and `oldObj` on update; `undefined` on create).
 * Returns every failure; stops (with a cause) when the runtime budget is exhausted.
 */
export function validateWithRules(
  obj: unknown,
  oldObj: unknown,
  compiled: CompiledValidationRules,
  options: ValidateOptions = {},
): ValidationCause[] {
  const causes: ValidationCause[] = [];
  if (compiled.root === undefined) return causes;
  const tracker = createCostTracker(options.budget ?? RuntimeCELCostBudget);
  const perCall = options.perCallLimit ?? PerCallLimit;

  const visit = (node: CompiledNode, value: unknown, old: unknown, hasOld: boolean, path: string): void => {
    if (value === undefined || value === null) return;
    if (node.rules.length > 0) {
      const self = toCelValue(value, node.schema);
      let oldSelf: unknown;
      for (const r of node.rules) {
        if (r.isTransition && !hasOld && !r.rule.optionalOldSelf) continue;
        const activation: Record<string, unknown> = { self };
        if (r.isTransition) {
          oldSelf ??= hasOld ? toCelValue(old, node.schema) : null;
          activation.oldSelf = r.rule.optionalOldSelf
            ? hasOld
              ? Optional.of(oldSelf)
              : Optional.none()
            : oldSelf;
        }
        const field = r.rule.fieldPath ? joinFieldPath(path, r.rule.fieldPath) : path;
        let ok: unknown;
        try {
          ok = r.program.evaluate(activation, { costBudget: perCall, tracker });
        } catch (e) {
          if (isCelError(e) && e.code === 'cost-budget-exceeded') {
            if (tracker.remaining() <= 0) {
              throw budgetExhausted(causes, field, node.schema);
            }
            causes.push(
              fieldErrors.invalid(
                field,
                schemaTypeName(node.schema),
                `call cost exceeds limit for rule: ${r.rule.rule}`,
              ),
            );
            continue;
          }
          const msg = isCelError(e) ? e.summary : (e as Error).message;
          causes.push(
            fieldErrors.invalid(field, schemaTypeName(node.schema), `${msg} evaluating rule: ${r.rule.rule}`),
          );
          continue;
        }
        if (ok === true) continue;
        let message = r.rule.message ?? `failed rule: ${r.rule.rule}`;
        if (r.messageProgram) {
          try {
            const m = r.messageProgram.evaluate(activation, { costBudget: perCall, tracker });
            if (
              typeof m === 'string' &&
              m.trim() !== '' &&
              !/[\r\n]/.test(m) &&
              m.length <= MaxMessageExpressionLength
            )
              message = m;
          } catch (e) {
            if (isCelError(e) && e.code === 'cost-budget-exceeded' && tracker.remaining() <= 0) {
              throw budgetExhausted(causes, field, node.schema);
            }
            // a failing messageExpression falls back to the static message
          }
        }
        switch (r.rule.reason) {
          case 'FieldValueForbidden':
            causes.push(fieldErrors.forbidden(field, message));
            break;
          case 'FieldValueRequired':
            causes.push(fieldErrors.required(field, message));
            break;
          case 'FieldValueDuplicate':
            causes.push({ reason: 'FieldValueDuplicate', field, message: `Duplicate value: ${message}` });
            break;
          default:
            causes.push(fieldErrors.invalid(field, schemaTypeName(node.schema), message));
        }
      }
    }
    if (node.properties && isJsonObject(value)) {
      for (const [name, child] of Object.entries(node.properties)) {
        const oldHas = hasOld && isJsonObject(old) && old[name] !== undefined && old[name] !== null;
        visit(
          child,
          value[name],
          oldHas ? (old as Record<string, unknown>)[name] : undefined,
          oldHas,
          path === '' ? name : `${path}.${name}`,
        );
      }
    }
    if (node.additionalProperties && isJsonObject(value)) {
      const known = node.schema.properties ?? {};
      for (const [k, v] of Object.entries(value)) {
        if (k in known) continue;
        const oldHas = hasOld && isJsonObject(old) && old[k] !== undefined && old[k] !== null;
        visit(
          node.additionalProperties,
          v,
          oldHas ? (old as Record<string, unknown>)[k] : undefined,
          oldHas,
          `${path}[${k}]`,
        );
      }
    }
    if (node.items && Array.isArray(value)) {
      const s = node.schema;
      const oldList = hasOld && Array.isArray(old) ? old : undefined;
      value.forEach((item, i) => {
        let oldItem: unknown;
        let found = false;
        if (oldList !== undefined && s.listType === 'map') {
          const keys = s.listMapKeys ?? [];
          const hit = oldList.find(
            (o) =>
              isJsonObject(o) &&
              isJsonObject(item) &&
              keys.every((k) => celEquals(toCelValue(o[k], undefined), toCelValue(item[k], undefined))),
          );
          if (hit !== undefined) {
            oldItem = hit;
            found = true;
          }
        }
        visit(node.items as CompiledNode, item, oldItem, found, `${path}[${i}]`);
      });
    }
  };
  try {
    visit(compiled.root, obj, oldObj, oldObj !== undefined && oldObj !== null, '');
  } catch (e) {
    if (!(e instanceof BudgetExhausted)) throw e;
  }
  return causes;
}
