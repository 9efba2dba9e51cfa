/**
 * Mode `ABAC` (`--authorization-policy-file`): upstream's policy file, one JSON object per line.
 * A line is a `{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{…}}`
 * (under the orch flavor also `abac.authorization.orch.io/v1beta1`, the same group in the flavor's
 * domain; upstream's name stays accepted so shared policy files keep working) (or the legacy v0 form: the spec fields at top level, no apiVersion); blank lines and lines starting
 * with `#` are skipped. A request is allowed when some policy matches its subject, verb and target;
 * ABAC never denies.
 */
import type { Flavor, UserInfo } from '@orchard/meta';
import type { PolicyRule } from '@orchard/rbac';
import { z } from 'zod';
import { type AuthorizationAttributes, isReadOnlyVerb } from './attributes.js';
import { type Authorizer, allowResult, noOpinionResult } from './authorizer.js';

/** One policy after conversion to v1beta1 semantics. */
export interface AbacPolicy {
  readonly user: string;
  readonly group: string;
  readonly readonly: boolean;
  readonly apiGroup: string;
  readonly resource: string;
  readonly namespace: string;
  readonly nonResourcePath: string;
}

/** The ABAC API versions a line may name under every flavor (upstream's group: policy files are shared). */
export const abacApiVersions = Object.freeze(['abac.authorization.kubernetes.io/v1beta1']);

/**
 * The ABAC API versions a line may name under `flavor`: upstream's, and under a flavor with another
 * domain the same group in that domain (`abac.authorization.orch.io/v1beta1`). Fresh array.
 */
export function abacApiVersionsFor(flavor: Flavor | undefined): string[] {
  if (flavor === undefined || flavor.name === 'kubernetes') return [...abacApiVersions];
  return [...abacApiVersions, `abac.authorization.${flavor.domain}/v1beta1`];
}

const specFields = {
  user: z.string().optional(),
  group: z.string().optional(),
  readonly: z.boolean().optional(),
  apiGroup: z.string().optional(),
  resource: z.string().optional(),
  namespace: z.string().optional(),
  nonResourcePath: z.string().optional(),
};

const v1beta1Line = z.strictObject({
  apiVersion: z.string(),
  kind: z.literal('Policy'),
  spec: z.strictObject(specFields),
});

// v0: fields at the top level; unset user and group meant every authenticated user.
const v0Line = z.strictObject({
  user: z.string().optional(),
  group: z.string().optional(),
  readonly: z.boolean().optional(),
  resource: z.string().optional(),
  namespace: z.string().optional(),
});

/** A policy file that cannot be used, naming the file, the line and the field. */
export class AbacPolicyError extends Error {
  readonly code = 'InvalidPolicyFile' as const;
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
    this.name = 'AbacPolicyError';
  }
}

/**
 * True for the error an ABAC policy file is rejected with (code `InvalidPolicyFile`, message `<file>:<line>:
 * <detail>`); reads only `code`, never throws.
 */
export function isAbacPolicyError(e: unknown): e is AbacPolicyError {
  return e instanceof Error && (e as { code?: unknown }).code === 'InvalidPolicyFile';
}

function zodDetail(err: z.ZodError): string {
  return err.issues.map((i) => `${i.path.length ? i.path.join('.') : '(line)'}: ${i.message}`).join('; ');
}

/** Policy lines longer than this are refused (a line is one small object; protects the JSON parser). */
const maxLineBytes = 64 * 1024;

/**
 * Parses a policy file's text; throws `AbacPolicyError` naming the first bad line (1-based) and field.
 * `file` is only used in messages; `flavor` adds its own ABAC group name (see `abacApiVersionsFor`).
 */
