import { describe, expect, it } from 'vitest';
import { errors } from './status.js';

// Upstream's Status bodies, as `kubectl get --raw` shows them from a 1.32 server: `details` is sent
// whenever the error carries it (kubectl debug dereferences it unguarded) and its empty fields are omitted.
describe('ApiError.toStatus details', () => {
  it.each([
    ['unknown path', errors.pathNotFound(), {}],
    ['core not found', errors.notFound({ group: '', resource: 'pods' }, 'x'), { name: 'x', kind: 'pods' }],
    [
      'named-group not found',
      errors.notFound({ group: 'apps', resource: 'deployments' }, 'd'),
      { name: 'd', group: 'apps', kind: 'deployments' },
    ],
    [
      'forbidden without a name',
      errors.forbidden({ group: '', resource: 'pods' }, '', 'no'),
      { kind: 'pods' },
    ],
  ])('%s', (_name, err, details) => {
    expect(err.toStatus().details).toEqual(details);
    expect(JSON.parse(JSON.stringify(err.toStatus())).details).toEqual(details);
  });

  it.each([
    ['bad request', errors.badRequest('x')],
    ['unauthorized', errors.unauthorized()],
    ['gone', errors.gone('x')],
  ])('%s has no details, as upstream', (_name, err) => {
    expect('details' in err.toStatus()).toBe(false);
  });
});
