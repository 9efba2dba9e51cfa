import {
  type ApiObject,
  defaultSelectableFields,
  objectFields,
  parseFieldSelector,
  parseLabelSelector,
  validateFieldSelector,
} from '@orchard/meta';
import type { ResourceDefinition } from '../registry/resource.js';

/**
 * The object filter of a list or watch: the `labelSelector` and `fieldSelector` query parameters
 * (parsed by `@orchard/meta`) compiled once per request. Field selectors support `metadata.name`,
 * `metadata.namespace` and the type's `selectableFields`; anything else is 400
 * `field label not supported: <field>`, as upstream answers.
 */
export interface ObjectFilter {
  readonly empty: boolean;
  matches(obj: ApiObject): boolean;
  /** The exact `metadata.name` the field selector requires, if any. */
  readonly name: string | undefined;
}

export function compileFilter(
  def: ResourceDefinition,
  labelSelector: string | undefined,
  fieldSelector: string | undefined,
): ObjectFilter {
  const labels = parseLabelSelector(labelSelector ?? '');
  const fields = parseFieldSelector(fieldSelector ?? '');
  const typeFields = def.strategy.selectableFields;
  const supported = new Set([...defaultSelectableFields, ...Object.keys(typeFields?.({}) ?? {})]);
  validateFieldSelector(fields, supported);
  const noLabels = labels.isEmpty();
  const noFields = fields.isEmpty();
  return {
    empty: noLabels && noFields,
    name: fields.requiresExactMatch('metadata.name'),
    matches(obj) {
      if (!noLabels && !labels.matches(obj.metadata?.labels ?? undefined)) return false;
      if (!noFields && !fields.matches(objectFields(obj, typeFields?.(obj)))) return false;
      return true;
    },
  };
}
