import { describe, expect, it } from 'vitest';
import { type AuthorizationAttributes, requestVerb, toRbacAttributes } from './index.js';

const user = { username: 'u', groups: ['system:authenticated'] };
function attrs(p: Partial<AuthorizationAttributes>): AuthorizationAttributes {
  return {
    user,
    verb: 'get',
    isResourceRequest: true,
    path: '/api/v1/namespaces/a/pods',
    apiGroup: '',
    apiVersion: 'v1',
    namespace: 'a',
    resource: 'pods',
    subresource: '',
    name: '',
    ...p,
  };
}

describe('requestVerb (doc 2 §5.3)', () => {
  it.each([
    ['POST', false, false, 'create'],
    ['GET', true, false, 'get'],
    ['HEAD', true, false, 'get'],
    ['HEAD', false, false, 'list'],
    ['GET', false, false, 'list'],
    ['GET', false, true, 'watch'],
    ['GET', true, true, 'watch'],
    ['PUT', true, false, 'update'],
    ['PATCH', true, false, 'patch'],
    ['DELETE', true, false, 'delete'],
    ['DELETE', false, false, 'deletecollection'],
    ['OPTIONS', false, false, 'options'],
  ])('%s hasName=%s watch=%s → %s', (method, hasName, watch, verb) => {
    expect(requestVerb(method, { hasName, watch })).toBe(verb);
  });
});

describe('toRbacAttributes', () => {
  it('keeps sub-resource apart and maps non-resource requests to path + verb', () => {
    expect(toRbacAttributes(attrs({ name: 'p', subresource: 'log' }))).toEqual({
      resourceRequest: true,
      verb: 'get',
      apiGroup: '',
      resource: 'pods',
      subresource: 'log',
      namespace: 'a',
      name: 'p',
    });
    expect(toRbacAttributes(attrs({ isResourceRequest: false, path: '/healthz' }))).toEqual({
      resourceRequest: false,
      verb: 'get',
      path: '/healthz',
    });
  });

  it('a list/watch takes its name from a metadata.name field selector, other verbs do not', () => {
    const l = toRbacAttributes(attrs({ verb: 'list', fieldSelector: 'metadata.name=x' }));
    expect(l.resourceRequest && l.name).toBe('x');
    const w = toRbacAttributes(
      attrs({ verb: 'watch', fieldSelector: 'metadata.name==y,status.phase=Running' }),
    );
    expect(w.resourceRequest && w.name).toBe('y');
    const d = toRbacAttributes(attrs({ verb: 'deletecollection', fieldSelector: 'metadata.name=x' }));
    expect(d.resourceRequest && d.name).toBe('');
    const none = toRbacAttributes(attrs({ verb: 'list' }));
    expect(none.resourceRequest && none.name).toBe('');
  });
});
