/**
 * The audit policy (`--audit-policy-file`, `audit.<domain>/v1` Policy): an ordered list of rules,
 * the first that matches a request decides its level (`None` when none does). Read with the
 * configuration-file helpers of `@orchard/authn/internal` (size bound, YAML or JSON, strict fields) and
 * validated at load, every error naming its field.
 */
import { parseConfigDocument, parseConfigSchema } from '@orchard/authn/internal';
import { type FieldCause, type Flavor, fieldErrors, type UserInfo } from '@orchard/meta';
import { aggregateMessage } from '@orchard/meta/internal';
import { z } from 'zod';

/** How much of a request is recorded: nothing, metadata, plus the request body, plus the response body. */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';
/** The stages of a request an event is written at. */
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

export const auditLevels: readonly AuditLevel[] = Object.freeze([
  'None',
  'Metadata',
  'Request',
  'RequestResponse',
]);
export const auditStages: readonly AuditStage[] = Object.freeze([
  'RequestReceived',
  'ResponseStarted',
  'ResponseComplete',
  'Panic',
]);

/** Resources of one API group a rule applies to: `resource`, `resource/subresource`, `*`, `resource/*`, or `*` slash a subresource. */
export interface GroupResources {
  readonly group: string;
  readonly resources: readonly string[];
  readonly resourceNames: readonly string[];
}

/** One rule of the policy; an empty list matches everything of its kind. */
export interface PolicyRule {
  readonly level: AuditLevel;
  readonly users: readonly string[];
  readonly userGroups: readonly string[];
  readonly verbs: readonly string[];
  readonly resources: readonly GroupResources[];
  readonly namespaces: readonly string[];
  readonly nonResourceURLs: readonly string[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields?: boolean;
}

/** A loaded, validated policy. */
export interface AuditPolicy {
  readonly rules: readonly PolicyRule[];
  readonly omitStages: readonly AuditStage[];
  readonly omitManagedFields: boolean;
}

/** What a request is matched on (its user before impersonation, as upstream). */
export interface AuditAttributes {
  readonly user: UserInfo | undefined;
  readonly verb: string;
  readonly isResourceRequest: boolean;
  readonly path: string;
  readonly apiGroup: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
}

/** The decision for one request: its level, the stages not written, and whether managedFields are left out. */
export interface AuditDecision {
  readonly level: AuditLevel;
  readonly omitStages: ReadonlySet<AuditStage>;
  readonly omitManagedFields: boolean;
}

/** A policy file larger than this is refused before parsing. */
export const maxAuditPolicyBytes = 1 << 20;

const strings = z.array(z.string()).nullish();
const fileSchema = z.strictObject({
  apiVersion: z.string().nullish(),
  kind: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  omitStages: strings,
  omitManagedFields: z.boolean().nullish(),
  rules: z
    .array(
      z.strictObject({
        level: z.string().nullish(),
        users: strings,
        userGroups: strings,
        verbs: strings,
        resources: z
          .array(z.strictObject({ group: z.string().nullish(), resources: strings, resourceNames: strings }))
          .nullish(),
        namespaces: strings,
        nonResourceURLs: strings,
        omitStages: strings,
        omitManagedFields: z.boolean().nullish(),
      }),
    )
    .nullish(),
});

/** An invalid audit policy: a start-up error whose message names the file and each field. */
export class AuditPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditPolicyError';
  }
}

function checkStages(stages: readonly string[], field: string, causes: FieldCause[]): AuditStage[] {
  stages.forEach((s, i) => {
    if (!(auditStages as readonly string[]).includes(s))
      causes.push(fieldErrors.notSupported(`${field}[${i}]`, s, auditStages));
  });
  return stages as AuditStage[];
}

function checkResource(r: string, field: string, causes: FieldCause[]): void {
  const parts = r.split('/');
  if (r === '' || parts.length > 2 || parts.some((p) => p === ''))
    causes.push(
      fieldErrors.invalid(
        field,
        r,
        'must be "resource", "resource/subresource", "*", "*/subresource" or "resource/*"',
      ),
    );
  else if (parts.length === 1 && r.includes('*') && r !== '*')
    causes.push(fieldErrors.invalid(field, r, 'a wildcard must be a whole segment'));
}

/**
 * Parses and validates the text of a policy file (`file` names it in errors). Throws
 * `AuditPolicyError` listing every bad field (`rules[0].level: Unsupported value: "Loud": …`).
 */
