/**
 * One requirement of a label selector (`key op values`): its validation as upstream's
 * `labels.NewRequirement`, its match against an object's labels and its canonical string form.
 */
import { aggregateMessage, type FieldCause, fieldErrors } from './field-errors.js';
import { isQualifiedName, isValidLabelValue } from './names.js';
import { errors } from './status.js';

/** Operators of a requirement, spelled as upstream's `selection.Operator`. */
export type LabelSelectorOperator = '!' | '=' | '==' | 'in' | '!=' | 'notin' | 'exists' | 'gt' | 'lt';

/** Labels of an object. */
export type Labels = Readonly<Record<string, string>>;

/** One ANDed term of a selector. `values` is sorted and deduplicated when parsed. */
export interface LabelRequirement {
  readonly key: string;
  readonly operator: LabelSelectorOperator;
  readonly values: readonly string[];
}

const has = (labels: Labels | null | undefined, key: string): labels is Labels =>
  labels != null && Object.hasOwn(labels, key);

const int64Re = /^[+-]?[0-9]+$/;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Go's strconv.ParseInt(s, 10, 64); undefined when invalid or out of range. */
function parseInt64(s: string): bigint | undefined {
  if (!int64Re.test(s)) return undefined;
  const v = BigInt(s);
  return v < int64Min || v > int64Max ? undefined : v;
}

export function requirementMatches(r: LabelRequirement, labels: Labels | null | undefined): boolean {
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has(labels, r.key) && r.values.includes(labels[r.key] as string);
    case 'notin':
    case '!=':
      return !has(labels, r.key) || !r.values.includes(labels[r.key] as string);
    case 'exists':
      return has(labels, r.key);
    case '!':
      return !has(labels, r.key);
    case 'gt':
    case 'lt': {
      if (!has(labels, r.key) || r.values.length !== 1) return false;
      const lv = parseInt64(labels[r.key] as string);
      const rv = parseInt64(r.values[0] as string);
      if (lv === undefined || rv === undefined) return false;
      return r.operator === 'gt' ? lv > rv : lv < rv;
    }
    default:
      return false;
  }
}

/** A requirement's canonical string form, e.g. `env in (a,b)`, `!k`, `tier=web`. */
export function formatLabelRequirement(r: LabelRequirement): string {
  let s = r.operator === '!' ? `!${r.key}` : r.key;
  switch (r.operator) {
    case 'exists':
    case '!':
      return s;
    case 'in':
    case 'notin':
      return `${s} ${r.operator} (${[...r.values].sort().join(',')})`;
    case 'gt':
      s += '>';
      break;
    case 'lt':
      s += '<';
      break;
    default:
      s += r.operator;
  }
  return s + (r.values.length === 1 ? (r.values[0] as string) : [...r.values].sort().join(','));
}

/** Validates a requirement as upstream's `NewRequirement`; returns its field causes (empty = valid). */
export function requirementCauses(
  key: string,
  op: LabelSelectorOperator,
  values: readonly string[],
  path: string,
): FieldCause[] {
  const causes: FieldCause[] = [];
  const prefix = path ? `${path}.` : '';
  const keyErrs = isQualifiedName(key);
  if (keyErrs.length) causes.push(fieldErrors.invalid(`${prefix}key`, key, keyErrs.join('; ')));
  const vpath = `${prefix}values`;
  switch (op) {
    case 'in':
    case 'notin':
      if (values.length === 0) {
        causes.push(
          fieldErrors.invalid(vpath, values, "for 'in', 'notin' operators, values set can't be empty"),
        );
      }
      break;
    case '=':
    case '==':
    case '!=':
      if (values.length !== 1) {
        causes.push(
          fieldErrors.invalid(vpath, values, 'exact-match compatibility requires one single value'),
        );
      }
      break;
    case 'exists':
    case '!':
      if (values.length !== 0) {
        causes.push(
          fieldErrors.invalid(vpath, values, 'values set must be empty for exists and does not exist'),
        );
      }
      break;
    case 'gt':
    case 'lt':
      if (values.length !== 1) {
        causes.push(
          fieldErrors.invalid(vpath, values, "for 'Gt', 'Lt' operators, exactly one value is required"),
        );
      }
      values.forEach((v, i) => {
        if (parseInt64(v) === undefined) {
          causes.push(
            fieldErrors.invalid(
              `${vpath}[${i}]`,
              v,
              "for 'Gt', 'Lt' operators, the value must be an integer",
            ),
          );
        }
      });
      break;
    default:
      causes.push(
        fieldErrors.notSupported(`${prefix}operator`, op, [
          '!',
          '=',
          '==',
          'in',
          '!=',
          'notin',
          'exists',
          'gt',
          'lt',
        ]),
      );
  }
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as string;
    const errs = isValidLabelValue(v);
    if (errs.length) causes.push(fieldErrors.invalid(`${vpath}[${i}][${key}]`, v, errs.join('; ')));
  }
  return causes;
}

/**
 * A validated requirement (upstream `labels.NewRequirement`). Throws 400 BadRequest when the key,
 * operator or values are invalid.
 */
export function createLabelRequirement(
  key: string,
  operator: LabelSelectorOperator,
  values: readonly string[] = [],
): LabelRequirement {
  const causes = requirementCauses(key, operator, values, '');
  if (causes.length) throw errors.badRequest(aggregateMessage(causes));
  return Object.freeze({ key, operator, values: Object.freeze([...values]) });
}
