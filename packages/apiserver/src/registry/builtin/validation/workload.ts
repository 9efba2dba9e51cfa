/**
 * Upstream's validation of the workload kinds (apps/v1 `ValidateDeploymentSpec` and the update
 * rules): a selector that is present, not empty and matches the template's labels, immutable in
 * apps/v1; non-negative replicas; a pod template whose restart policy is `Always`.
 */
import {
  fieldErrors,
  type GoSyntax,
  goSyntax,
  isQualifiedName,
  type LabelSelector,
  labelSelectorFromObject,
  type StatusCause,
  validateLabels,
} from '@orchard/meta';
import { isJsonObject, jsonEqual } from '@orchard/meta/internal';
import { validatePodSpec } from './pod-spec.js';

/** A Go `%#v`-like rendering of a map of strings, as upstream's messages print labels. */
function goStringMapText(m: unknown): string {
  if (!isJsonObject(m)) return 'map[string]string(nil)';
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(m[k])}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** A Go `%#v` rendering of a `map[string]string` (shown unquoted in field errors, as upstream). */
function goStringMap(m: unknown): GoSyntax {
  return goSyntax(goStringMapText(m));
}

/** A Go `%#v`-like rendering of a `metav1.LabelSelector` (shown unquoted in field errors, as upstream). */
export function goLabelSelector(s: unknown): GoSyntax {
  const sel = isJsonObject(s) ? s : {};
  const expressions = Array.isArray(sel.matchExpressions)
    ? `[]v1.LabelSelectorRequirement{...}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return goSyntax(
    `v1.LabelSelector{MatchLabels:${goStringMapText(sel.matchLabels)}, MatchExpressions:${expressions}}`,
  );
}

function isEmptySelector(s: Record<string, unknown>): boolean {
  const labels = isJsonObject(s.matchLabels) ? Object.keys(s.matchLabels).length : 0;
  const expressions = Array.isArray(s.matchExpressions) ? s.matchExpressions.length : 0;
  return labels + expressions === 0;
}

const selectorOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/**
 * upstream `ValidateLabelSelector`: matchLabels as labels, each requirement's key a qualified
 * name, a known operator, values exactly when the operator needs them.
 */
export function validateLabelSelector(selector: Record<string, unknown>, path: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (isJsonObject(selector.matchLabels))
    causes.push(...validateLabels(selector.matchLabels as Record<string, string>, `${path}.matchLabels`));
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  expressions.forEach((e, i) => {
    if (!isJsonObject(e)) return;
    const at = `${path}.matchExpressions[${i}]`;
    const values = Array.isArray(e.values) ? e.values : [];
    if (!selectorOperators.includes(e.operator as string))
      causes.push(fieldErrors.invalid(`${at}.operator`, e.operator, 'not a valid selector operator'));
    else if ((e.operator === 'In' || e.operator === 'NotIn') && values.length === 0)
      causes.push(
        fieldErrors.required(`${at}.values`, "must be specified when `operator` is 'In' or 'NotIn'"),
      );
    else if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && values.length > 0)
      causes.push(
        fieldErrors.forbidden(
          `${at}.values`,
          "may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ),
      );
    if (typeof e.key === 'string')
      for (const m of isQualifiedName(e.key)) causes.push(fieldErrors.invalid(`${at}.key`, e.key, m));
  });
  return causes;
}

/**
 * Upstream's "`selector` does not match template `labels`" check: none when `selector` (a
 * LabelSelector object) selects the template's labels or does not parse (its own validation says so).
 */
export function selectorMatchesTemplate(
  selector: Record<string, unknown>,
  template: Record<string, unknown>,
  templatePath: string,
): StatusCause[] {
  const labels = isJsonObject(template.metadata) ? template.metadata.labels : undefined;
  const labelCauses = isJsonObject(labels)
    ? validateLabels(labels as Record<string, string>, `${templatePath}.metadata.labels`)
    : [];
  if (labelCauses.length > 0) return labelCauses;
  let matches = false;
  try {
    matches = labelSelectorFromObject(selector as LabelSelector).matches(
      isJsonObject(labels) ? (labels as Record<string, string>) : {},
    );
  } catch {
    matches = true;
  }
  if (matches) return [];
  return [
    fieldErrors.invalid(
      `${templatePath}.metadata.labels`,
      goStringMap(labels),
      '`selector` does not match template `labels`',
    ),
  ];
}

/** `spec` of a Deployment, ReplicaSet, StatefulSet or DaemonSet: selector, replicas, template. */
export function validateWorkloadSpec(spec: unknown, kind: string): StatusCause[] {
  if (!isJsonObject(spec)) return [fieldErrors.required('spec')];
  const causes: StatusCause[] = [];
  if (typeof spec.replicas === 'number' && spec.replicas < 0)
    causes.push(fieldErrors.invalid('spec.replicas', spec.replicas, 'must be greater than or equal to 0'));
  if (typeof spec.minReadySeconds === 'number' && spec.minReadySeconds < 0)
    causes.push(
      fieldErrors.invalid('spec.minReadySeconds', spec.minReadySeconds, 'must be greater than or equal to 0'),
    );
  const selector = spec.selector;
  const template = isJsonObject(spec.template) ? spec.template : undefined;
  if (!isJsonObject(selector)) causes.push(fieldErrors.required('spec.selector'));
  else if (isEmptySelector(selector))
    causes.push(
      fieldErrors.invalid(
        'spec.selector',
        goLabelSelector(selector),
        `empty selector is invalid for ${kind.toLowerCase()}`,
      ),
    );
  else if (template !== undefined)
    causes.push(...selectorMatchesTemplate(selector, template, 'spec.template'));
  if (template === undefined) causes.push(fieldErrors.required('spec.template'));
  else {
    const podSpec = isJsonObject(template.spec) ? template.spec : undefined;
    causes.push(...validatePodSpec(podSpec, 'spec.template.spec'));
    const restart = podSpec?.restartPolicy;
    if (restart !== undefined && restart !== 'Always')
      causes.push(fieldErrors.notSupported('spec.template.spec.restartPolicy', restart, ['Always']));
  }
  return causes;
}

/** The update rules: everything `validateWorkloadSpec` checks, and the selector may not change. */
export function validateWorkloadSpecUpdate(spec: unknown, oldSpec: unknown, kind: string): StatusCause[] {
  const causes = validateWorkloadSpec(spec, kind);
  const selector = isJsonObject(spec) ? spec.selector : undefined;
  const oldSelector = isJsonObject(oldSpec) ? oldSpec.selector : undefined;
  if (oldSelector !== undefined && !jsonEqual(selector, oldSelector))
    causes.push(fieldErrors.invalid('spec.selector', goLabelSelector(selector), 'field is immutable'));
  return causes;
}
