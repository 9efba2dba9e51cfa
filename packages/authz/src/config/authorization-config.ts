/**
 * AuthorizationConfiguration (doc 2 §2.6, `apiserver.config.<domain>/v1`, also v1beta1 and v1alpha1
 * as release 1.32 reads them): named, ordered authorizers; a webhook's caches, timeout, review
 * versions, failure policy, connection and CEL match conditions. Every rule is checked at load and a
 * bad file is refused with upstream's field errors, all of them at once.
 */
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { parseConfigDocument, parseConfigSchema } from '@orchard/authn/internal';
import type { Program } from '@orchard/cel';
import { type FieldCause, type Flavor, fieldErrors, orchFlavor } from '@orchard/meta';
import { aggregateMessage, formatGoDuration } from '@orchard/meta/internal';
import { z } from 'zod';
import { authorizationModes } from '../modes.js';
import { compileMatchConditions } from '../webhook/match-conditions.js';
import type { SubjectAccessReviewVersion } from '../webhook/subject-access-review.js';
import type { WebhookFailurePolicy } from '../webhook/webhook-authorizer.js';
import { parseDurationMs } from './go-duration.js';

/** The API versions of AuthorizationConfiguration release 1.32 reads. */
export const authorizationConfigVersions = Object.freeze(['v1', 'v1beta1', 'v1alpha1'] as const);
/** A configuration file larger than this is refused before parsing. */
export const maxAuthorizationConfigBytes = 1 << 20;

/** An authorizer type of the configuration: the modes of `--authorization-mode`. */
export type AuthorizerType = (typeof authorizationModes)[number];

/** A webhook authorizer after validation, defaults applied and match conditions compiled. */
export interface WebhookAuthorizerConfig {
  /** `authorizedTTL` (default 5m), or 0 when `cacheAuthorizedRequests: false`. */
  readonly authorizedTtlMs: number;
  /** `unauthorizedTTL` (default 30s), or 0 when `cacheUnauthorizedRequests: false`. */
  readonly unauthorizedTtlMs: number;
  readonly timeoutMs: number;
  readonly subjectAccessReviewVersion: SubjectAccessReviewVersion;
  readonly failurePolicy: WebhookFailurePolicy;
  /** The absolute path of the webhook's kubeconfig. */
  readonly kubeConfigFile: string;
  readonly matchConditions: readonly Program[];
}

/** One entry of `authorizers[]`. */
export interface AuthorizerConfig {
  readonly type: AuthorizerType;
  readonly name: string;
  /** Present exactly for `type: Webhook`. */
  readonly webhook?: WebhookAuthorizerConfig;
}

/** A validated AuthorizationConfiguration. */
export interface AuthorizationConfiguration {
  readonly apiVersion: string;
  readonly authorizers: readonly AuthorizerConfig[];
}

/** Options of `parseAuthorizationConfiguration`; all optional. */
export interface ParseAuthorizationConfigurationOptions {
  /** The file name errors start with. Default `authorization configuration`. */
  readonly file?: string;
  /** Which `apiserver.config.<domain>` group the file must use. Default the orch flavor. */
  readonly flavor?: Flavor;
}

/** A configuration file that cannot be used; the message names the file and every bad field. */
export class AuthorizationConfigError extends Error {
  readonly code = 'InvalidAuthorizationConfig' as const;
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizationConfigError';
  }
}

/** True for the error a bad authorization configuration is refused with; reads only `code`. */
export function isAuthorizationConfigError(e: unknown): e is AuthorizationConfigError {
  return e instanceof Error && (e as { code?: unknown }).code === 'InvalidAuthorizationConfig';
}

