import type { AuthorizationAttributes, Authorizer } from '@orchard/authz';
import {
  type ApiObject,
  errors,
  type FieldCause,
  type Flavor,
  fieldErrors,
  type UserInfo,
} from '@orchard/meta';
import { getOwn, isJsonObject } from '@orchard/meta/internal';
import { defineResource, type ResourceDefinition } from '../resource.js';

/**
 * `selfsubjectreviews` (authentication group v1): answers with the caller's identity (spec doc 2 §2.2, §4.2).
 * Not stored; only `create`.
 */
export function selfSubjectReviews(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: flavor.group('authentication'),
    versions: ['v1'],
    resource: 'selfsubjectreviews',
    kind: 'SelfSubjectReview',
    namespaced: false,
    verbs: ['create'],
    virtualCreate(obj, { user }) {
      const userInfo: Record<string, unknown> = { username: user.username, groups: [...user.groups] };
      if (user.uid) userInfo.uid = user.uid;
      if (user.extra && Object.keys(user.extra).length > 0) userInfo.extra = user.extra;
      return {
        kind: 'SelfSubjectReview',
        apiVersion: `${flavor.group('authentication')}/v1`,
        metadata: { creationTimestamp: null, ...(obj.metadata ?? {}) },
        status: { userInfo },
      };
    },
  });
}

type Json = Record<string, unknown>;

/** A string field of a client object ('' when absent; wrong types are validation causes). */
function str(o: Json | undefined, field: string, path: string, causes: FieldCause[]): string {
  const v = o === undefined ? undefined : getOwn(o, field);
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') {
    causes.push(fieldErrors.invalid(`${path}.${field}`, v, 'must be a string'));
    return '';
  }
  return v;
}

function obj(o: Json | undefined, field: string, path: string, causes: FieldCause[]): Json | undefined {
  const v = o === undefined ? undefined : getOwn(o, field);
  if (v === undefined || v === null) return undefined;
  if (!isJsonObject(v)) {
    causes.push(fieldErrors.invalid(`${path}.${field}`, v, 'must be an object'));
    return undefined;
  }
  return v;
}

function strings(o: Json | undefined, field: string, path: string, causes: FieldCause[]): string[] {
  const v = o === undefined ? undefined : getOwn(o, field);
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    causes.push(fieldErrors.invalid(`${path}.${field}`, v, 'must be a list of strings'));
    return [];
  }
  return v as string[];
}

function extraOf(spec: Json, causes: FieldCause[]): Record<string, string[]> | undefined {
  const e = obj(spec, 'extra', 'spec', causes);
  if (!e) return undefined;
  const out: Record<string, string[]> = Object.create(null);
  for (const k of Object.keys(e)) out[k] = strings(e, k, 'spec.extra', causes);
  return out;
}

/** Upstream: the metadata of a review must be empty (kubectl sends `creationTimestamp: null`). */
function metadataCauses(o: ApiObject): FieldCause[] {
  const m = getOwn(o as Json, 'metadata');
  if (m === undefined || m === null) return [];
  if (!isJsonObject(m)) return [fieldErrors.invalid('metadata', m, 'must be empty')];
  for (const k of Object.keys(m)) {
    const v = m[k];
    const empty =
      v === null ||
      v === '' ||
      (Array.isArray(v) && v.length === 0) ||
      (isJsonObject(v) && Object.keys(v).length === 0);
    if (!empty) return [fieldErrors.invalid('metadata', m, 'must be empty')];
  }
  return [];
}

interface ParsedSpec {
  readonly resource?: Json;
  readonly nonResource?: Json;
}

