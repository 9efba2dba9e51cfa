/**
 * `GET pods/<name>/log`, as upstream's LogREST answers without a kubelet: the options validated
 * (422 PodLogOptions), the container resolved as upstream's `validateContainer` does (400 naming
 * the choices), an empty `text/plain` stream for a pod on no node (upstream's `LogLocation` has no
 * location then), 404 for a node that does not exist, and 503 for a node this server cannot reach
 * (no kubelet runs here; a node agent issue adds one).
 */
import { errors, fieldErrors, type StatusCause } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import type { RequestContext } from '../context.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { errorTarget, objectKey } from './common.js';

type Obj = Record<string, unknown>;

const names = (list: unknown): string[] =>
  (Array.isArray(list) ? list : []).filter(isJsonObject).map((c) => String(c.name ?? ''));

/** upstream `validateContainer`: the one container, the named one, or a 400 listing the choices. */
function resolveContainer(pod: Obj, name: string, wanted: string): string {
  const spec = isJsonObject(pod.spec) ? pod.spec : {};
  const containers = names(spec.containers);
  const init = names(spec.initContainers);
  const ephemeral = names(spec.ephemeralContainers);
  if (wanted !== '') {
    if (![...containers, ...init, ...ephemeral].includes(wanted))
      throw errors.badRequest(`container ${wanted} is not valid for pod ${name}`);
    return wanted;
  }
  if (containers.length === 1) return containers[0] as string;
  if (containers.length === 0) throw errors.badRequest(`a container name must be specified for pod ${name}`);
  let message = `a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`;
  if (init.length > 0) message += ` or one of the init containers: [${init.join(' ')}]`;
  if (ephemeral.length > 0) message += ` or one of the ephemeral containers: [${ephemeral.join(' ')}]`;
  throw errors.badRequest(message);
}

/** upstream `ValidatePodLogOptions` for the numeric options and the since pair. */
function validateLogOptions(q: URLSearchParams): StatusCause[] {
  const causes: StatusCause[] = [];
  const int = (key: string): number | undefined => {
    const v = q.get(key);
    if (v === null) return undefined;
    const n = Number(v);
    if (!/^-?\d+$/.test(v) || !Number.isSafeInteger(n))
      throw errors.badRequest(`${key}: strconv.ParseInt: parsing ${JSON.stringify(v)}: invalid syntax`);
    return n;
  };
  const tail = int('tailLines');
  if (tail !== undefined && tail < 0)
    causes.push(fieldErrors.invalid('tailLines', tail, 'must be greater than or equal to 0'));
  const limit = int('limitBytes');
  if (limit !== undefined && limit < 1)
    causes.push(fieldErrors.invalid('limitBytes', limit, 'must be greater than 0'));
  const since = int('sinceSeconds');
  if (since !== undefined && since < 1)
    causes.push(fieldErrors.invalid('sinceSeconds', since, 'must be greater than 0'));
  if (since !== undefined && q.get('sinceTime') !== null)
    causes.push(fieldErrors.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  return causes;
}

/** Serves `pods/<name>/log` (GET only; the router checks the verb). */
export async function handlePodLog(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const name = ctx.info.name;
  const q = ctx.url.searchParams;
  const causes = validateLogOptions(q);
  if (causes.length > 0) throw errors.invalid('', 'PodLogOptions', name, causes);
  const { object } = await ctx.server.objects.get(objectKey(ctx, def, name));
  if (!object) throw errors.notFound(errorTarget(def, name), name);
  const pod = object as unknown as Obj;
  const container = resolveContainer(pod, name, q.get('container') ?? '');
  const nodeName = isJsonObject(pod.spec) && typeof pod.spec.nodeName === 'string' ? pod.spec.nodeName : '';
  if (nodeName === '') {
    ctx.res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '0' });
    ctx.res.end();
    return;
  }
  const nodeKey = ctx.server.objects.key({ group: '', resource: 'nodes', namespace: '' }, nodeName);
  const { object: node } = await ctx.server.objects.get(nodeKey);
  if (!node) throw errors.notFound({ group: '', resource: 'nodes' }, nodeName);
  throw errors.serviceUnavailable(
    `no kubelet serves node ${JSON.stringify(nodeName)}: logs of container ${container} of pod ${name} are not available from this server`,
  );
}
