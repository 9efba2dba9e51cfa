import type { Flavor, FlavorName } from '@orchard/meta';
import { crdFixture } from '@orchard/testing';

/**
 * The Widget CRD of the CRD suites (`example.com/widgets`, short name `wd`): a required enum, a
 * defaulted integer, int-or-string, a set list, a preserved object, the status sub-resource and a
 * Color printer column. `ext` is the flavor's extension prefix, `apiGroup` its apiextensions group.
 */
export function widgetCrd(ext: string, apiGroup: string, versions: string[] = ['v1'], storage = 'v1') {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['color'],
        properties: {
          color: { type: 'string', enum: ['red', 'blue'], description: 'The colour of the widget.' },
          size: { type: 'integer', default: 3, minimum: 1, description: 'How big the widget is.' },
          port: { [`${ext}int-or-string`]: true },
          tags: { type: 'array', items: { type: 'string' }, [`${ext}list-type`]: 'set' },
          extra: { type: 'object', [`${ext}preserve-unknown-fields`]: true },
        },
      },
      status: { type: 'object', properties: { ready: { type: 'boolean' } } },
    },
  };
  return crdFixture({
    flavor: apiGroup === 'apiextensions.k8s.io' ? 'kubernetes' : 'orch',
    group: 'example.com',
    plural: 'widgets',
    kind: 'Widget',
    shortNames: ['wd'],
    versions,
    storageVersion: storage,
    versionFields: {
      subresources: { status: {} },
      additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }],
    },
    schema,
  });
}

/** The Gadget CRD of the real-client suites (`example.com/gadgets`): a defaulted size, a color, status. */
export function gadgetCrd(flavor: FlavorName | Flavor) {
  return crdFixture({
    flavor,
    group: 'example.com',
    plural: 'gadgets',
    kind: 'Gadget',
    versionFields: { subresources: { status: {} } },
    schema: {
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { size: { type: 'integer', default: 1 }, color: { type: 'string' } },
        },
        status: { type: 'object', properties: { ready: { type: 'boolean' } } },
      },
    },
  });
}
