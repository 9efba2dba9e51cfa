import { defineResource, type ResourceDefinition } from '../resource.js';
import { validateDataKeys } from '../validation.js';

/** `configmaps` (core v1, namespaced). */
export const configmaps: ResourceDefinition = defineResource({
  group: '',
  versions: ['v1'],
  resource: 'configmaps',
  kind: 'ConfigMap',
  namespaced: true,
  shortNames: ['cm'],
  strategy: {
    validate(obj) {
      return validateDataKeys(obj, ['data', 'binaryData']);
    },
    validateUpdate(obj, old) {
      const causes = validateDataKeys(obj, ['data', 'binaryData']);
      if (
        old.immutable === true &&
        (JSON.stringify(obj.data) !== JSON.stringify(old.data) ||
          JSON.stringify(obj.binaryData) !== JSON.stringify(old.binaryData))
      ) {
        causes.push({
          reason: 'FieldValueForbidden',
          field: 'data',
          message: 'Forbidden: field is immutable when `immutable` is set',
        });
      }
      if (old.immutable === true && obj.immutable !== true) {
        causes.push({
          reason: 'FieldValueForbidden',
          field: 'immutable',
          message: 'Forbidden: field is immutable when `immutable` is set',
        });
      }
      return causes;
    },
  },
});
