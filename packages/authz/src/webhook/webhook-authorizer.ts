/**
 * The Webhook authorizer (doc 2 §2.6, §5.3): a SubjectAccessReview POSTed to a remote service, its
 * answers cached by TTL, a failure (timeout, transport error, error status, malformed or oversized
 * answer, match-condition error) decided by the failure policy.
 */
import { createHttpsFetch, createTokenCache, type FetchLike, type WebhookConnection } from '@orchard/authn';
import type { Program } from '@orchard/cel';
import { type Flavor, orchFlavor } from '@orchard/meta';
import type { AuthorizationAttributes } from '../attributes.js';
import type { AuthorizationResult, Authorizer, SubjectRules } from '../authorizer.js';
import { noOpinionResult } from '../authorizer.js';
import { evaluateMatchConditions } from './match-conditions.js';
import {
  matchConditionRequest,
  parseSubjectAccessReviewAnswer,
  type SubjectAccessReviewStatus,
  type SubjectAccessReviewVersion,
  subjectAccessReview,
} from './subject-access-review.js';
import { createWebhookMetrics, type WebhookCallResult, type WebhookMetrics } from './webhook-metrics.js';

/** What the webhook's failures become: `NoOpinion` (later authorizers decide) or `Deny`. */
export type WebhookFailurePolicy = 'NoOpinion' | 'Deny';

/** Options of `createWebhookAuthorizer`: the connection is required, the rest default as each says. */
export interface WebhookAuthorizerOptions {
  /** The remote service (a kubeconfig's cluster and user: `loadWebhookKubeconfig`). */
  readonly connection: WebhookConnection;
  /** The authorizer's name (metrics label, log lines). Default `webhook`. */
  readonly name?: string;
  /** SubjectAccessReview version sent. Default `v1beta1` (`--authorization-webhook-version`'s default). */
  readonly version?: SubjectAccessReviewVersion;
  /** How long an `allowed` answer is reused, ms; 0 disables. Default 5 min. */
  readonly authorizedTtlMs?: number;
  /** How long any other answer is reused, ms; 0 disables. Default 30 s. */
  readonly unauthorizedTtlMs?: number;
  /** A call still unanswered after this fails, ms (at most 30 s by the spec). Default 30 s. */
  readonly timeoutMs?: number;
  /** Default `NoOpinion` (what the `--authorization-webhook-*` flags give). */
  readonly failurePolicy?: WebhookFailurePolicy;
  /** Compiled match conditions (`compileMatchConditions`); empty matches every request. */
  readonly matchConditions?: readonly Program[];
  /** An answer larger than this fails the call. Default 1 MiB. */
  readonly maxAnswerBytes?: number;
  /** `authorization.<domain>` of the review. Default the orch flavor. */
  readonly flavor?: Flavor;
  /** Counters shared with other webhooks. Default a fresh set. */
  readonly metrics?: WebhookMetrics;
  /** Told why a call failed (the 403 does not say). Default: nothing. */
  readonly onError?: (message: string) => void;
  /** Replaces the node:https client built from `connection` (tests). */
  readonly fetch?: FetchLike;
  readonly now?: () => number;
}

/**
 * The defaults of `WebhookAuthorizerOptions` that are values (doc 2 §8 and upstream's flag defaults):
 * v1beta1, answers cached 5 min when allowed and 30 s otherwise, a 30 s deadline, `NoOpinion`,
 * answers up to 1 MiB. Frozen.
 */
export const defaultWebhookAuthorizerOptions: Readonly<
  Required<
    Pick<
      WebhookAuthorizerOptions,
      | 'name'
      | 'version'
      | 'authorizedTtlMs'
      | 'unauthorizedTtlMs'
      | 'timeoutMs'
      | 'failurePolicy'
      | 'maxAnswerBytes'
    >
  >
> = Object.freeze({
  name: 'webhook',
  version: 'v1beta1',
  authorizedTtlMs: 5 * 60_000,
  unauthorizedTtlMs: 30_000,
  timeoutMs: 30_000,
  failurePolicy: 'NoOpinion',
  maxAnswerBytes: 1 << 20,
});

/** The longest webhook timeout the spec permits (doc 2 §8): 30 s. */
export const maxWebhookTimeoutMs = 30_000;

// As upstream: a request whose own attributes are this large is never cached, so a caller cannot
// fill the cache with huge keys.
const maxCachedAttributeBytes = 10_000;

function cacheable(a: AuthorizationAttributes): boolean {
  const size =
    a.namespace.length +
    a.verb.length +
    a.apiGroup.length +
    a.apiVersion.length +
    a.resource.length +
    a.subresource.length +
    a.name.length +
    a.path.length;
  return size < maxCachedAttributeBytes;
}

