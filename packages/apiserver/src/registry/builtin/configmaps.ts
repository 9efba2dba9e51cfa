import { defineResource, type ResourceDefinition } from '../resource.js';
import { dataSizeCauses, validateDataKeys } from '../validation.js';

const sizeOf = (obj: Record<string, unknown>) =>
  dataSizeCauses(obj, { text: ['data'], base64: ['binaryData'] }, '');

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
      return [...validateDataKeys(obj, ['data', 'binaryData']), ...sizeOf(obj)];
    },
    validateUpdate(obj, old) {
      const causes = [...validateDataKeys(obj, ['data', 'binaryData']), ...sizeOf(obj)];
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
