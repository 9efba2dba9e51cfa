import { isApiError } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { secrets } from '../registry/builtin/secrets.js';
import { compileFilter } from './selectors.js';

const obj = (name: string, labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  metadata: { name, namespace: 'ns', labels },
  ...extra,
});

describe('compileFilter', () => {
  const a = obj('a', { app: 'web', tier: 'front' }, { type: 'Opaque' });
  const b = obj('b', { app: 'db' }, { type: 'kubernetes.io/tls' });
  it.each([
    ['app=web', undefined, [true, false]],
    ['app==web', undefined, [true, false]],
    ['app!=web', undefined, [false, true]],
    ['app in (web, db)', undefined, [true, true]],
    ['app notin (web)', undefined, [false, true]],
    ['tier', undefined, [true, false]],
    ['!tier', undefined, [false, true]],
    ['app=web,tier=front', undefined, [true, false]],
    [undefined, 'metadata.name=b', [false, true]],
    [undefined, 'metadata.name!=b', [true, false]],
    [undefined, 'type=kubernetes.io/tls', [false, true]],
    ['app', 'metadata.namespace=ns,type=Opaque', [true, false]],
  ])('label %s field %s', (ls, fs, expected) => {
    const f = compileFilter(secrets, ls, fs);
    expect([f.matches(a), f.matches(b)]).toEqual(expected);
  });
  it.each([
    [undefined, 'spec.bogus=1'],
    ['a b', undefined],
    ['app in (web', undefined],
    [undefined, 'nonsense'],
    ['a=b=c', undefined],
  ])('rejects label %s field %s with 400', (ls, fs) => {
    let err: unknown;
    try {
      compileFilter(secrets, ls, fs);
    } catch (e) {
      err = e;
    }
    expect(isApiError(err) && err.code).toBe(400);
  });
});
