/**
 * `apiserver_request_total` and `apiserver_request_duration_seconds` for one finished request, with
 * upstream's label values (`CleanVerb`, `CleanScope`, `cleanDryRun`). Labels come from what the
 * server resolved, never from free text a client chose: a path the registry does not serve is
 * counted with empty group, version, resource and subresource, so hostile URLs cannot grow the
 * number of series.
 */
import type { FilterContext } from '../filters/filter.js';
import type { ServerMetrics } from './server-metrics.js';

const resourceVerbs: Readonly<Record<string, string>> = Object.freeze({
  get: 'GET',
  list: 'LIST',
  watch: 'WATCH',
  create: 'POST',
  update: 'PUT',
  patch: 'PATCH',
  delete: 'DELETE',
  deletecollection: 'DELETECOLLECTION',
  proxy: 'PROXY',
});

const applyPatchType = 'application/apply-patch';

/**
 * Upstream's reported verb: WATCH for watches (also `?watch=true` lists and the old `/watch/`
 * prefix), LIST for collection reads, APPLY for server-side apply patches, POST/PUT/PATCH/DELETE/
 * DELETECOLLECTION/GET otherwise; a non-resource request reports its HTTP method.
 */
export function cleanVerb(ctx: Pick<FilterContext, 'info' | 'req'>): string {
  const { info, req } = ctx;
  if (!info.isResourceRequest) return (req.method ?? 'GET').toUpperCase();
  const v = resourceVerbs[info.verb] ?? 'OTHER';
  if (v === 'PATCH') {
    const ct = req.headers['content-type'];
    if (typeof ct === 'string' && ct.startsWith(applyPatchType)) return 'APPLY';
  }
  return v;
}

/** Upstream's scope label: `resource` (a named object, or a create), `namespace`, `cluster`, or ''. */
export function cleanScope(info: FilterContext['info']): string {
  if (info.name !== '' || info.verb === 'create') return 'resource';
  if (info.namespace !== '') return 'namespace';
  if (info.isResourceRequest) return 'cluster';
  return '';
}

/** The `dry_run` label: the sorted distinct `dryRun` values (only `All` is valid), '' without, `invalid` otherwise. */
export function cleanDryRun(query: URLSearchParams): string {
  const values = query.getAll('dryRun');
  if (values.length === 0) return '';
  if (values.some((v) => v !== 'All')) return 'invalid';
  return 'All';
}

/**
 * The request label values of `ctx` in `requestLabelNames` order, without `code`: resource labels
 * only for a type the registry served.
 */
export function requestLabelValues(ctx: FilterContext): string[] {
  const { info, def } = ctx;
  const served = def !== undefined;
  const subresource =
    served && info.subresource !== '' && def.subresources.some((s) => s.name === info.subresource)
      ? info.subresource
      : '';
  return [
    cleanVerb(ctx),
    cleanDryRun(ctx.searchParams),
    served ? def.group : '',
    served ? info.apiVersion : '',
    served ? def.resource : '',
    subresource,
    cleanScope(info),
    'apiserver',
  ];
}

/**
 * Records one finished request: counted with its status code; its latency observed unless it is a
 * watch (long-running: its duration is the client's choice, as upstream leaves it out of the SLO
 * histogram). `startedAt` is a `performance.now()` reading.
 */
export function recordRequest(
  metrics: ServerMetrics,
  ctx: FilterContext,
  code: number,
  startedAt: number,
): void {
  const labels = requestLabels(ctx);
  let total = labels.withCode.get(code);
  if (!total) {
    const codeText = String(code);
    total = { values: [...labels.values, codeText], key: `${labels.key}\0${codeText}` };
    // Status codes are the server's own: a few per request shape.
    labels.withCode.set(code, total);
  }
  metrics.requestTotal.inc(total.values, 1, total.key);
  if (labels.values[0] !== 'WATCH')
    metrics.requestDuration.observe(labels.values, (performance.now() - startedAt) / 1000, labels.key);
}

/** The label values of a request shape, joined, and with each status code seen for it. */
interface RequestLabels {
  readonly def: FilterContext['def'];
  readonly method: string | undefined;
  readonly values: readonly string[];
  readonly key: string;
  readonly withCode: Map<number, { readonly values: readonly string[]; readonly key: string }>;
}

/**
 * Label values per resolved request info (the resolver shares one frozen info per path shape): a
 * request without `dryRun` that is not a patch (whose verb depends on its content type) takes the
 * ones of the last request of its shape, method and resource type instead of building them again.
 */
const labelsByInfo = new WeakMap<FilterContext['info'], RequestLabels>();

function requestLabels(ctx: FilterContext): RequestLabels {
  const { info, def } = ctx;
  const method = ctx.req.method;
  const reusable = info.verb !== 'patch' && !ctx.searchParams.has('dryRun');
  if (reusable) {
    const known = labelsByInfo.get(info);
    if (known && known.def === def && known.method === method) return known;
  }
  const values = requestLabelValues(ctx);
  const labels: RequestLabels = { def, method, values, key: values.join('\0'), withCode: new Map() };
  if (reusable && Object.isFrozen(info)) labelsByInfo.set(info, labels);
  return labels;
}
