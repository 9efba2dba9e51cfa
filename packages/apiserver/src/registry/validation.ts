import type { StatusCause } from '@orchard/meta';

/** A 422 cause in upstream's `field.Invalid` form: `Invalid value: "x": detail`. */
export function invalidCause(field: string, value: unknown, detail: string): StatusCause {
  return {
    reason: 'FieldValueInvalid',
    field,
    message: `Invalid value: ${JSON.stringify(value)}: ${detail}`,
  };
}

export function requiredCause(field: string, detail = ''): StatusCause {
  return {
    reason: 'FieldValueRequired',
    field,
    message: detail ? `Required value: ${detail}` : 'Required value',
  };
}

/** Config map / secret data keys: `[-._a-zA-Z0-9]+`, at most 253 characters. */
export function validateDataKeys(obj: Record<string, unknown>, fields: readonly string[]): StatusCause[] {
  const causes: StatusCause[] = [];
  const re = /^[-._a-zA-Z0-9]+$/;
  for (const f of fields) {
    const m = obj[f];
    if (m === undefined || m === null) continue;
    if (typeof m !== 'object' || Array.isArray(m)) {
      causes.push(invalidCause(f, m, 'must be a map of strings'));
      continue;
    }
    for (const k of Object.keys(m)) {
      if (!re.test(k) || k.length > 253) {
        causes.push(
          invalidCause(
            `${f}[${k}]`,
            k,
            "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
          ),
        );
      }
    }
  }
  return causes;
}
