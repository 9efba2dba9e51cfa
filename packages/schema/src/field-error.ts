/**
 * Field errors with upstream's wording (`field.Error` of apimachinery): a cause type, the field
 * path (`spec.containers[0].name`) and the error body (`Invalid value: "string": … must be of type integer`).
 */
import type { CauseType, StatusCause } from '@orchard/meta';

/** One validation failure: field path, type and message in upstream's wording. */
export interface FieldError {
  /** The cause reason a Status carries (`FieldValueInvalid`, `FieldValueRequired`, …). */
  type: CauseType;
  /** The path of the offending field, `spec.replicas`, `spec.containers[0].ports[1]`. */
  field: string;
  /** The error body, without the field: `Required value`, `Invalid value: 3: must be …`. */
  message: string;
}

/** `field: message`, the form printed in Status messages. */
export function formatFieldError(e: FieldError): string {
  return e.field ? `${e.field}: ${e.message}` : e.message;
}

/** The Status causes of validation failures (for a 422). */
export function toStatusCauses(errors: readonly FieldError[]): StatusCause[] {
  return errors.map((e) => ({ reason: e.type, message: e.message, field: e.field }));
}

/** The value as upstream prints it in `Invalid value: <v>` (`%#v`-like: strings quoted). */
export function formatValue(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function joinPath(base: string, name: string): string {
  return base === '' ? name : `${base}.${name}`;
}

export function indexPath(base: string, i: number): string {
  return `${base}[${i}]`;
}

/** Builders of `FieldError`s with upstream's wording. */
export const fieldErrors = {
  invalid: (field: string, value: unknown, detail: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    message: `Invalid value: ${formatValue(value)}${detail ? `: ${detail}` : ''}`,
  }),
  /** kube-openapi's type error: the bad value printed is the actual JSON type name. */
  typeInvalid: (field: string, actualType: string, detail: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field,
    message: `Invalid value: ${JSON.stringify(actualType)}: ${detail}`,
  }),
  required: (field: string, detail = ''): FieldError => ({
    type: 'FieldValueRequired',
    field,
    message: detail ? `Required value: ${detail}` : 'Required value',
  }),
  notSupported: (field: string, value: unknown, allowed: readonly unknown[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    message: `Unsupported value: ${formatValue(value)}${
      allowed.length > 0 ? `: supported values: ${allowed.map((a) => formatValue(a)).join(', ')}` : ''
    }`,
  }),
  forbidden: (field: string, detail: string): FieldError => ({
    type: 'FieldValueForbidden',
    field,
    message: `Forbidden: ${detail}`,
  }),
  tooLong: (field: string, max: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    message: `Too long: may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}`,
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    message: `Too many: ${actual}: must have at most ${max} items`,
  }),
  duplicate: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueDuplicate',
    field,
    message: `Duplicate value: ${formatValue(value)}`,
  }),
  notFound: (field: string, value: unknown): FieldError => ({
    type: 'FieldValueNotFound',
    field,
    message: `Not found: ${formatValue(value)}`,
  }),
} as const;
