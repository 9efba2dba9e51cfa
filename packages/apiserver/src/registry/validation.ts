import { fieldErrors, type StatusCause } from '@orchard/meta';

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

/** Upstream's `MaxSecretSize`: the most bytes of data a ConfigMap or Secret may hold (1 MiB). */
export const maxDataBytes = 1024 * 1024;

/**
 * The 422 cause for a ConfigMap/Secret whose values add up to more than `maxDataBytes`: string
 * values count their UTF-8 bytes, base64 ones (`binaryData`, Secret `data`) their decoded bytes.
 * `field` is where upstream reports it (`""` for a ConfigMap, `data` for a Secret).
 */
export function dataSizeCauses(
  obj: Record<string, unknown>,
  fields: { readonly text?: readonly string[]; readonly base64?: readonly string[] },
  field: string,
): StatusCause[] {
  let total = 0;
  const values = (f: string): unknown[] => {
    const m = obj[f];
    return m !== null && typeof m === 'object' && !Array.isArray(m) ? Object.values(m) : [];
  };
  for (const f of fields.text ?? [])
    for (const v of values(f)) if (typeof v === 'string') total += Buffer.byteLength(v);
  for (const f of fields.base64 ?? [])
    for (const v of values(f)) if (typeof v === 'string') total += base64DecodedLength(v);
  return total > maxDataBytes ? [fieldErrors.tooLong(field, maxDataBytes)] : [];
}

function base64DecodedLength(s: string): number {
  let pad = 0;
  while (pad < 2 && s.charCodeAt(s.length - 1 - pad) === 61 /* = */) pad++;
  return Math.floor(((s.length - pad) * 3) / 4);
}
