import { CodecError } from '@orchard/codecs';
import { StoreError } from '@orchard/store';
import { describe, expect, it } from 'vitest';
import { toApiError } from './errors.js';
import { UndecodableObjectError } from './storage/object-store.js';

const target = { group: '', resource: 'configmaps', name: 'x' };

describe('toApiError', () => {
  it.each([
    [new StoreError('NotFound', 'k'), 404, 'NotFound', 'configmaps "x" not found'],
    [new StoreError('AlreadyExists', 'k'), 409, 'AlreadyExists', 'configmaps "x" already exists'],
    [new StoreError('Conflict', 'k'), 409, 'Conflict', 'Operation cannot be fulfilled on configmaps "x"'],
    [
      new StoreError('Compacted', 'required revision 3 has been compacted', undefined, 9),
      410,
      'Expired',
      'too old resource version',
    ],
    [new StoreError('FutureRevision', '99', undefined, 5), 504, 'Timeout', 'Too large resource version'],
    [new StoreError('Unavailable', 'down'), 503, 'ServiceUnavailable', 'down'],
    [new CodecError('Malformed', 'application/json', 'bad json'), 400, 'BadRequest', 'bad json'],
    [
      new CodecError('Unsupported', 'text/plain', 'unknown format'),
      415,
      'UnsupportedMediaType',
      'unknown format',
    ],
    [
      new UndecodableObjectError('/core/configmaps/a/b', 'oops'),
      500,
      'InternalError',
      '/core/configmaps/a/b',
    ],
  ])('%s', (e, code, reason, message) => {
    const api = toApiError(e, target, () => {});
    expect(api.code).toBe(code);
    expect(api.reason).toBe(reason);
    expect(api.message).toContain(message);
  });

  it('keeps the message of an unknown error and logs it', () => {
    const logged: unknown[] = [];
    const api = toApiError(new TypeError('boom'), target, (_m, e) => logged.push(e));
    expect(api.code).toBe(500);
    expect(api.message).toContain('boom');
    expect(api.toStatus().message).not.toContain('at ');
    expect(logged).toHaveLength(1);
  });
});