export function parseAbacPolicies(text: string, file = 'policy file', flavor?: Flavor): AbacPolicy[] {
  const out: AbacPolicy[] = [];
  const apiVersions = abacApiVersionsFor(flavor);
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = (lines[i] as string).trim();
    if (raw === '' || raw.startsWith('#')) continue;
    const n = i + 1;
    if (raw.length > maxLineBytes)
      throw new AbacPolicyError(file, n, `line longer than ${maxLineBytes} bytes`);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new AbacPolicyError(file, n, `not a JSON object: ${(e as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new AbacPolicyError(file, n, 'not a JSON object');
    if (Object.hasOwn(value, 'apiVersion') || Object.hasOwn(value, 'kind') || Object.hasOwn(value, 'spec')) {
      const parsed = v1beta1Line.safeParse(value);
      if (!parsed.success) throw new AbacPolicyError(file, n, zodDetail(parsed.error));
      if (!apiVersions.includes(parsed.data.apiVersion))
        throw new AbacPolicyError(
          file,
          n,
          `apiVersion: unsupported "${parsed.data.apiVersion}" (want ${apiVersions.join(' or ')})`,
        );
      const s = parsed.data.spec;
      if (!s.user && !s.group) throw new AbacPolicyError(file, n, 'spec: one of user or group is required');
      out.push({
        user: s.user ?? '',
        group: s.group ?? '',
        readonly: s.readonly ?? false,
        apiGroup: s.apiGroup ?? '',
        resource: s.resource ?? '',
        namespace: s.namespace ?? '',
        nonResourcePath: s.nonResourcePath ?? '',
      });
      continue;
    }
    const parsed = v0Line.safeParse(value);
    if (!parsed.success) throw new AbacPolicyError(file, n, zodDetail(parsed.error));
    const s = parsed.data;
    // Upstream's v0 conversion: no subject = every authenticated user; unset target = everything.
    out.push({
      user: s.user ?? '',
      group: s.user || s.group ? (s.group ?? '') : 'system:authenticated',
      readonly: s.readonly ?? false,
      apiGroup: '*',
      resource: s.resource || '*',
      namespace: s.namespace || '*',
      nonResourcePath: '*',
    });
  }
  return out;
}

function subjectMatches(p: AbacPolicy, user: UserInfo): boolean {
  let matched = false;
  if (p.user !== '') {
    if (p.user !== '*' && p.user !== user.username) return false;
    matched = true;
  }
  if (p.group !== '') {
    if (p.group !== '*' && !user.groups.includes(p.group)) return false;
    matched = true;
  }
  return matched;
}

function targetMatches(p: AbacPolicy, a: AuthorizationAttributes): boolean {
  if (a.isResourceRequest)
    return (
      (p.namespace === '*' || p.namespace === a.namespace) &&
      (p.resource === '*' || p.resource === a.resource) &&
      (p.apiGroup === '*' || p.apiGroup === a.apiGroup)
    );
  const np = p.nonResourcePath;
  return np === '*' || np === a.path || (np.endsWith('*') && a.path.startsWith(np.slice(0, -1)));
}

/** Whether one policy allows a request. */
export function abacPolicyAllows(p: AbacPolicy, a: AuthorizationAttributes): boolean {
  return subjectMatches(p, a.user) && (!p.readonly || isReadOnlyVerb(a.verb)) && targetMatches(p, a);
}

/** The ABAC authorizer over parsed policies. */
export function createAbacAuthorizer(policies: readonly AbacPolicy[]): Authorizer {
  const list = [...policies];
  return {
    authorize(a) {
      for (const p of list) if (abacPolicyAllows(p, a)) return allowResult;
      return noOpinionResult;
    },
    rulesFor(user, namespace) {
      const resourceRules: PolicyRule[] = [];
      const nonResourceRules: PolicyRule[] = [];
      for (const p of list) {
        if (!subjectMatches(p, user)) continue;
        const verbs = p.readonly ? ['get', 'list', 'watch'] : ['*'];
        // Paths are not namespaced; resource policies count only for their namespace (or `*`).
        if (p.resource !== '' && (p.namespace === '*' || p.namespace === namespace))
          resourceRules.push({ verbs, apiGroups: [p.apiGroup], resources: [p.resource] });
        if (p.nonResourcePath !== '') nonResourceRules.push({ verbs, nonResourceURLs: [p.nonResourcePath] });
      }
      return { resourceRules, nonResourceRules, incomplete: false };
    },
  };
}
