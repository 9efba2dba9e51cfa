import type { StructuralSchema } from '@orchard/schema';

const str: StructuralSchema = { type: 'string' };
const int: StructuralSchema = { type: 'integer' };

/**
 * A custom resource exercising every merge marker: granular struct and map, atomic struct,
 * list-map with a defaulted key, set, an unmarked (atomic) list, a preserve-unknown-fields
 * subtree, and scalar defaults.
 */
export const widgetSchema: StructuralSchema = {
  type: 'object',
  properties: {
    apiVersion: str,
    kind: str,
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      properties: {
        replicas: { type: 'integer', default: 1 },
        image: str,
        color: str,
        size: str,
        paused: { type: 'boolean' },
        args: { type: 'array', items: str },
        tags: { type: 'array', items: str, listType: 'set' },
        ports: {
          type: 'array',
          listType: 'map',
          listMapKeys: ['containerPort', 'protocol'],
          items: {
            type: 'object',
            properties: { containerPort: int, protocol: { type: 'string', default: 'TCP' }, name: str },
          },
        },
        containers: {
          type: 'array',
          listType: 'map',
          listMapKeys: ['name'],
          items: {
            type: 'object',
            properties: {
              name: str,
              image: str,
              env: {
                type: 'array',
                listType: 'map',
                listMapKeys: ['name'],
                items: { type: 'object', properties: { name: str, value: str } },
              },
            },
          },
        },
        selector: {
          type: 'object',
          mapType: 'atomic',
          properties: { matchLabels: { type: 'object', additionalProperties: str } },
        },
        resources: { type: 'object', additionalProperties: { type: 'string', intOrString: true } },
        settings: { type: 'object', additionalProperties: str },
        config: { type: 'object', preserveUnknownFields: true },
        template: {
          type: 'object',
          properties: { labels: { type: 'object', additionalProperties: str }, note: str },
        },
      },
    },
    data: { type: 'object', additionalProperties: str },
    status: { type: 'object', properties: { phase: str, ready: int } },
  },
};
