import type { IncomingMessage, ServerResponse } from 'node:http';
import { contentTypeOf, negotiate, type Offer } from '@orchard/codecs';
import { errors, type Flavor } from '@orchard/meta';
import type { ResourceRegistry } from '../registry/registry.js';
import type { RequestInfo } from '../request/request-info.js';
import { writeJson } from '../response/write.js';
import { aggregated, coreVersions, group, groupList, resourceList } from './discovery.js';

/**
 * Serves the discovery paths of a GET/HEAD: `/` (the path list), `/api` and `/apis` (aggregated
 * `APIGroupDiscoveryList` v2/v2beta1 when Accept asks for it, else the legacy documents),
 * `/api/v1` and `/apis/<g>[/<v>]`. `path` has no trailing slash. Returns false when `path` is
 * none of these (or names a group/version the registry does not serve).
 */
export function serveDiscovery(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  info: RequestInfo,
  registry: ResourceRegistry,
  flavor: Flavor,
): boolean {
  const head = req.method === 'HEAD';
  if (path === '/') {
    writeJson(res, 200, { paths: rootPaths(registry) }, 'application/json', head);
    return true;
  }
  if (path === '/api' || path === '/apis') {
    const which = path === '/api' ? 'api' : 'apis';
    const g = flavor.group('apidiscovery');
    const offers: (Offer & { v?: 'v2' | 'v2beta1' })[] = [
      { mediaType: 'application/json', target: { as: 'APIGroupDiscoveryList', g, v: 'v2' }, v: 'v2' },
      {
        mediaType: 'application/json',
        target: { as: 'APIGroupDiscoveryList', g, v: 'v2beta1' },
        v: 'v2beta1',
      },
      { mediaType: 'application/json' },
    ];
    const n = negotiate(req.headers.accept, offers);
    if (!n) throw errors.notAcceptable(offers.map(contentTypeOf));
    if (n.offer.v) {
      const body = aggregated(registry, flavor, which, n.offer.v);
      // Upstream sends this exact parameter order; kubectl only needs the three parameters.
      const contentType = `application/json;g=${g};v=${n.offer.v};as=APIGroupDiscoveryList`;
      writeJson(res, 200, body, contentType, head);
      return true;
    }
    const host = req.headers.host ?? '127.0.0.1';
    const body = which === 'api' ? coreVersions(registry, host) : groupList(registry);
    writeJson(res, 200, body, 'application/json', head);
    return true;
  }
  const { apiPrefix, apiGroup, apiVersion } = info;
  let body: unknown;
  if (apiPrefix === 'api' && apiVersion !== '' && apiGroup === '')
    body = resourceList(registry, '', apiVersion);
  else if (apiPrefix === 'apis' && apiGroup !== '')
    body = apiVersion === '' ? group(registry, apiGroup) : resourceList(registry, apiGroup, apiVersion);
  if (!body) return false;
  writeJson(res, 200, body, 'application/json', head);
  return true;
}

/** The paths `/` lists: discovery roots, every served group and group/version, health, version. */
function rootPaths(registry: ResourceRegistry): string[] {
  return [
    '/api',
    '/api/v1',
    '/apis',
    ...registry
      .groups()
      .filter((g) => g.name)
      .flatMap((g) => [`/apis/${g.name}`, ...g.versions.map((v) => `/apis/${g.name}/${v}`)]),
    '/healthz',
    '/livez',
    '/readyz',
    '/version',
  ];
}