function fromStatus(s: SubjectAccessReviewStatus): AuthorizationResult {
  // Both allowed and denied is upstream's deny (with an error logged).
  if (s.denied) return { decision: 'deny', reason: s.reason };
  if (s.allowed) return { decision: 'allow', reason: s.reason };
  return s.reason === '' ? noOpinionResult : { decision: 'no-opinion', reason: s.reason };
}

/**
 * A webhook authorizer (see the module doc). A cached answer or a match condition that skips the
 * webhook is answered synchronously; a call returns a promise. Never throws or rejects.
 */
export function createWebhookAuthorizer(options: WebhookAuthorizerOptions): Authorizer {
  const o = { ...defaultWebhookAuthorizerOptions, ...options };
  const c = o.connection;
  const flavor = o.flavor ?? orchFlavor;
  const metrics = o.metrics ?? createWebhookMetrics();
  const now = o.now ?? Date.now;
  const conditions = o.matchConditions ?? [];
  const doFetch =
    o.fetch ??
    createHttpsFetch({
      timeoutMs: o.timeoutMs,
      maxBodyBytes: o.maxAnswerBytes,
      ...(c.ca !== undefined ? { ca: c.ca } : {}),
      ...(c.cert !== undefined ? { cert: c.cert } : {}),
      ...(c.key !== undefined ? { key: c.key } : {}),
      ...(c.insecureSkipTlsVerify ? { insecureSkipTlsVerify: true } : {}),
      ...(c.serverName !== undefined ? { serverName: c.serverName } : {}),
    });
  const cache = createTokenCache<SubjectAccessReviewStatus>({ maxEntries: 8192, now });
  const failed: AuthorizationResult = Object.freeze(
    o.failurePolicy === 'Deny' ? { decision: 'deny', reason: '' } : { decision: 'no-opinion', reason: '' },
  );
  const fail = (message: string, result: WebhookCallResult | undefined): AuthorizationResult => {
    o.onError?.(`authorization webhook ${o.name}: ${message}`);
    if (o.failurePolicy === 'NoOpinion' && result !== undefined)
      metrics.count(metrics.failOpen, { name: o.name, result });
    return failed;
  };

  async function call(body: string, key: string | undefined): Promise<AuthorizationResult> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
    };
    if (c.token !== undefined) headers.authorization = `Bearer ${c.token}`;
    let text: string;
    let result: WebhookCallResult = 'success';
    try {
      const res = await doFetch(c.server, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(o.timeoutMs),
      });
      if (res.status === 504) result = 'timeout';
      else if (res.status < 200 || res.status > 299) result = 'error';
      text = await res.text();
      if (result !== 'success') {
        metrics.count(metrics.evaluations, { name: o.name, result });
        return fail(`HTTP ${res.status}`, result);
      }
    } catch (e) {
      const message = (e as Error)?.message ?? String(e);
      result = /timed out|abort/i.test(message) ? 'timeout' : 'error';
      metrics.count(metrics.evaluations, { name: o.name, result });
      return fail(message, result);
    }
    metrics.count(metrics.evaluations, { name: o.name, result });
    let status: SubjectAccessReviewStatus;
    try {
      if (text.length > o.maxAnswerBytes) throw new Error(`answer larger than ${o.maxAnswerBytes} bytes`);
      status = parseSubjectAccessReviewAnswer(text, flavor);
    } catch (e) {
      return fail((e as Error).message, 'error');
    }
    if (key !== undefined) {
      const ttl = status.allowed ? o.authorizedTtlMs : o.unauthorizedTtlMs;
      if (ttl > 0) cache.set(key, status, now() + ttl);
    }
    if (status.allowed && status.denied)
      o.onError?.(`authorization webhook ${o.name}: answered both allowed and denied`);
    return fromStatus(status);
  }

  return {
    authorize(a) {
      if (conditions.length > 0) {
        const verdict = evaluateMatchConditions(conditions, matchConditionRequest(a));
        if (verdict.kind === 'skip') {
          metrics.count(metrics.matchConditionExclusions, { type: 'Webhook', name: o.name });
          return noOpinionResult;
        }
        if (verdict.kind === 'error') {
          metrics.count(metrics.matchConditionErrors, { type: 'Webhook', name: o.name });
          return fail(`match condition error: ${verdict.error}`, undefined);
        }
      }
      const review = JSON.stringify(subjectAccessReview(a, o.version, flavor));
      const key = cacheable(a) ? review : undefined;
      if (key !== undefined) {
        const hit = cache.get(key);
        if (hit) return fromStatus(hit);
      }
      return call(review, key);
    },
    rulesFor(): SubjectRules {
      return {
        resourceRules: [],
        nonResourceRules: [],
        incomplete: true,
        evaluationError: 'webhook authorizer does not support user rule resolution',
      };
    },
  };
}
