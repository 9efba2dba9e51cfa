import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { fromOpenApi, toOpenApi } from './openapi.js';

describe('fromOpenApi / toOpenApi', () => {
  const wire = {
    type: 'object',
    description: 'd',
    required: ['a'],
    properties: {
      a: { type: 'string', enum: ['x'], default: 'x' },
      l: {
        type: 'array',
        items: { type: 'object', properties: { k: { type: 'string' } } },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['k'],
      },
      m: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
      p: { 'x-kubernetes-int-or-string': true },
      e: {
        type: 'object',
        'x-kubernetes-embedded-resource': true,
        'x-kubernetes-preserve-unknown-fields': true,
      },
      v: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self.size() > 1', message: 'short' }] },
    },
  };
  it('reads every marker', () => {
    const s = fromOpenApi(wire, kubernetesFlavor);
    expect(s.properties!.l).toMatchObject({ listType: 'map', listMapKeys: ['k'] });
    expect(s.properties!.m!.mapType).toBe('atomic');
    expect(s.properties!.p!.intOrString).toBe(true);
    expect(s.properties!.e).toMatchObject({ embeddedResource: true, preserveUnknownFields: true });
    expect(s.properties!.v!.validations).toEqual([{ rule: 'self.size() > 1', message: 'short' }]);
  });
  it('round-trips', () => {
    expect(toOpenApi(fromOpenApi(wire, kubernetesFlavor), kubernetesFlavor)).toEqual(wire);
  });
  it('ignores the other flavor', () => {
    expect(fromOpenApi(wire, orchFlavor).properties!.p!.intOrString).toBeUndefined();
  });
  const markerCases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    [
      'patch merge with key = map',
      {
        type: 'array',
        items: { type: 'object' },
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'name',
      },
      { listType: 'map', listMapKeys: ['name'] },
    ],
    [
      'merge,retainKeys = map',
      {
        type: 'array',
        items: { type: 'object' },
        'x-kubernetes-patch-strategy': 'merge,retainKeys',
        'x-kubernetes-patch-merge-key': 'name',
      },
      { listType: 'map', listMapKeys: ['name'] },
    ],
    [
      'merge of scalars = set',
      { type: 'array', items: { type: 'string' }, 'x-kubernetes-patch-strategy': 'merge' },
      { listType: 'set' },
    ],
    [
      'explicit list-type wins',
      {
        type: 'array',
        items: { type: 'object' },
        'x-kubernetes-list-type': 'atomic',
        'x-kubernetes-patch-strategy': 'merge',
        'x-kubernetes-patch-merge-key': 'name',
      },
      { listType: 'atomic' },
    ],
    ['no markers = none', { type: 'array', items: { type: 'object' } }, { listType: undefined }],
  ];
  it.each(markerCases)('§2.7: %s', (_n, w, expected) => {
    const s = fromOpenApi(w, kubernetesFlavor);
    for (const [k, v] of Object.entries(expected)) expect((s as Record<string, unknown>)[k]).toEqual(v);
  });
});
