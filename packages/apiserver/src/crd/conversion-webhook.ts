/**
 * A CRD's conversion webhook (`spec.conversion.strategy: Webhook`, spec doc 1 §9.4 row 1.22): the
 * objects to convert go to `spec.conversion.webhook.clientConfig.url` in one `ConversionReview`
 * (`apiextensions.<domain>/v1`, or v1beta1 when that is all the CRD lists) over HTTPS, trusting
 * `caBundle`; the answer is checked as upstream checks it. Any failure (unreachable, timeout,
 * garbage, a `Failed` result, a wrong count, uid, apiVersion or kind) is a 500 InternalError Status
 * naming the webhook: nothing is stored from a failed conversion.
 */
import { randomUUID } from 'node:crypto';
import { createHttpsFetch, type FetchLike } from '@orchard/authn';
import { type ApiObject, errors, type Flavor } from '@orchard/meta';
import { getOwn } from '@orchard/meta/internal';

/** Upstream's fixed deadline of a conversion webhook call (30 s). */
export const conversionWebhookTimeoutMs = 30_000;

/** The webhook settings of a CRD (`spec.conversion.webhook`). */
export interface ConversionWebhookConfig {
  /** `clientConfig.url` (a `service` reference is resolved to its in-cluster URL, not reachable here). */
  readonly url: string;
  /** `clientConfig.caBundle`, decoded to PEM; undefined = the system roots. */
  readonly caBundle?: string;
  /** `conversionReviewVersions`, in the CRD's order. */
  readonly reviewVersions: readonly string[];
}

/** Converts objects to `toApiVersion` in one call; resolves with them in the same order. */
export type WebhookConverter = (objects: readonly ApiObject[], toApiVersion: string) => Promise<ApiObject[]>;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `stable.example.com/v1, Kind=CronTab`, as upstream names a GroupVersionKind in messages. */
function gvkText(obj: ApiObject): string {
  return `${String(obj.apiVersion ?? '')}, Kind=${String(obj.kind ?? '')}`;
}

/** The metadata a webhook may change (upstream restores everything else from the original). */
function mergeMetadata(original: ApiObject, converted: Obj, where: string): ApiObject {
  const before = isObj(original.metadata) ? original.metadata : {};
  const after = isObj(converted.metadata) ? converted.metadata : {};
  for (const field of ['name', 'namespace', 'uid'] as const) {
    if (getOwn(after, field) !== undefined && getOwn(after, field) !== getOwn(before, field))
      throw new Error(`${where}: must not change metadata.${field}`);
  }
  const metadata: Obj = { ...before };
  for (const field of ['labels', 'annotations'] as const) {
    const v = getOwn(after, field);
    if (v === undefined) delete metadata[field];
    else if (isObj(v) && Object.values(v).every((x) => typeof x === 'string')) metadata[field] = v;
    else throw new Error(`${where}: metadata.${field} must be a map of strings`);
  }
  return { ...(converted as ApiObject), metadata: metadata as ApiObject['metadata'] };
}

/**
 * A converter calling `config`'s webhook. `timeoutMs` bounds each call (default
 * `conversionWebhookTimeoutMs`); `fetch` is replaceable for tests.
 */