export function parseAuditPolicy(text: string, file: string, flavor: Flavor): AuditPolicy {
  const fail = (m: string) => new AuditPolicyError(m);
  const doc = { file, kind: 'Policy', fail };
  const raw = parseConfigDocument(text, { ...doc, maxBytes: maxAuditPolicyBytes });
  const parsed = parseConfigSchema(fileSchema, raw, doc);
  const causes: FieldCause[] = [];
  const group = `audit.${flavor.domain}`;
  const versions = [`${group}/v1`];
  if (parsed.apiVersion == null) causes.push(fieldErrors.required('apiVersion'));
  else if (!versions.includes(parsed.apiVersion))
    causes.push(fieldErrors.notSupported('apiVersion', parsed.apiVersion, versions));
  if (parsed.kind !== 'Policy') causes.push(fieldErrors.notSupported('kind', parsed.kind ?? '', ['Policy']));
  const omitStages = checkStages(parsed.omitStages ?? [], 'omitStages', causes);
  const rules: PolicyRule[] = (parsed.rules ?? []).map((r, i) => {
    const at = `rules[${i}]`;
    if (r.level == null) causes.push(fieldErrors.required(`${at}.level`));
    else if (!(auditLevels as readonly string[]).includes(r.level))
      causes.push(fieldErrors.notSupported(`${at}.level`, r.level, auditLevels));
    const urls = r.nonResourceURLs ?? [];
    const resources = r.resources ?? [];
    const namespaces = r.namespaces ?? [];
    if (urls.length > 0 && (resources.length > 0 || namespaces.length > 0))
      causes.push(
        fieldErrors.invalid(
          `${at}.nonResourceURLs`,
          urls,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    urls.forEach((u, j) => {
      const star = u.indexOf('*');
      if (!u.startsWith('/') && u !== '*')
        causes.push(
          fieldErrors.invalid(`${at}.nonResourceURLs[${j}]`, u, 'non-resource URLs must start with "/"'),
        );
      else if (star >= 0 && star !== u.length - 1)
        causes.push(fieldErrors.invalid(`${at}.nonResourceURLs[${j}]`, u, '"*" is allowed only at the end'));
    });
    const groups: GroupResources[] = resources.map((g, j) => {
      const gat = `${at}.resources[${j}]`;
      const names = g.resourceNames ?? [];
      const res = g.resources ?? [];
      if (names.length > 0 && res.length === 0)
        causes.push(
          fieldErrors.invalid(
            `${gat}.resourceNames`,
            names,
            'using resourceNames requires at least one resource',
          ),
        );
      res.forEach((x, k) => {
        checkResource(x, `${gat}.resources[${k}]`, causes);
      });
      return { group: g.group ?? '', resources: res, resourceNames: names };
    });
    return {
      level: (r.level ?? 'None') as AuditLevel,
      users: r.users ?? [],
      userGroups: r.userGroups ?? [],
      verbs: r.verbs ?? [],
      resources: groups,
      namespaces,
      nonResourceURLs: urls,
      omitStages: checkStages(r.omitStages ?? [], `${at}.omitStages`, causes),
      ...(r.omitManagedFields != null ? { omitManagedFields: r.omitManagedFields } : {}),
    };
  });
  if (causes.length > 0) throw fail(`${file}: ${aggregateMessage(causes)}`);
  return { rules, omitStages, omitManagedFields: parsed.omitManagedFields ?? false };
}

function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.slice(0, -1));
}

function resourceMatches(rule: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  if (rule.namespaces.length > 0 && !rule.namespaces.includes(a.namespace)) return false;
  if (rule.resources.length === 0) return true;
  const combined = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  for (const g of rule.resources) {
    if (g.group !== a.apiGroup) continue;
    if (g.resources.length === 0) return true;
    if (g.resourceNames.length > 0 && !g.resourceNames.includes(a.name)) continue;
    for (const r of g.resources) {
      if (r === combined || r === '*') return true;
      if (a.subresource !== '' && r.startsWith('*/') && r.slice(2) === a.subresource) return true;
      if (r.endsWith('/*') && r.slice(0, -2) === a.resource) return true;
    }
  }
  return false;
}

/** Whether `rule` applies to the request (upstream's `ruleMatches`). */
export function ruleMatches(rule: PolicyRule, a: AuditAttributes): boolean {
  const user = a.user;
  if (rule.users.length > 0 && !(user && rule.users.includes(user.username))) return false;
  if (rule.userGroups.length > 0 && !(user?.groups ?? []).some((g) => rule.userGroups.includes(g)))
    return false;
  if (rule.verbs.length > 0 && !rule.verbs.includes(a.verb)) return false;
  if (rule.namespaces.length > 0 || rule.resources.length > 0) return resourceMatches(rule, a);
  if (rule.nonResourceURLs.length > 0)
    return !a.isResourceRequest && rule.nonResourceURLs.some((u) => pathMatches(a.path, u));
  return true;
}

const noStages: ReadonlySet<AuditStage> = new Set();

/** The level, omitted stages and managedFields choice for a request: the first matching rule's, else `None`. */
export function evaluatePolicy(policy: AuditPolicy, a: AuditAttributes): AuditDecision {
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, a)) continue;
    const stages = [...policy.omitStages, ...rule.omitStages];
    return {
      level: rule.level,
      omitStages: stages.length === 0 ? noStages : new Set(stages),
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields,
    };
  }
  return { level: 'None', omitStages: noStages, omitManagedFields: false };
}
