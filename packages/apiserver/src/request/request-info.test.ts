import { describe, expect, it } from 'vitest';
import { requestPath, resolveRequestInfo } from './request-info.js';

type Row = [method: string, url: string, expected: Partial<ReturnType<typeof resolveRequestInfo>>];

const rows: Row[] = [
  ['GET', '/api/v1/namespaces', { verb: 'list', resource: 'namespaces', namespace: '', name: '' }],
  [
    'GET',
    '/api/v1/namespaces/demo',
    { verb: 'get', resource: 'namespaces', namespace: 'demo', name: 'demo' },
  ],
  [
    'PUT',
    '/api/v1/namespaces/demo/finalize',
    { verb: 'update', resource: 'namespaces', name: 'demo', subresource: 'finalize' },
  ],
  [
    'GET',
    '/api/v1/namespaces/demo/status',
    { verb: 'get', resource: 'namespaces', name: 'demo', subresource: 'status' },
  ],
  [
    'GET',
    '/api/v1/namespaces/demo/configmaps',
    { verb: 'list', resource: 'configmaps', namespace: 'demo', name: '' },
  ],
  [
    'GET',
    '/api/v1/namespaces/demo/configmaps?watch=1',
    { verb: 'watch', resource: 'configmaps', namespace: 'demo' },
  ],
  ['GET', '/api/v1/namespaces/demo/configmaps?watch=true', { verb: 'watch' }],
  ['GET', '/api/v1/namespaces/demo/configmaps?watch=false', { verb: 'list' }],
  [
    'GET',
    '/api/v1/watch/namespaces/demo/configmaps',
    { verb: 'watch', resource: 'configmaps', namespace: 'demo' },
  ],
  ['GET', '/api/v1/configmaps', { verb: 'list', resource: 'configmaps', namespace: '' }],
  [
    'POST',
    '/api/v1/namespaces/demo/configmaps',
    { verb: 'create', resource: 'configmaps', namespace: 'demo' },
  ],
  ['PUT', '/api/v1/namespaces/demo/configmaps/c', { verb: 'update', name: 'c' }],
  ['PATCH', '/api/v1/namespaces/demo/configmaps/c', { verb: 'patch', name: 'c' }],
  ['DELETE', '/api/v1/namespaces/demo/configmaps/c', { verb: 'delete', name: 'c' }],
  ['DELETE', '/api/v1/namespaces/demo/configmaps', { verb: 'deletecollection', name: '' }],
  [
    'POST',
    '/api/v1/namespaces/default/serviceaccounts/default/token',
    { verb: 'create', resource: 'serviceaccounts', name: 'default', subresource: 'token' },
  ],
  [
    'GET',
    '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/n1',
    {
      apiPrefix: 'apis',
      apiGroup: 'coordination.k8s.io',
      apiVersion: 'v1',
      namespace: 'kube-node-lease',
      resource: 'leases',
      name: 'n1',
    },
  ],
  [
    'GET',
    '/apis/coordination.orch.io/v1/leases',
    { verb: 'list', apiGroup: 'coordination.orch.io', resource: 'leases' },
  ],
  ['GET', '/api/v1/namespaces/a%2Fb/configmaps', { namespace: 'a/b' }],
  ['GET', '/api/v1/namespaces/x/pods/p/proxy', { verb: 'get', subresource: 'proxy' }],
  ['GET', '/api/v1/proxy/namespaces/x/pods/p', { verb: 'proxy', resource: 'pods', name: 'p' }],
];

describe('resolveRequestInfo', () => {
  it.each(rows)('%s %s', (method, url, expected) => {
    const u = new URL(url, 'http://x');
    const info = resolveRequestInfo(method, u.pathname, u.searchParams);
    expect(info.isResourceRequest).toBe(true);
    expect(info).toMatchObject(expected);
  });

  it.each([
    ['/version'],
    ['/livez'],
    ['/api'],
    ['/apis'],
    ['/api/v1'],
    ['/apis/apps'],
    ['/apis/apps/v1'],
    ['/openapi/v3'],
    ['/api/v1/namespaces/%E0%A4%A/configmaps'],
  ])('%s is not a resource request', (path) => {
    expect(resolveRequestInfo('GET', path, new URLSearchParams()).isResourceRequest).toBe(false);
  });

  it('keeps the group of /apis/<group> (the APIGroup document)', () => {
    expect(resolveRequestInfo('GET', '/apis/apps', new URLSearchParams())).toMatchObject({
      apiPrefix: 'apis',
      apiGroup: 'apps',
      apiVersion: '',
    });
  });

  it('keeps group and version of discovery paths', () => {
    expect(resolveRequestInfo('GET', '/apis/apps/v1', new URLSearchParams())).toMatchObject({
      apiPrefix: 'apis',
      apiGroup: 'apps',
      apiVersion: 'v1',
      verb: 'get',
    });
  });

  it('resolves a path once and shares the frozen result; the watch flag and the method are part of the key', () => {
    const q = new URLSearchParams();
    const a = resolveRequestInfo('GET', '/api/v1/namespaces/shared/configmaps', q);
    expect(resolveRequestInfo('GET', '/api/v1/namespaces/shared/configmaps', q)).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.parts)).toBe(true);
    expect(a.verb).toBe('list');
    const w = resolveRequestInfo(
      'GET',
      '/api/v1/namespaces/shared/configmaps',
      new URLSearchParams('watch=true'),
    );
    expect(w.verb).toBe('watch');
    expect(resolveRequestInfo('POST', '/api/v1/namespaces/shared/configmaps', q).verb).toBe('create');
    expect(resolveRequestInfo('GET', '/api/v1/namespaces/shared/configmaps', q).verb).toBe('list');
  });

  it('resolves paths too long to cache the same way, every time', () => {
    const name = 'n'.repeat(300);
    const info = resolveRequestInfo('GET', `/api/v1/namespaces/x/configmaps/${name}`, new URLSearchParams());
    expect(info).toMatchObject({ verb: 'get', namespace: 'x', resource: 'configmaps', name });
  });
});

describe('requestPath', () => {
  it.each([
    ['/api/v1/pods?watch=1', '/api/v1/pods'],
    ['/api/v1/pods#frag?x', '/api/v1/pods'],
    ['/api/v1/pods?x#y', '/api/v1/pods'],
    ['/api/v1/namespaces/x/configmaps/%2e%2e', '/api/v1/namespaces/x/configmaps/%2e%2e'],
    ['http://host:1/api/v1/pods?x', '/api/v1/pods'],
    ['http://host:1', '/'],
    ['?only', '/'],
  ])('%s → %s', (target, path) => {
    expect(requestPath(target)).toBe(path);
  });
});
