/**
 * autoscaling HorizontalPodAutoscaler (short name `hpa`) with `/status`, served at v2 (stored)
 * and v1 (CPU utilization, the rest in annotations), and at v2beta2 and v2beta1 where the emulated
 * release or `--runtime-config` serves them (spec doc 1 §9.4). No controller scales anything here: the type is served for clients and for the
 * version machinery (conversion, deprecation, managedFields across versions).
 */
import type { Flavor } from '@orchard/meta';
import type { ResourceDefinition } from '../resource.js';
import { defineResource } from '../resource.js';
import { statusSubresourceStrategy } from '../status-strategy.js';
import { withGeneration } from './generation.js';
import { hpaConversion } from './hpa-conversion.js';

const hub = { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' } as const;

/** `horizontalpodautoscalers` for a flavor (the v2beta1 behavior annotation is flavor-named). */
export function horizontalPodAutoscalers(flavor: Flavor): ResourceDefinition {
  return defineResource({
    group: 'autoscaling',
    versions: ['v2', 'v1', 'v2beta2', 'v2beta1'],
    storageVersion: 'v2',
    lifecycle: {
      v2: { introduced: '1.23' },
      v1: { introduced: '1.2' },
      v2beta2: { introduced: '1.12', deprecated: '1.23', removed: '1.26', replacement: hub },
      v2beta1: { introduced: '1.8', deprecated: '1.22', removed: '1.25', replacement: hub },
    },
    convert: hpaConversion(flavor),
    resource: 'horizontalpodautoscalers',
    kind: 'HorizontalPodAutoscaler',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: [{ name: 'status', verbs: ['get', 'patch', 'update'] }],
    strategy: statusSubresourceStrategy(withGeneration({}), {
      initialStatus: () => ({ desiredReplicas: 0 }),
    }),
  });
}
