import { ApiError, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { deleteOptionsFromBody, invalidDeleteOptions, validateDeleteOptions } from './delete-options.js';

const messages = (o: Parameters<typeof validateDeleteOptions>[0]) =>
  validateDeleteOptions(o).map((c) => `${c.field}: ${c.message}`);

describe('validateDeleteOptions (upstream ValidateDeleteOptions)', () => {
  it.each([
    [{}, []],
    [{ propagationPolicy: 'Foreground' }, []],
    [{ orphanDependents: false }, []],
    [{ dryRun: ['All'] }, []],
    [
      { orphanDependents: true, propagationPolicy: 'Background' },
      [
        'propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set',
      ],
    ],
    [
      { propagationPolicy: 'Later' },
      [
        'propagationPolicy: Unsupported value: "Later": supported values: "Foreground", "Background", "Orphan", "nil"',
      ],
    ],
    [
      { dryRun: ['All', 'Some'] },
      ['dryRun: Unsupported value: []string{"All", "Some"}: supported values: "All"'],
    ],
    [{ ignoreStoreReadErrorWithClusterBreakingPotential: true }, []],
    [{ ignoreStoreReadErrorWithClusterBreakingPotential: false, propagationPolicy: 'Orphan' }, []],
    [
      { ignoreStoreReadErrorWithClusterBreakingPotential: true, gracePeriodSeconds: 0, preconditions: {} },
      [
        'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .gracePeriodSeconds',
        'ignoreStoreReadErrorWithClusterBreakingPotential: Invalid value: true: cannot be set together with .preconditions',
      ],
    ],
  ] as const)('%j → %j', (opts, want) => {
    expect(messages(opts as never)).toEqual(want);
  });

  it('aggregates several causes into one 422 for DeleteOptions.meta.<domain>', () => {
    const e = invalidDeleteOptions(
      orchFlavor,
      validateDeleteOptions({ dryRun: ['x'], propagationPolicy: 'y' as never }),
    );
    expect(e).toBeInstanceOf(ApiError);
    expect(e.code).toBe(422);
    expect(e.message).toBe(
      'DeleteOptions.meta.orch.io "" is invalid: [propagationPolicy: Unsupported value: "y": supported values: "Foreground", "Background", "Orphan", "nil", dryRun: Unsupported value: []string{"x"}: supported values: "All"]',
    );
  });
});

describe('deleteOptionsFromBody', () => {
  it('reads the known fields, treats null as unset and ignores unknown fields', () => {
    expect(
      deleteOptionsFromBody({
        kind: 'DeleteOptions',
        apiVersion: 'meta.k8s.io/v1',
        gracePeriodSeconds: 5,
        propagationPolicy: null,
        preconditions: { uid: 'u', resourceVersion: null },
        somethingElse: 1,
      }),
    ).toEqual({ gracePeriodSeconds: 5, preconditions: { uid: 'u' } });
  });

  it.each([
    [[], 'the request body must be a DeleteOptions object'],
    [{ kind: 'ConfigMap' }, 'cannot be converted to DeleteOptions'],
    [{ dryRun: 'All' }, 'DeleteOptions.dryRun of type []string'],
    [{ gracePeriodSeconds: 1.5 }, 'DeleteOptions.gracePeriodSeconds of type int64'],
    [{ orphanDependents: 'yes' }, 'DeleteOptions.orphanDependents of type bool'],
    [{ propagationPolicy: 3 }, 'DeleteOptions.propagationPolicy'],
    [{ preconditions: { uid: 7 } }, 'DeleteOptions.preconditions.uid'],
    [{ ignoreStoreReadErrorWithClusterBreakingPotential: 'true' }, 'of type bool'],
  ])('%j → 400 (%s)', (body, fragment) => {
    let err: unknown;
    try {
      deleteOptionsFromBody(body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe(400);
    expect((err as ApiError).message).toContain(fragment);
  });
});

describe('deleteOptionsFromBody checks the body against meta DeleteOptionsSchema', () => {
  function message(body: unknown): string {
    try {
      deleteOptionsFromBody(body);
    } catch (e) {
      return (e as ApiError).message;
    }
    return 'accepted';
  }

  it.each([
    [
      { dryRun: ['All', 1] },
      'json: cannot unmarshal array into Go struct field DeleteOptions.dryRun of type []string',
    ],
    [
      { gracePeriodSeconds: '5' },
      'json: cannot unmarshal string into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
    ],
    [
      { preconditions: [] },
      'json: cannot unmarshal array into Go struct field DeleteOptions.preconditions of type v1.Preconditions',
    ],
    [
      { preconditions: { resourceVersion: 5 } },
      'json: cannot unmarshal number into Go struct field DeleteOptions.preconditions.resourceVersion of type string',
    ],
    // Several wrong fields: the first in upstream's decoding order is named, whatever the key order.
    [
      { preconditions: 1, orphanDependents: 0, gracePeriodSeconds: true },
      'json: cannot unmarshal boolean into Go struct field DeleteOptions.gracePeriodSeconds of type int64',
    ],
    [
      { propagationPolicy: {}, preconditions: 'x' },
      'json: cannot unmarshal object into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation',
    ],
  ])('%j → %s', (body, want) => {
    expect(message(body)).toBe(want);
  });

  it('keeps an unknown propagation policy for the 422 of validation, and ignores a non-string apiVersion', () => {
    expect(deleteOptionsFromBody({ apiVersion: 7, propagationPolicy: 'Sideways' })).toEqual({
      propagationPolicy: 'Sideways',
    });
  });

  it('accepts an int64 beyond 2^53 (2^60), as upstream decodes it', () => {
    expect(deleteOptionsFromBody({ gracePeriodSeconds: 2 ** 60 })).toEqual({ gracePeriodSeconds: 2 ** 60 });
  });

  it('__proto__ and constructor keys neither leak into the options nor pollute Object.prototype', () => {
    const body = JSON.parse(
      '{"__proto__": {"dryRun": ["All"], "polluted": 1}, "constructor": {"prototype": {"polluted": 2}}, "gracePeriodSeconds": 3}',
    );
    const out = deleteOptionsFromBody(body);
    expect(out).toEqual({ gracePeriodSeconds: 3 });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(message(JSON.parse('{"__proto__": 5, "dryRun": 5}'))).toContain(
      'DeleteOptions.dryRun of type []string',
    );
  });

  it('a very wide body with one wrong field is rejected naming that field', () => {
    const body: Record<string, unknown> = {};
    for (let i = 0; i < 50_000; i++) body[`k${i}`] = i;
    body.orphanDependents = 'no';
    expect(message(body)).toContain('DeleteOptions.orphanDependents of type bool');
  });
});
