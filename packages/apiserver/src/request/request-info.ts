import type { Verb } from '../registry/resource.js';
import { parseQueryBool } from './query.js';

/**
 * What a request addresses, resolved from method, path and query alone (no registry lookup),
 * modelled on upstream's `RequestInfoFactory`. Authorization, audit and routing all read this.
 */
export interface RequestInfo {
  /** True for `/api/...` and `/apis/...` paths that name at least a resource. */
  readonly isResourceRequest: boolean;
  readonly path: string;
  /** Lower-case HTTP method for non-resource requests; a spec verb (plus `proxy`) for resource requests. */
  readonly verb: Verb | 'proxy' | string;
  /** `api` or `apis` ('' for non-resource paths). */
  readonly apiPrefix: string;
  readonly apiGroup: string;
  readonly apiVersion: string;
  readonly namespace: string;
  readonly resource: string;
  readonly subresource: string;
  readonly name: string;
  /** The remaining path segments after the group/version. */
  readonly parts: readonly string[];
}

/** Sub-resources of namespaces that stay on the namespace itself (`/namespaces/x/status`). */
const namespaceSubresources = new Set(['status', 'finalize']);

const methodVerbs: Record<string, Verb> = {
  POST: 'create',
  GET: 'get',
  HEAD: 'get',
  PUT: 'update',
  PATCH: 'patch',
  DELETE: 'delete',
};

function isTrue(v: string | null): boolean {
  return v !== null && parseQueryBool(v) === true;
}

function nonResource(path: string, method: string): RequestInfo {
  return {
    isResourceRequest: false,
    path,
    verb: method.toLowerCase(),
    apiPrefix: '',
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
    parts: [],
  };
}

/**
 * The request path as the client sent it (before `?`), dot segments kept. The WHATWG `URL` resolves
 * `.`, `..` and their percent-encoded forms, so `/namespaces/x/configmaps/%2e%2e` would address the
 * namespace `x` (and a DELETE would delete it); upstream's Go server does not clean paths, and the
 * name `..` is then refused (400 `Name parameter invalid`). An absolute-form target keeps its path.
 */
export function requestPath(target: string): string {
  // The common origin-form target: no regular expression.
  if (target.charCodeAt(0) === 0x2f) {
    let end = target.indexOf('?');
    const hash = target.indexOf('#');
    if (hash !== -1 && (end === -1 || hash < end)) end = hash;
    const path = end === -1 ? target : target.slice(0, end);
    return path === '' ? '/' : path;
  }
  let t = target;
  if (!t.startsWith('/')) {
    const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(t);
    if (origin) t = t.slice(origin[0].length);
  }
  const end = t.search(/[?#]/);
  const path = end === -1 ? t : t.slice(0, end);
  return path === '' ? '/' : path;
}

/**
 * Resolves the path shapes of spec doc 1 §4.1:
 * `/api/v1/<resource>[/<name>[/<sub>]]`, `/api/v1/namespaces/<ns>/<resource>[/<name>[/<sub>]]`,
 * the same under `/apis/<group>/<version>`, and the deprecated `/…/watch/…` prefix.
 * `?watch=1|true` turns list (and get) into watch; DELETE on a collection is deletecollection.
 * Path segments are percent-decoded; a segment that fails to decode leaves the request non-resource.
 */
export function resolveRequestInfo(method: string, rawPath: string, query: URLSearchParams): RequestInfo {
  // Resolved once per method, path and watch flag (the only query parameter it reads), then shared
  // (frozen): repeated requests to one path, a collection's creates and lists, skip the parse.
  const watch = isTrue(query.get('watch'));
  const key = `${method} ${watch ? 'w' : ''} ${rawPath}`;
  const cached = resolvedInfos.get(key);
  if (cached) return cached;
  const info = deepFreeze(resolveUncached(method, rawPath, watch));
  if (key.length > maxCachedKeyLength) return info;
  if (resolvedInfos.size >= maxResolvedInfos) resolvedInfos.clear();
  resolvedInfos.set(key, info);
  return info;
}

/** Resolved request infos by method, watch flag and path; cleared when full (bounded memory). */
const resolvedInfos = new Map<string, RequestInfo>();
const maxResolvedInfos = 4096;
/** Longer paths are resolved every time (the cache holds at most ~1 MiB of keys). */
const maxCachedKeyLength = 256;

function deepFreeze(info: RequestInfo): RequestInfo {
  Object.freeze(info.parts);
  return Object.freeze(info);
}

function resolveUncached(method: string, rawPath: string, watch: boolean): RequestInfo {
  const path = rawPath === '' ? '/' : rawPath;
  let segments: string[];
  try {
    segments = path.split('/').filter((s) => s !== '');
    if (path.includes('%')) segments = segments.map((s) => decodeURIComponent(s));
  } catch {
    return nonResource(path, method);
  }
  const prefix = segments[0];
  if (prefix !== 'api' && prefix !== 'apis') return nonResource(path, method);
  let rest = segments.slice(1);
  let apiGroup = '';
  if (prefix === 'apis') {
    if (rest.length < 1) return nonResource(path, method);
    apiGroup = rest[0] as string;
    rest = rest.slice(1);
  }
  // `/apis/<group>` is the group's discovery document (APIGroup).
  if (rest.length < 1)
    return prefix === 'apis'
      ? { ...nonResource(path, method), apiPrefix: prefix, apiGroup }
      : nonResource(path, method);
  const apiVersion = rest[0] as string;
  rest = rest.slice(1);
  // `/api/v1` and `/apis/g/v` are discovery (non-resource) requests.
  if (rest.length === 0) return { ...nonResource(path, method), apiPrefix: prefix, apiGroup, apiVersion };

  let verb: string = methodVerbs[method.toUpperCase()] ?? method.toLowerCase();
  let parts = rest;
  if (parts[0] === 'watch') {
    verb = 'watch';
    parts = parts.slice(1);
  } else if (parts[0] === 'proxy') {
    verb = 'proxy';
    parts = parts.slice(1);
  }

  let namespace = '';
  if (parts[0] === 'namespaces' && parts.length > 1) {
    namespace = parts[1] as string;
    // `/namespaces/<ns>/<resource>…` addresses a namespaced resource; `/namespaces/<ns>[/status]`
    // addresses the namespace object itself.
    if (parts.length > 2 && !namespaceSubresources.has(parts[2] as string)) parts = parts.slice(2);
  }
  const resource = parts[0] ?? '';
  const name = parts[1] ?? '';
  const subresource = parts[2] ?? '';

  if (name === '' && verb === 'get') verb = 'list';
  if (name === '' && verb === 'delete') verb = 'deletecollection';
  if ((verb === 'list' || verb === 'get') && watch) verb = 'watch';

  return {
    isResourceRequest: true,
    path,
    verb,
    apiPrefix: prefix,
    apiGroup,
    apiVersion,
    namespace,
    resource,
    subresource,
    name,
    parts,
  };
}