export function createWebhookConverter(
  config: ConversionWebhookConfig,
  flavor: Flavor,
  options: { readonly timeoutMs?: number; readonly fetch?: FetchLike } = {},
): WebhookConverter {
  const timeoutMs = options.timeoutMs ?? conversionWebhookTimeoutMs;
  const fetch =
    options.fetch ?? createHttpsFetch({ timeoutMs, ...(config.caBundle ? { ca: config.caBundle } : {}) });
  const reviewVersion = config.reviewVersions.includes('v1') ? 'v1' : 'v1beta1';
  const reviewApiVersion = `${flavor.group('apiextensions')}/${reviewVersion}`;
  return async (objects, toApiVersion) => {
    const first = objects[0];
    if (!first) return [];
    const fail = (detail: string) =>
      errors.internal(`conversion webhook for ${gvkText(first)} failed: ${detail}`);
    const uid = randomUUID();
    let text: string;
    const deadline = AbortSignal.timeout(timeoutMs);
    try {
      const res = await fetch(config.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          apiVersion: reviewApiVersion,
          kind: 'ConversionReview',
          request: { uid, desiredAPIVersion: toApiVersion, objects },
        }),
        signal: deadline,
      });
      text = await res.text();
      if (res.status < 200 || res.status > 299)
        throw new Error(`the server responded with status ${res.status}: ${text.slice(0, 200)}`);
    } catch (e) {
      // A webhook that does not answer in time: upstream's words, with the deadline.
      const why = deadline.aborted
        ? `context deadline exceeded (no answer within ${timeoutMs / 1000}s)`
        : (e as Error).message;
      throw fail(`Post ${JSON.stringify(config.url)}: ${why}`);
    }
    let review: unknown;
    try {
      review = JSON.parse(text);
    } catch {
      throw fail('the response is not a JSON ConversionReview');
    }
    const response = isObj(review) ? getOwn(review, 'response') : undefined;
    if (!isObj(response)) throw fail('no response provided');
    if (getOwn(response, 'uid') !== uid)
      throw fail(
        `expected response uid ${JSON.stringify(uid)}, got ${JSON.stringify(getOwn(response, 'uid'))}`,
      );
    const result = getOwn(response, 'result');
    if (isObj(result) && getOwn(result, 'status') !== 'Success') {
      const message = getOwn(result, 'message');
      throw errors.internal(
        `conversion webhook for ${gvkText(first)} returned failure: ${typeof message === 'string' ? message : 'no message'}`,
      );
    }
    const converted = getOwn(response, 'convertedObjects');
    if (!Array.isArray(converted) || converted.length !== objects.length)
      throw fail(
        `expected ${objects.length} converted objects, got ${Array.isArray(converted) ? converted.length : 'none'}`,
      );
    try {
      return converted.map((c, i) => {
        const original = objects[i] as ApiObject;
        const where = `converted object[${i}]`;
        if (!isObj(c)) throw new Error(`${where}: not an object`);
        if (getOwn(c, 'apiVersion') !== toApiVersion)
          throw new Error(
            `${where}: expected apiVersion ${toApiVersion}, got ${JSON.stringify(getOwn(c, 'apiVersion'))}`,
          );
        if (getOwn(c, 'kind') !== original.kind)
          throw new Error(
            `${where}: expected kind ${String(original.kind)}, got ${JSON.stringify(getOwn(c, 'kind'))}`,
          );
        return mergeMetadata(original, c, where);
      });
    } catch (e) {
      throw fail((e as Error).message);
    }
  };
}

/** The webhook settings of a stored CRD, or undefined when its strategy is not `Webhook`. */
export function webhookConfigOf(crd: Obj): ConversionWebhookConfig | undefined {
  const spec = isObj(crd.spec) ? crd.spec : {};
  const conversion = getOwn(spec, 'conversion');
  if (!isObj(conversion) || getOwn(conversion, 'strategy') !== 'Webhook') return undefined;
  const webhook = getOwn(conversion, 'webhook');
  const client = isObj(webhook) ? getOwn(webhook, 'clientConfig') : undefined;
  if (!isObj(client)) return undefined;
  let url = getOwn(client, 'url');
  const service = getOwn(client, 'service');
  if (typeof url !== 'string' && isObj(service)) {
    const port = typeof service.port === 'number' ? service.port : 443;
    url = `https://${String(service.name)}.${String(service.namespace)}.svc:${port}${typeof service.path === 'string' ? service.path : ''}`;
  }
  if (typeof url !== 'string') return undefined;
  const ca = getOwn(client, 'caBundle');
  const versions = isObj(webhook) ? getOwn(webhook, 'conversionReviewVersions') : undefined;
  return {
    url,
    ...(typeof ca === 'string' && ca !== '' ? { caBundle: atob(ca) } : {}),
    reviewVersions: Array.isArray(versions)
      ? versions.filter((v): v is string => typeof v === 'string')
      : ['v1'],
  };
}
