/**
 * The structured `LabelSelector` of object specs (`matchLabels`/`matchExpressions`): conversion
 * to and from a parsed selector, and its validation inside an object.
 */
import { type FieldCause, fieldErrors } from './field-errors.js';
import {
  createLabelRequirement,
  type LabelRequirement,
  type LabelSelectorOperator,
} from './label-requirement.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import {
  everythingLabelSelector,
  nothingLabelSelector,
  type ParsedLabelSelector,
  Selector,
} from './parsed-label-selector.js';
import { errors } from './status.js';

/** The structured selector of object specs (upstream `metav1.LabelSelector`). */
export interface LabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: LabelSelectorRequirement[] | null;
}

/** The operators of `matchExpressions`. */
export type LabelSelectorRequirementOperator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';

/** One `matchExpressions` entry of a structured LabelSelector. */
export interface LabelSelectorRequirement {
  key: string;
  operator: LabelSelectorRequirementOperator | (string & {});
  values?: string[] | null;
}

const structuredOps: Record<string, LabelSelectorOperator> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * Converts the structured form (upstream `LabelSelectorAsSelector`): null/undefined selects nothing,
 * `{}` selects everything. Throws 400 BadRequest on an invalid key, value or operator.
 */
export function labelSelectorFromObject(ps: LabelSelector | null | undefined): ParsedLabelSelector {
  if (ps == null) return nothingLabelSelector;
  const reqs: LabelRequirement[] = [];
  for (const [k, v] of Object.entries(ps.matchLabels ?? {})) reqs.push(createLabelRequirement(k, '=', [v]));
  for (const e of ps.matchExpressions ?? []) {
    const op = Object.hasOwn(structuredOps, e.operator) ? structuredOps[e.operator] : undefined;
    if (!op) throw errors.badRequest(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    reqs.push(createLabelRequirement(e.key, op, e.values ?? []));
  }
  return reqs.length === 0 ? everythingLabelSelector : new Selector(reqs);
}

/**
 * The structured form of a parsed selector (upstream `ParseToLabelSelector`): `=`/`==` become
 * `matchLabels`, set-based and existence requirements `matchExpressions`. Throws 400 for `!=`, `gt`,
 * `lt`, which the structured form cannot express.
 */
export function labelSelectorToObject(sel: ParsedLabelSelector): LabelSelector {
  const out: LabelSelector = {};
  const exprs: LabelSelectorRequirement[] = [];
  for (const r of sel.requirements()) {
    switch (r.operator) {
      case '=':
      case '==':
        out.matchLabels ??= {};
        out.matchLabels[r.key] = r.values[0] as string;
        break;
      case 'in':
      case 'notin':
        exprs.push({
          key: r.key,
          operator: r.operator === 'in' ? 'In' : 'NotIn',
          values: [...r.values],
        });
        break;
      case 'exists':
      case '!':
        exprs.push({
          key: r.key,
          operator: r.operator === 'exists' ? 'Exists' : 'DoesNotExist',
        });
        break;
      default:
        throw errors.badRequest(`invalid operator: ${r.operator}`);
    }
  }
  if (exprs.length) out.matchExpressions = exprs;
  return out;
}

/** Options of `validateLabelSelector` (tolerating stored invalid label values on update). */
export interface ValidateLabelSelectorOptions {
  /** Skip label-value checks of `matchExpressions[].values` (upstream keeps stored invalid values valid on update). Default false. */
  allowInvalidLabelValueInSelector?: boolean;
}

/**
 * Validates a structured selector inside an object (upstream `ValidateLabelSelector`), returning causes
 * for a 422 at `fieldPath` (e.g. `spec.selector`).
 */
export function validateLabelSelector(
  ps: LabelSelector | null | undefined,
  fieldPath: string,
  options: ValidateLabelSelectorOptions = {},
): FieldCause[] {
  const causes: FieldCause[] = [];
  if (ps == null) return causes;
  const ml = `${fieldPath}.matchLabels`;
  for (const k of Object.keys(ps.matchLabels ?? {}).sort()) {
    const v = (ps.matchLabels as Record<string, string>)[k] as string;
    for (const m of isQualifiedName(k)) causes.push(fieldErrors.invalid(ml, k, m));
    for (const m of isValidLabelValue(v)) causes.push(fieldErrors.invalid(ml, v, m));
  }
  (ps.matchExpressions ?? []).forEach((e, i) => {
    const p = `${fieldPath}.matchExpressions[${i}]`;
    const n = e.values?.length ?? 0;
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (n === 0)
          causes.push(
            fieldErrors.required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
          );
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (n > 0) {
          causes.push(
            fieldErrors.forbidden(
              `${p}.values`,
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
            ),
          );
        }
        break;
      default:
        causes.push(fieldErrors.invalid(`${p}.operator`, e.operator, 'not a valid selector operator'));
    }
    for (const m of isQualifiedName(e.key)) causes.push(fieldErrors.invalid(`${p}.key`, e.key, m));
    if (!options.allowInvalidLabelValueInSelector) {
      (e.values ?? []).forEach((v, j) => {
        for (const m of isValidLabelValue(v)) causes.push(fieldErrors.invalid(`${p}.values[${j}]`, v, m));
      });
    }
  });
  return causes;
}
