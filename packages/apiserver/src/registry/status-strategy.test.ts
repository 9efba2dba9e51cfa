import { kubernetesFlavor, type StoredObject } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { statusSubresourceStrategy } from './status-strategy.js';

const old: StoredObject = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'p', labels: { a: '1' }, resourceVersion: '5', uid: 'u' },
  spec: { x: 1 },
  status: { phase: 'Running' },
} as StoredObject;
const ctx = (subresource: string) => ({ flavor: kubernetesFlavor, dryRun: false, subresource });
const s = statusSubresourceStrategy({}, { initialStatus: () => ({ phase: 'Pending' }) });

describe('statusSubresourceStrategy', () => {
  it('create replaces the status with the initial one', () => {
    const obj = { metadata: { name: 'p' }, status: { phase: 'Running' } };
    s.prepareForCreate!(obj, ctx(''));
    expect(obj.status).toEqual({ phase: 'Pending' });
  });
  const updates: [string, string, Record<string, unknown>, Record<string, unknown>][] = [
    [
      'main resource keeps the stored status',
      '',
      {
        metadata: { name: 'p', labels: { b: '2' }, resourceVersion: '5' },
        spec: { x: 2 },
        status: { phase: 'Failed' },
      },
      {
        metadata: { name: 'p', labels: { b: '2' }, resourceVersion: '5' },
        spec: { x: 2 },
        status: { phase: 'Running' },
      },
    ],
    [
      'status changes only status',
      'status',
      {
        metadata: { name: 'p', labels: { b: '2' }, resourceVersion: '5' },
        spec: { x: 2 },
        status: { phase: 'Failed' },
      },
      { ...old, status: { phase: 'Failed' } },
    ],
    [
      'status keeps the request resourceVersion precondition',
      'status',
      { metadata: { resourceVersion: '3' }, status: {} },
      { ...old, metadata: { ...old.metadata, resourceVersion: '3' }, status: {} },
    ],
    [
      'status without a precondition',
      'status',
      { status: { phase: 'Succeeded' } },
      { ...old, metadata: { name: 'p', labels: { a: '1' }, uid: 'u' }, status: { phase: 'Succeeded' } },
    ],
  ];
  it.each(updates)('%s', (_n, sub, obj, expected) => {
    s.prepareForUpdate!(obj, structuredClone(old), ctx(sub));
    expect(obj).toEqual(expected);
  });
});
