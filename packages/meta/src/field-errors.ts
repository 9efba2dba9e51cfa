/**
 * Field errors as upstream's `field.Error`: the cause of a 422 Invalid (or the text of a 400), with
 * the same `Invalid value: "x": detail` bodies, so clients print what users expect.
 */
import type { StatusCause } from './status.js';

/** A cause with a field path and upstream's error body as message. */
export interface FieldCause extends StatusCause {
  reason:
    | 'FieldValueRequired'
    | 'FieldValueInvalid'
    | 'FieldValueForbidden'
    | 'FieldValueTooLong'
    | 'FieldValueNotSupported'
    | 'FieldValueDuplicate'
    | 'FieldValueTooMany'
    | 'FieldValueNotFound';
  field: string;
  message: string;
}

const goSyntaxBrand: unique symbol = Symbol('goSyntax');

/**
 * A bad value already written as Go's `%#v` prints it (a map or a struct such as
 * `map[string]string{"app":"a"}` or `v1.LabelSelector{…}`): upstream's field errors show those
 * unquoted. Made only by `goSyntax`, so no client value can pose as one.
 */
export interface GoSyntax {
  readonly [goSyntaxBrand]: string;
}

/** Marks `text` as Go `%#v` output, for `fieldErrors.invalid` to print as is. */
export function goSyntax(text: string): GoSyntax {
  return Object.freeze({ [goSyntaxBrand]: text });
}

function isGoSyntax(value: unknown): value is GoSyntax {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, goSyntaxBrand);
}

/**
 * Formats a bad value as Go's field errors do: strings quoted, scalars bare, `[]string{...}` for
 * lists, `goSyntax` values (maps, structs) as written.
 */
export function formatBadValue(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (isGoSyntax(value)) return value[goSyntaxBrand];
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return `[]string{${value.map((v) => JSON.stringify(v)).join(', ')}}`;
  }
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function body(type: string, detail: string | undefined, value?: { v: unknown }): string {
  let s = value ? `${type}: ${formatBadValue(value.v)}` : type;
  if (detail) s += `: ${detail}`;
  return s;
}

/** Go's `(*field.Error).Error()`: `<field>: <body>`, with `<nil>` for an empty path. */
export function formatFieldCause(c: StatusCause): string {
  return `${c.field ? c.field : '<nil>'}: ${c.message ?? ''}`;
}

/**
 * Builders of 422 causes with upstream's field-error wording (`Required value`, `Invalid value: "x":
 * …`).
 */
export const fieldErrors = {
  required: (field: string, detail = ''): FieldCause => ({
    reason: 'FieldValueRequired',
    field,
    message: body('Required value', detail),
  }),
  invalid: (field: string, value: unknown, detail: string): FieldCause => ({
    reason: 'FieldValueInvalid',
    field,
    message: body('Invalid value', detail, { v: value }),
  }),
  forbidden: (field: string, detail: string): FieldCause => ({
    reason: 'FieldValueForbidden',
    field,
    message: body('Forbidden', detail),
  }),
  tooLong: (field: string, maxLength: number): FieldCause => ({
    reason: 'FieldValueTooLong',
    field,
    message: body('Too long', `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}`),
  }),
  notSupported: (field: string, value: unknown, supported: readonly string[]): FieldCause => ({
    reason: 'FieldValueNotSupported',
    field,
    message: body(
      'Unsupported value',
      supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
      { v: value },
    ),
  }),
  duplicate: (field: string, value: unknown): FieldCause => ({
    reason: 'FieldValueDuplicate',
    field,
    message: body('Duplicate value', '', { v: value }),
  }),
} as const;

/** Go's `ErrorList.ToAggregate().Error()`: one message as is, several (deduplicated) in brackets. */
export function aggregateMessage(causes: readonly StatusCause[]): string {
  const msgs = [...new Set(causes.map(formatFieldCause))];
  return msgs.length === 1 ? (msgs[0] as string) : `[${msgs.join(', ')}]`;
}
