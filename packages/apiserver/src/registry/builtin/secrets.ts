import type { ApiObject } from '@orchard/meta';
import { toBase64 } from '@orchard/meta/internal';
import { defineResource, type ResourceDefinition } from '../resource.js';
import { dataSizeCauses, invalidCause, validateDataKeys } from '../validation.js';

const utf8 = new TextEncoder();
const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** `stringData` is a write-only convenience: merged into `data` (base64) and dropped, as upstream does. */
function foldStringData(obj: ApiObject): void {
  const sd = obj.stringData;
  if (sd && typeof sd === 'object' && !Array.isArray(sd)) {
    const data = { ...((obj.data as Record<string, string> | undefined) ?? {}) };
    for (const [k, v] of Object.entries(sd as Record<string, unknown>)) {
      data[k] = toBase64(utf8.encode(String(v)));
    }
    obj.data = data;
  }
  delete obj.stringData;
  if (obj.type === undefined || obj.type === '') obj.type = 'Opaque';
}

function validateSecret(obj: ApiObject) {
  const causes = validateDataKeys(obj, ['data']);
  const data = obj.data as Record<string, unknown> | undefined;
  if (data && typeof data === 'object') {
    for (const [k, v] of Object.entries(data)) {
      if (typeof v !== 'string' || !base64.test(v))
        causes.push(invalidCause(`data[${k}]`, '<secret contents redacted>', 'must be base64-encoded'));
    }
  }
  causes.push(...dataSizeCauses(obj, { base64: ['data'] }, 'data'));
  return causes;
}

/** `secrets` (core v1, namespaced). */
export const secrets: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'secrets',
  kind: 'Secret',
  namespaced: true,
  strategy: {
    prepareForCreate: foldStringData,
    prepareForUpdate: (obj) => foldStringData(obj),
    validate: validateSecret,
    validateUpdate(obj, old) {
      const causes = validateSecret(obj);
      if (obj.type !== old.type)
        causes.push({
          reason: 'FieldValueInvalid',
          field: 'type',
          message: `Invalid value: ${JSON.stringify(obj.type)}: field is immutable`,
        });
      return causes;
    },
    selectableFields(obj) {
      return { type: String(obj.type ?? '') };
    },
  },
});