/** `spec.resourceAttributes` xor `spec.nonResourceAttributes`, with upstream's messages. */
function attributeSpec(spec: Json, causes: FieldCause[]): ParsedSpec {
  const resource = obj(spec, 'resourceAttributes', 'spec', causes);
  const nonResource = obj(spec, 'nonResourceAttributes', 'spec', causes);
  if (resource && nonResource)
    causes.push(
      fieldErrors.invalid(
        'spec.nonResourceAttributes',
        nonResource,
        'cannot be specified in combination with resourceAttributes',
      ),
    );
  else if (!resource && !nonResource)
    causes.push(
      fieldErrors.invalid(
        'spec.resourceAttributes',
        null,
        'exactly one of nonResourceAttributes or resourceAttributes must be specified',
      ),
    );
  return { ...(resource ? { resource } : {}), ...(nonResource ? { nonResource } : {}) };
}

/** The selector attributes of a review (`fieldSelector.rawSelector`, `labelSelector.rawSelector`). */
function rawSelector(ra: Json, field: string, causes: FieldCause[]): string | undefined {
  const s = obj(ra, field, 'spec.resourceAttributes', causes);
  if (!s) return undefined;
  const raw = str(s, 'rawSelector', `spec.resourceAttributes.${field}`, causes);
  return raw === '' ? undefined : raw;
}

function attributesOf(user: UserInfo, p: ParsedSpec, causes: FieldCause[]): AuthorizationAttributes {
  const base = { user, apiGroup: '', apiVersion: '', namespace: '', resource: '', subresource: '', name: '' };
  if (p.resource) {
    const ra = p.resource;
    const path = 'spec.resourceAttributes';
    const fieldSelector = rawSelector(ra, 'fieldSelector', causes);
    const labelSelector = rawSelector(ra, 'labelSelector', causes);
    return {
      ...base,
      isResourceRequest: true,
      path: '',
      verb: str(ra, 'verb', path, causes),
      apiGroup: str(ra, 'group', path, causes),
      apiVersion: str(ra, 'version', path, causes),
      namespace: str(ra, 'namespace', path, causes),
      resource: str(ra, 'resource', path, causes),
      subresource: str(ra, 'subresource', path, causes),
      name: str(ra, 'name', path, causes),
      ...(fieldSelector !== undefined ? { fieldSelector } : {}),
      ...(labelSelector !== undefined ? { labelSelector } : {}),
    };
  }
  const na = p.nonResource ?? {};
  return {
    ...base,
    isResourceRequest: false,
    path: str(na, 'path', 'spec.nonResourceAttributes', causes),
    verb: str(na, 'verb', 'spec.nonResourceAttributes', causes),
  };
}

async function decide(authorizer: Authorizer, a: AuthorizationAttributes): Promise<Json> {
  const r = await authorizer.authorize(a);
  return {
    allowed: r.decision === 'allow',
    ...(r.decision === 'deny' ? { denied: true } : {}),
    ...(r.reason !== '' ? { reason: r.reason } : {}),
  };
}

type Kind = 'SelfSubjectAccessReview' | 'SubjectAccessReview' | 'LocalSubjectAccessReview';

