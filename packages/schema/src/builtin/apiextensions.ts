/** apiextensions/v1 CustomResourceDefinition. */
import type { StructuralSchema } from '../structural.js';
import { kindSchema } from './core.js';
import { atomicList, bool, int32, obj, str } from './dsl.js';
import { conditionsList } from './object-meta.js';

const jsonSchemaProps: StructuralSchema = {
  type: 'object',
  description: 'JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).',
  preserveUnknownFields: true,
};

const names = obj(
  'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition',
  {
    plural: str(
      'plural is the plural name of the resource to serve. The custom resources are served under `/apis/<group>/<version>/.../<plural>`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`). Must be all lowercase.',
    ),
    singular: str(
      'singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.',
    ),
    shortNames: atomicList(
      'shortNames are short names for the resource, exposed in API discovery documents, and used by clients to support invocations like `kubectl get <shortname>`. It must be all lowercase.',
      { type: 'string' },
    ),
    kind: str(
      'kind is the serialized kind of the resource. It is normally CamelCase and singular. Custom resource instances will use this value as the `kind` attribute in API calls.',
    ),
    listKind: str('listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".'),
    categories: atomicList(
      "categories is a list of grouped resources this custom resource belongs to (e.g. 'all'). This is published in API discovery documents, and used by clients to support invocations like `kubectl get all`.",
      { type: 'string' },
    ),
  },
  { required: ['plural', 'kind'] },
);

const printerColumn = obj(
  'CustomResourceColumnDefinition specifies a column for server side printing.',
  {
    name: str('name is a human readable name for the column.'),
    type: str(
      'type is an OpenAPI type definition for this column. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.',
    ),
    format: str(
      "format is an optional OpenAPI type definition for this column. The 'name' format is applied to the primary identifier column to assist in clients identifying column is the resource name.",
    ),
    description: str('description is a human readable description of this column.'),
    priority: int32(
      'priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority.',
    ),
    jsonPath: str(
      'jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.',
    ),
  },
  { required: ['name', 'type', 'jsonPath'] },
);

const version = obj(
  'CustomResourceDefinitionVersion describes a version for CRD.',
  {
    name: str(
      'name is the version name, e.g. “v1”, “v2beta1”, etc. The custom resources are served under this version at `/apis/<group>/<version>/...` if `served` is true.',
    ),
    served: bool('served is a flag enabling/disabling this version from being served via REST APIs'),
    storage: bool(
      'storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.',
    ),
    deprecated: bool(
      'deprecated indicates this version of the custom resource API is deprecated. When set to true, API requests to this version receive a warning header in the server response. Defaults to false.',
    ),
    deprecationWarning: str(
      'deprecationWarning overrides the default warning returned to API clients. May only be set when `deprecated` is true.',
    ),
    schema: obj(
      'schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.',
      {
        openAPIV3Schema: {
          ...jsonSchemaProps,
          description: 'openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.',
        },
      },
    ),
    subresources: obj(
      'subresources specify what subresources this version of the defined custom resource have.',
      {
        status: {
          type: 'object',
          description:
            'status indicates the custom resource should serve a `/status` subresource. When enabled: 1. requests to the custom resource primary endpoint ignore changes to the `status` stanza of the object. 2. requests to the custom resource `/status` subresource ignore changes to anything other than the `status` stanza of the object.',
          preserveUnknownFields: true,
        },
        scale: obj(
          'scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.',
          {
            specReplicasPath: str(
              'specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.spec`.',
            ),
            statusReplicasPath: str(
              'statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`. Must be a JSON Path under `.status`.',
            ),
            labelSelectorPath: str(
              'labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`.',
            ),
          },
          { required: ['specReplicasPath', 'statusReplicasPath'] },
        ),
      },
    ),
    additionalPrinterColumns: atomicList(
      'additionalPrinterColumns specifies additional columns returned in Table output. If no columns are specified, a single column displaying the age of the custom resource is used.',
      printerColumn,
    ),
    selectableFields: atomicList(
      'selectableFields specifies paths to fields that may be used as field selectors.',
      obj(
        'SelectableField specifies the JSON path of a field that may be used with field selectors.',
        {
          jsonPath: str(
            'jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value.',
          ),
        },
        { required: ['jsonPath'] },
      ),
    ),
  },
  { required: ['name', 'served', 'storage'] },
);

export const customResourceDefinitionSchema = kindSchema(
  'CustomResourceDefinition represents a resource that should be exposed on the API server. Its name MUST be in the format <.spec.name>.<.spec.group>.',
  {
    spec: obj(
      'spec describes how the user wants the resources to appear',
      {
        group: str(
          'group is the API group of the defined custom resource. The custom resources are served under `/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).',
        ),
        names,
        scope: str(
          'scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.',
          { enum: ['Cluster', 'Namespaced'] },
        ),
        versions: atomicList(
          'versions is the list of all API versions of the defined custom resource. Version names are used to compute the order in which served versions are listed in API discovery.',
          version,
        ),
        conversion: obj(
          'conversion defines conversion settings for the CRD.',
          {
            strategy: str(
              'strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `"Webhook"`: API Server will call to an external webhook to do the conversion.',
              { enum: ['None', 'Webhook'] },
            ),
            webhook: {
              type: 'object',
              description:
                'webhook describes how to call the conversion webhook. Required when `strategy` is set to `"Webhook"`.',
              preserveUnknownFields: true,
            },
          },
          { required: ['strategy'] },
        ),
        preserveUnknownFields: bool(
          'preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage. apiVersion, kind, metadata and known fields inside metadata are always preserved. This field is deprecated in favor of setting `x-preserve-unknown-fields` to true in `spec.versions[*].schema.openAPIV3Schema`.',
        ),
      },
      { required: ['group', 'names', 'scope', 'versions'] },
    ),
    status: obj('status indicates the actual state of the CustomResourceDefinition', {
      conditions: conditionsList(
        'conditions indicate state for particular aspects of a CustomResourceDefinition',
      ),
      acceptedNames: {
        ...names,
        description:
          'acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.',
      },
      storedVersions: atomicList(
        'storedVersions lists all versions of CustomResources that were ever persisted.',
        { type: 'string' },
      ),
    }),
  },
);
customResourceDefinitionSchema.required = ['spec'];
