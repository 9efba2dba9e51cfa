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
  const values = requestLabelValues(ctx);
  const key = values.join('\0');
  const codeText = String(code);
  metrics.requestTotal.inc([...values, codeText], 1, `${key}\0${codeText}`);
  if (values[0] !== 'WATCH')
    metrics.requestDuration.observe(values, (performance.now() - startedAt) / 1000, key);
}
