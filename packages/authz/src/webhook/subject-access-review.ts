/**
 * The SubjectAccessReview a webhook authorizer sends (doc 2 §2.2, §2.6) and the answer it reads:
 * `spec` from the request attributes in `authorization.<domain>/v1` or `v1beta1` form (v1beta1 names
 * the groups `group`), and `status.allowed` / `denied` / `reason` / `evaluationError` from a JSON
 * answer whose shape is checked, so a malformed answer is an error and never a decision.
 */
import {
  type Flavor,
  type LabelRequirement,
  parseFieldSelector,
  parseLabelSelector,
  type UserInfo,
} from '@orchard/meta';
import { getOwn } from '@orchard/meta/internal';
import type { AuthorizationAttributes } from '../attributes.js';

/** The SubjectAccessReview versions a webhook may be sent. */
export const subjectAccessReviewVersions = Object.freeze(['v1', 'v1beta1'] as const);
/** `subjectAccessReviewVersion` / `--authorization-webhook-version`. */
export type SubjectAccessReviewVersion = (typeof subjectAccessReviewVersions)[number];

type Json = Record<string, unknown>;

/** `{key, operator, values}` of SubjectAccessReview's selector requirements. */
interface SelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

const labelOperators: Readonly<Record<string, SelectorRequirement['operator'] | undefined>> = {
  '=': 'In',
  '==': 'In',
  in: 'In',
  '!=': 'NotIn',
  notin: 'NotIn',
  exists: 'Exists',
  '!': 'DoesNotExist',
};

// As upstream: the parsed requirements (not the raw text) are sent; a selector that does not parse,
// and label terms the API cannot express (`gt`, `lt`), are left out: selectors only narrow a request.
function fieldRequirements(raw: string | undefined): SelectorRequirement[] {
  if (!raw) return [];
  try {
    return parseFieldSelector(raw)
      .requirements()
      .map((r) => ({ key: r.field, operator: r.operator === '=' ? 'In' : 'NotIn', values: [r.value] }));
  } catch {
    return [];
  }
}

function labelRequirements(raw: string | undefined): SelectorRequirement[] {
  if (!raw) return [];
  let reqs: readonly LabelRequirement[];
  try {
    reqs = parseLabelSelector(raw).requirements();
  } catch {
    return [];
  }
  const out: SelectorRequirement[] = [];
  for (const r of reqs) {
    const operator = labelOperators[r.operator];
    if (!operator) continue;
    out.push({ key: r.key, operator, ...(r.values.length > 0 ? { values: [...r.values] } : {}) });
  }
  return out;
}

function userFields(user: UserInfo, groupsField: 'groups' | 'group'): Json {
  const out: Json = { user: user.username };
  if (user.groups.length > 0) out[groupsField] = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) {
    const extra: Record<string, string[]> = {};
    for (const k of Object.keys(user.extra))
      Object.defineProperty(extra, k, {
        value: [...(user.extra[k] ?? [])],
        enumerable: true,
        writable: true,
        configurable: true,
      });
    out.extra = extra;
  }
  if (user.uid) out.uid = user.uid;
  return out;
}

/**
 * The `spec` of a SubjectAccessReview for `a` in `version`: `resourceAttributes` (with the selector
 * requirements when the attributes carry selectors) or `nonResourceAttributes`, then the user.
 */
export function subjectAccessReviewSpec(
  a: AuthorizationAttributes,
  version: SubjectAccessReviewVersion,
): Json {
  const spec: Json = {};
  if (a.isResourceRequest) {
    const ra: Json = {
      namespace: a.namespace,
      verb: a.verb,
      group: a.apiGroup,
      version: a.apiVersion,
      resource: a.resource,
      subresource: a.subresource,
      name: a.name,
    };
    const fields = fieldRequirements(a.fieldSelector);
    if (fields.length > 0) ra.fieldSelector = { requirements: fields };
    const labels = labelRequirements(a.labelSelector);
    if (labels.length > 0) ra.labelSelector = { requirements: labels };
    spec.resourceAttributes = ra;
  } else {
    spec.nonResourceAttributes = { path: a.path, verb: a.verb };
  }
  return Object.assign(spec, userFields(a.user, version === 'v1beta1' ? 'group' : 'groups'));
}

/**
 * The `request` variable of match conditions: a v1 SubjectAccessReview spec whose string and list
 * fields are always present (`request.groups`, `request.extra`, `request.uid`, every field of
 * `request.resourceAttributes`), so `has(request.resourceAttributes)` tells the two kinds apart.
 */
export function matchConditionRequest(a: AuthorizationAttributes): Json {
  const spec = subjectAccessReviewSpec(a, 'v1');
  spec.groups ??= [];
  spec.extra ??= {};
  spec.uid ??= '';
  return spec;
}

/** The review POSTed for `a`: `authorization.<domain>/<version>` SubjectAccessReview. */
export function subjectAccessReview(
  a: AuthorizationAttributes,
  version: SubjectAccessReviewVersion,
  flavor: Flavor,
): Json {
  return {
    apiVersion: `authorization.${flavor.domain}/${version}`,
    kind: 'SubjectAccessReview',
    spec: subjectAccessReviewSpec(a, version),
  };
}

/** What a webhook answered, read from `status`. */
export interface SubjectAccessReviewStatus {
  readonly allowed: boolean;
  readonly denied: boolean;
  readonly reason: string;
  readonly evaluationError: string;
}

/** Thrown for an answer that is not a SubjectAccessReview with a well-typed `status`. */
export class MalformedAnswerError extends Error {
  constructor(detail: string) {
    super(`malformed SubjectAccessReview answer: ${detail}`);
    this.name = 'MalformedAnswerError';
  }
}

/**
 * Reads a webhook's answer (the response body). Throws `MalformedAnswerError` when it is not JSON,
 * not an object, names another kind or API group, lacks `status`, or has a field of the wrong type.
 */
export function parseSubjectAccessReviewAnswer(text: string, flavor: Flavor): SubjectAccessReviewStatus {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new MalformedAnswerError(`not JSON: ${(e as Error).message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new MalformedAnswerError('not a JSON object');
  const kind = getOwn(body, 'kind');
  if (kind !== undefined && kind !== 'SubjectAccessReview')
    throw new MalformedAnswerError(`kind ${JSON.stringify(kind)}, want SubjectAccessReview`);
  const apiVersion = getOwn(body, 'apiVersion');
  if (
    apiVersion !== undefined &&
    (typeof apiVersion !== 'string' || !apiVersion.startsWith(`authorization.${flavor.domain}/`))
  )
    throw new MalformedAnswerError(`apiVersion ${JSON.stringify(apiVersion)}`);
  const status = getOwn(body, 'status');
  if (typeof status !== 'object' || status === null || Array.isArray(status))
    throw new MalformedAnswerError('no status');
  const field = <T>(name: string, type: 'boolean' | 'string', fallback: T): T => {
    const v = getOwn(status, name);
    if (v === undefined || v === null) return fallback;
    if (typeof v !== type) throw new MalformedAnswerError(`status.${name} is not a ${type}`);
    return v as T;
  };
  return {
    allowed: field('allowed', 'boolean', false),
    denied: field('denied', 'boolean', false),
    reason: field('reason', 'string', ''),
    evaluationError: field('evaluationError', 'string', ''),
  };
}