function accessReview(flavor: Flavor, kind: Kind, authorizer: () => Authorizer): ResourceDefinition {
  const group = flavor.group('authorization');
  return defineResource({
    group,
    versions: ['v1'],
    resource: `${kind.toLowerCase()}s`,
    kind,
    namespaced: kind === 'LocalSubjectAccessReview',
    verbs: ['create'],
    async virtualCreate(body, { user, namespace }) {
      const causes = metadataCauses(body);
      const specValue = getOwn(body as Json, 'spec');
      const spec: Json = isJsonObject(specValue) ? specValue : {};
      if (specValue !== undefined && specValue !== null && !isJsonObject(specValue))
        causes.push(fieldErrors.invalid('spec', specValue, 'must be an object'));
      const parsed = attributeSpec(spec, causes);
      let subject: UserInfo = user;
      if (kind !== 'SelfSubjectAccessReview') {
        const username = str(spec, 'user', 'spec', causes);
        const groups = strings(spec, 'groups', 'spec', causes);
        const uid = str(spec, 'uid', 'spec', causes);
        const extra = extraOf(spec, causes);
        if (username === '' && groups.length === 0)
          causes.push(
            fieldErrors.invalid('spec.user', username, 'at least one of user or group must be specified'),
          );
        subject = { username, groups, ...(uid ? { uid } : {}), ...(extra ? { extra } : {}) };
      }
      if (kind === 'LocalSubjectAccessReview' && parsed.nonResource)
        causes.push(
          fieldErrors.invalid(
            'spec.nonResourceAttributes',
            parsed.nonResource,
            'disallowed on this kind of request',
          ),
        );
      const attributes = attributesOf(subject, parsed, causes);
      if (causes.length > 0) throw errors.invalid(group, kind, '', causes);
      if (kind === 'LocalSubjectAccessReview' && attributes.namespace !== namespace)
        throw errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${namespace}`);
      return {
        kind,
        apiVersion: `${group}/v1`,
        metadata: { creationTimestamp: null, ...(kind === 'LocalSubjectAccessReview' ? { namespace } : {}) },
        spec,
        status: await decide(authorizer(), attributes),
      };
    },
  });
}

/**
 * `selfsubjectrulesreviews`: the rules the caller holds in `spec.namespace`, `incomplete` when an
 * authorizer of the chain cannot list what it would allow.
 */
function selfSubjectRulesReviews(flavor: Flavor, authorizer: () => Authorizer): ResourceDefinition {
  const group = flavor.group('authorization');
  return defineResource({
    group,
    versions: ['v1'],
    resource: 'selfsubjectrulesreviews',
    kind: 'SelfSubjectRulesReview',
    namespaced: false,
    verbs: ['create'],
    virtualCreate(body, { user }) {
      const causes = metadataCauses(body);
      const specValue = getOwn(body as Json, 'spec');
      const spec: Json | undefined = isJsonObject(specValue) ? specValue : undefined;
      const namespace = str(spec, 'namespace', 'spec', causes);
      if (causes.length > 0) throw errors.invalid(group, 'SelfSubjectRulesReview', '', causes);
      if (namespace === '') throw errors.badRequest('no namespace on request');
      const z = authorizer();
      const rules = z.rulesFor
        ? z.rulesFor(user, namespace)
        : { resourceRules: [], nonResourceRules: [], incomplete: true };
      const list = (xs: readonly string[] | null | undefined) => [...(xs ?? [])];
      return {
        kind: 'SelfSubjectRulesReview',
        apiVersion: `${group}/v1`,
        metadata: { creationTimestamp: null },
        spec: { namespace },
        status: {
          resourceRules: rules.resourceRules.map((r) => ({
            verbs: list(r.verbs),
            ...(r.apiGroups?.length ? { apiGroups: list(r.apiGroups) } : {}),
            ...(r.resources?.length ? { resources: list(r.resources) } : {}),
            ...(r.resourceNames?.length ? { resourceNames: list(r.resourceNames) } : {}),
          })),
          nonResourceRules: rules.nonResourceRules.map((r) => ({
            verbs: list(r.verbs),
            nonResourceURLs: list(r.nonResourceURLs),
          })),
          incomplete: rules.incomplete,
          ...(rules.evaluationError ? { evaluationError: rules.evaluationError } : {}),
        },
      };
    },
  });
}

/**
 * The authorization review resources (`authorization.<domain>/v1`, spec doc 2 §2.2): self, subject
 * and local subject access reviews answered by the server's authorizer chain, and self rules reviews.
 * `authorizer` is read per request (the chain is built after the registry).
 */
export function authorizationReviews(flavor: Flavor, authorizer: () => Authorizer): ResourceDefinition[] {
  return [
    accessReview(flavor, 'SelfSubjectAccessReview', authorizer),
    accessReview(flavor, 'SubjectAccessReview', authorizer),
    accessReview(flavor, 'LocalSubjectAccessReview', authorizer),
    selfSubjectRulesReviews(flavor, authorizer),
  ];
}
