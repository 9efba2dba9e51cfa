import type { z } from 'zod';
import { type FieldCause, fieldErrors } from './field-errors.js';

/** A zod issue path as upstream's field path: `jwt[0].issuer.url`, `resources[0].providers[1]`. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else s += s === '' ? String(p) : `.${String(p)}`;
  }
  return s;
}

/**
 * The field errors of a failed strict zod parse of a configuration document (AuthenticationConfiguration,
 * EncryptionConfiguration, audit Policy …): an unknown field is `FieldValueNotFound` ("unknown field",
 * as strict decoding), a missing one `Required value`, a wrong `kind` `Unsupported value` naming
 * `kind`, anything else `Invalid value` with zod's message. `shownValue` may replace a bad value
 * before it is echoed (a key file redacts secrets, as upstream does).
 */
export function configSchemaCauses(
  error: z.ZodError,
  kind: string,
  shownValue: (field: string, value: unknown) => unknown = (_field, value) => value,
): FieldCause[] {
  const out: FieldCause[] = [];
  for (const issue of error.issues) {
    const at = formatFieldPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) {
        out.push({
          reason: 'FieldValueNotFound',
          field: at === '' ? k : `${at}.${k}`,
          message: 'unknown field',
        });
      }
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      out.push(fieldErrors.required(at));
    } else if (issue.code === 'invalid_value' && at === 'kind') {
      out.push(fieldErrors.notSupported(at, issue.input, [kind]));
    } else {
      out.push(fieldErrors.invalid(at, shownValue(at, issue.input), issue.message));
    }
  }
  return out;
}
