import { type ApiObject, kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { toPartialObjectMetadata, toPartialObjectMetadataList } from './partial.js';

const k8s = kubernetesFlavor;
const cm: ApiObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'app', namespace: 'default', resourceVersion: '7', labels: { a: 'b' } },
  data: { a: '1' },
};

describe('PartialObjectMetadata', () => {
  it('reduces objects and lists to their metadata under meta.<domain>/v1', () => {
    expect(toPartialObjectMetadata(cm, k8s)).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: cm.metadata,
    });
    const list = toPartialObjectMetadataList([cm], { resourceVersion: '5' }, orchFlavor);
    expect(list).toMatchObject({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.orch.io/v1',
      metadata: { resourceVersion: '5' },
    });
    expect(list.items[0]).not.toHaveProperty('data');
  });
});