const str = z.string().nullish();
const fileSchema = z.strictObject({
  apiVersion: z.string(),
  kind: z.literal('AuthorizationConfiguration'),
  authorizers: z
    .array(
      z.strictObject({
        type: str,
        name: str,
        webhook: z
          .strictObject({
            authorizedTTL: str,
            cacheAuthorizedRequests: z.boolean().nullish(),
            unauthorizedTTL: str,
            cacheUnauthorizedRequests: z.boolean().nullish(),
            timeout: str,
            subjectAccessReviewVersion: str,
            matchConditionSubjectAccessReviewVersion: str,
            failurePolicy: str,
            connectionInfo: z.strictObject({ type: str, kubeConfigFile: str }).nullish(),
            matchConditions: z.array(z.strictObject({ expression: str })).nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
});
type WebhookShape = NonNullable<NonNullable<z.infer<typeof fileSchema>['authorizers']>[number]['webhook']>;

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const maxTimeoutNs = 30_000_000_000n;

/**
 * The `authorizers[i].webhook` section: durations (Go syntax, defaults 5m and 30s for the TTLs),
 * versions, failure policy, connection and match conditions. Pushes every error to `causes`.
 */
function webhookConfig(
  w: WebhookShape,
  at: string,
  causes: FieldCause[],
): WebhookAuthorizerConfig | undefined {
  const before = causes.length;
  const duration = (field: string, text: string | null | undefined, fallbackMs?: number) => {
    if (text === undefined || text === null || text === '') {
      if (fallbackMs === undefined) causes.push(fieldErrors.required(`${at}.${field}`));
      return { ms: fallbackMs ?? 0, ns: BigInt(fallbackMs ?? 0) * 1_000_000n };
    }
    const d = parseDurationMs(text);
    if ('error' in d) {
      causes.push(fieldErrors.invalid(`${at}.${field}`, text, d.error));
      return undefined;
    }
    if (d.ns === 0n && fallbackMs !== undefined)
      return { ms: fallbackMs, ns: BigInt(fallbackMs) * 1_000_000n };
    return d;
  };
  const timeout = duration('timeout', w.timeout);
  if (timeout && timeout.ns === 0n && w.timeout) causes.push(fieldErrors.required(`${at}.timeout`));
  else if (timeout && (timeout.ns > maxTimeoutNs || timeout.ns < 0n))
    causes.push(
      fieldErrors.invalid(`${at}.timeout`, formatGoDuration(timeout.ns), 'must be > 0s and <= 30s'),
    );
  const ttl = (field: string, text: string | null | undefined, fallbackMs: number) => {
    const d = duration(field, text, fallbackMs);
    if (d && d.ns < 0n)
      causes.push(fieldErrors.invalid(`${at}.${field}`, formatGoDuration(d.ns), 'must be > 0s'));
    return d?.ms ?? fallbackMs;
  };
  const authorizedTtlMs = ttl('authorizedTTL', w.authorizedTTL, 5 * 60_000);
  const unauthorizedTtlMs = ttl('unauthorizedTTL', w.unauthorizedTTL, 30_000);
  const version = w.subjectAccessReviewVersion ?? '';
  if (version === '') causes.push(fieldErrors.required(`${at}.subjectAccessReviewVersion`));
  else if (version !== 'v1' && version !== 'v1beta1')
    causes.push(fieldErrors.notSupported(`${at}.subjectAccessReviewVersion`, version, ['v1', 'v1beta1']));
  const expressions = (w.matchConditions ?? []).map((m) => m.expression ?? '');
  const mcVersion = w.matchConditionSubjectAccessReviewVersion ?? '';
  if (mcVersion === '' && expressions.length > 0)
    causes.push(
      fieldErrors.required(
        `${at}.matchConditionSubjectAccessReviewVersion`,
        'required if match conditions are specified',
      ),
    );
  else if (mcVersion !== '' && mcVersion !== 'v1')
    causes.push(
      fieldErrors.notSupported(`${at}.matchConditionSubjectAccessReviewVersion`, mcVersion, ['v1']),
    );
  const policy = w.failurePolicy ?? '';
  if (policy === '') causes.push(fieldErrors.required(`${at}.failurePolicy`));
  else if (policy !== 'NoOpinion' && policy !== 'Deny')
    causes.push(fieldErrors.notSupported(`${at}.failurePolicy`, policy, ['NoOpinion', 'Deny']));
  const ci = w.connectionInfo ?? {};
  const ciType = ci.type ?? '';
  const file = ci.kubeConfigFile ?? '';
  if (ciType === '') causes.push(fieldErrors.required(`${at}.connectionInfo.type`));
  else if (ciType === 'InClusterConfig') {
    if (ci.kubeConfigFile !== undefined && ci.kubeConfigFile !== null)
      causes.push(
        fieldErrors.invalid(
          `${at}.connectionInfo.kubeConfigFile`,
          file,
          'can only be set when type=KubeConfigFile',
        ),
      );
    // The spec: the server does not call its own review API for its own decisions.
    causes.push(
      fieldErrors.invalid(
        `${at}.connectionInfo.type`,
        ciType,
        'InClusterConfig is not permitted for the API server; use KubeConfigFile',
      ),
    );
  } else if (ciType === 'KubeConfigFile') {
    const field = `${at}.connectionInfo.kubeConfigFile`;
    if (file === '') causes.push(fieldErrors.required(field));
    else if (!isAbsolute(file)) causes.push(fieldErrors.invalid(field, file, 'must be an absolute path'));
    else {
      const info = statSync(file, { throwIfNoEntry: false });
      if (!info)
        causes.push(
          fieldErrors.invalid(field, file, `error loading file: stat ${file}: no such file or directory`),
        );
      else if (!info.isFile()) causes.push(fieldErrors.invalid(field, file, 'must be a regular file'));
    }
  } else
    causes.push(
      fieldErrors.notSupported(`${at}.connectionInfo.type`, ciType, ['InClusterConfig', 'KubeConfigFile']),
    );
  const compiled = compileMatchConditions(expressions, `${at}.matchConditions`);
  causes.push(...compiled.causes);
  if (causes.length > before || !timeout) return undefined;
  return {
    authorizedTtlMs: w.cacheAuthorizedRequests === false ? 0 : authorizedTtlMs,
    unauthorizedTtlMs: w.cacheUnauthorizedRequests === false ? 0 : unauthorizedTtlMs,
    timeoutMs: timeout.ms,
    subjectAccessReviewVersion: version as SubjectAccessReviewVersion,
    failurePolicy: policy as WebhookFailurePolicy,
    kubeConfigFile: file,
    matchConditions: compiled.programs,
  };
}

/**
 * Parses and validates an AuthorizationConfiguration file (YAML or JSON). Throws
 * `AuthorizationConfigError` naming the file and every bad field with upstream's wording: at least
 * one authorizer; `type` one of the modes, only `Webhook` repeated; `name` required, unique, a DNS
 * subdomain, and for other types the lower-case type (`rbac`); `webhook` exactly for webhooks, with the
 * rules of doc 2 §2.6 (a field path names the section, e.g. `authorizers[0].webhook.timeout`).
 */
export function parseAuthorizationConfiguration(
  text: string,
  options: ParseAuthorizationConfigurationOptions = {},
): AuthorizationConfiguration {
  const file = options.file ?? 'authorization configuration';
  const flavor = options.flavor ?? orchFlavor;
  const fail = (m: string) => new AuthorizationConfigError(m);
  const docOptions = { file, kind: 'AuthorizationConfiguration', fail };
  const raw = parseConfigDocument(text, { ...docOptions, maxBytes: maxAuthorizationConfigBytes });
  const parsed = parseConfigSchema(fileSchema, raw, docOptions);
  const causes: FieldCause[] = [];
  const group = `apiserver.config.${flavor.domain}`;
  const supported = authorizationConfigVersions.map((v) => `${group}/${v}`);
  if (!supported.includes(parsed.apiVersion))
    causes.push(fieldErrors.notSupported('apiVersion', parsed.apiVersion, supported));
  const entries = parsed.authorizers ?? [];
  if (entries.length === 0)
    causes.push(fieldErrors.required('authorizers', 'at least one authorization mode must be defined'));
  const known = [...authorizationModes].sort();
  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  const out: AuthorizerConfig[] = [];
  const nameErrors: string[] = [];
  for (const [i, a] of entries.entries()) {
    const at = `authorizers[${i}]`;
    const type = a.type ?? '';
    if (type === '') {
      causes.push(fieldErrors.required(`${at}.type`));
      continue;
    }
    if (!known.includes(type as AuthorizerType)) {
      causes.push(fieldErrors.notSupported(`${at}.type`, type, known));
      continue;
    }
    if (seenTypes.has(type) && type !== 'Webhook') {
      causes.push(fieldErrors.duplicate(`${at}.type`, type));
      continue;
    }
    seenTypes.add(type);
    const name = a.name ?? '';
    if (name === '') causes.push(fieldErrors.required(`${at}.name`));
    else if (seenNames.has(name)) causes.push(fieldErrors.duplicate(`${at}.name`, name));
    else if (name.length > 253 || !dns1123Subdomain.test(name))
      causes.push(
        fieldErrors.invalid(
          `${at}.name`,
          name,
          "authorizer name is invalid: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        ),
      );
    seenNames.add(name);
    if (type === 'Webhook') {
      if (!a.webhook) {
        causes.push(fieldErrors.required(`${at}.webhook`, 'required when type=Webhook'));
        continue;
      }
      const webhook = webhookConfig(a.webhook, `${at}.webhook`, causes);
      if (webhook) out.push({ type, name, webhook });
      continue;
    }
    if (a.webhook)
      causes.push(
        fieldErrors.invalid(`${at}.webhook`, 'non-null', 'may only be specified when type=Webhook'),
      );
    // kube-apiserver's own rule: built-in authorizers carry their lower-case type as name.
    if (name !== '' && name !== type.toLowerCase())
      nameErrors.push(`expected name ${type.toLowerCase()} for authorizer ${type} instead of ${name}`);
    out.push({ type: type as AuthorizerType, name });
  }
  if (causes.length > 0) throw fail(`${file}: ${aggregateMessage(causes)}`);
  if (nameErrors.length > 0)
    throw fail(`${file}: ${nameErrors.length === 1 ? nameErrors[0] : `[${nameErrors.join(', ')}]`}`);
  return { apiVersion: parsed.apiVersion, authorizers: out };
}
