/** core/v1 PersistentVolumeClaim and PersistentVolume (upstream k8s.io/api/core/v1). */
import type { StructuralSchema } from '../structural.js';
import { kindSchema } from './core.js';
import { atomicList, mapOf, obj, quantity, str, strMap, time } from './dsl.js';
import {
  conditionsList,
  labelSelectorSchema,
  objectMetaSchema,
  objectReferenceSchema,
} from './object-meta.js';
import { volumeSchema } from './pod.js';

const accessModes = (description: string) => atomicList(description, { type: 'string' });
const resourceList = (description: string) => mapOf(description, quantity('A quantity.'));
const loose = (description: string): StructuralSchema => ({
  type: 'object',
  description,
  preserveUnknownFields: true,
});

/** The spec of a PersistentVolumeClaim (also a StatefulSet's `volumeClaimTemplates[*].spec`). */
export const persistentVolumeClaimSpecSchema: StructuralSchema = obj(
  'PersistentVolumeClaimSpec describes the common attributes of storage devices and allows a Source for provider-specific attributes',
  {
    accessModes: accessModes('accessModes contains the desired access modes the volume should have.'),
    selector: {
      ...labelSelectorSchema,
      description: 'selector is a label query over volumes to consider for binding.',
    },
    resources: obj('resources represents the minimum resources the volume should have.', {
      limits: resourceList('Limits describes the maximum amount of compute resources allowed.'),
      requests: resourceList('Requests describes the minimum amount of compute resources required.'),
    }),
    volumeName: str('volumeName is the binding reference to the PersistentVolume backing this claim.'),
    storageClassName: str('storageClassName is the name of the StorageClass required by the claim.'),
    volumeMode: str(
      'volumeMode defines what type of volume is required by the claim. Value of Filesystem is implied when not included in claim spec.',
      {
        enum: ['Block', 'Filesystem'],
      },
    ),
    dataSource: loose(
      'dataSource field can be used to specify either an existing VolumeSnapshot object, an existing PVC or an existing custom resource that implements data population.',
    ),
    dataSourceRef: loose(
      'dataSourceRef specifies the object from which to populate the volume with data, if a non-empty volume is desired.',
    ),
    volumeAttributesClassName: str(
      'volumeAttributesClassName may be used to set the VolumeAttributesClass used by this claim.',
    ),
  },
);

const pvcStatusSchema = obj(
  'PersistentVolumeClaimStatus is the current status of a persistent volume claim.',
  {
    phase: str('phase represents the current phase of PersistentVolumeClaim.', {
      enum: ['Bound', 'Lost', 'Pending'],
    }),
    accessModes: accessModes('accessModes contains the actual access modes the volume backing the PVC has.'),
    capacity: resourceList('capacity represents the actual resources of the underlying volume.'),
    conditions: conditionsList('conditions is the current Condition of persistent volume claim.'),
    allocatedResources: resourceList(
      'allocatedResources tracks the resources allocated to a PVC including its capacity.',
    ),
    allocatedResourceStatuses: strMap(
      'allocatedResourceStatuses stores status of resource being resized for the given PVC.',
    ),
    currentVolumeAttributesClassName: str(
      'currentVolumeAttributesClassName is the current name of the VolumeAttributesClass the PVC is using.',
    ),
    modifyVolumeStatus: loose(
      'ModifyVolumeStatus represents the status object of ControllerModifyVolume operation.',
    ),
  },
);

/** core/v1 PersistentVolumeClaim. */
export const persistentVolumeClaimSchema = kindSchema(
  "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
  {
    spec: {
      ...persistentVolumeClaimSpecSchema,
      description: 'spec defines the desired characteristics of a volume requested by a pod author.',
    },
    status: {
      ...pvcStatusSchema,
      description: 'status represents the current information/status of a persistent volume claim.',
    },
  },
);

/** A PersistentVolumeClaim as a template (a StatefulSet's `volumeClaimTemplates`). */
export const persistentVolumeClaimTemplateSchema: StructuralSchema = obj(
  "PersistentVolumeClaim is a user's request for and claim to a persistent volume",
  {
    apiVersion: str('APIVersion defines the versioned schema of this representation of an object.'),
    kind: str('Kind is a string value representing the REST resource this object represents.'),
    metadata: { ...objectMetaSchema, description: "Standard object's metadata." },
    spec: {
      ...persistentVolumeClaimSpecSchema,
      description: 'spec defines the desired characteristics of a volume requested by a pod author.',
    },
    status: pvcStatusSchema,
  },
);

/** The volume sources a PersistentVolume shares with a pod's volumes (same field names). */
function persistentVolumeSources(): Record<string, StructuralSchema> {
  const podOnly = new Set([
    'name',
    'emptyDir',
    'configMap',
    'secret',
    'downwardAPI',
    'projected',
    'persistentVolumeClaim',
    'ephemeral',
    'image',
    'gitRepo',
  ]);
  const props = volumeSchema.properties ?? {};
  const out: Record<string, StructuralSchema> = {};
  for (const [k, v] of Object.entries(props)) if (!podOnly.has(k)) out[k] = v;
  out.csi = loose('csi represents storage that is handled by an external CSI driver.');
  out.local = obj('local represents directly-attached storage with node affinity', {
    path: str('path of the full path to the volume on the node.'),
    fsType: str('fsType is the filesystem type to mount.'),
  });
  return out;
}

/** core/v1 PersistentVolume (cluster-scoped). */
export const persistentVolumeSchema = kindSchema(
  'PersistentVolume (PV) is a storage resource provisioned by an administrator. It is analogous to a node.',
  {
    spec: obj('spec defines a specification of a persistent volume owned by the cluster.', {
      ...persistentVolumeSources(),
      capacity: resourceList(
        "capacity is the description of the persistent volume's resources and capacity.",
      ),
      accessModes: accessModes('accessModes contains all ways the volume can be mounted.'),
      claimRef: {
        ...objectReferenceSchema,
        description:
          'claimRef is part of a bi-directional binding between PersistentVolume and PersistentVolumeClaim.',
      },
      persistentVolumeReclaimPolicy: str(
        'persistentVolumeReclaimPolicy defines what happens to a persistent volume when released from its claim.',
        {
          enum: ['Delete', 'Recycle', 'Retain'],
        },
      ),
      storageClassName: str(
        'storageClassName is the name of StorageClass to which this persistent volume belongs.',
      ),
      mountOptions: atomicList('mountOptions is the list of mount options.', { type: 'string' }),
      volumeMode: str(
        'volumeMode defines if a volume is intended to be used with a formatted filesystem or to remain in raw block state.',
        {
          enum: ['Block', 'Filesystem'],
        },
      ),
      nodeAffinity: loose(
        'nodeAffinity defines constraints that limit what nodes this volume can be accessed from.',
      ),
      volumeAttributesClassName: str(
        'Name of VolumeAttributesClass to which this persistent volume belongs.',
      ),
    }),
    status: obj('status represents the current information/status for the persistent volume.', {
      phase: str('phase indicates if a volume is available, bound to a claim, or released by a claim.', {
        enum: ['Available', 'Bound', 'Failed', 'Pending', 'Released'],
      }),
      message: str(
        'message is a human-readable message indicating details about why the volume is in this state.',
      ),
      reason: str(
        'reason is a brief CamelCase string that describes any failure and is meant for machine parsing and tidy display in the CLI.',
      ),
      lastPhaseTransitionTime: time(
        'lastPhaseTransitionTime is the time the phase transitioned from one to another.',
      ),
    }),
  },
);

/** core/v1 ResourceQuota: hard limits per namespace (stored; no quota admission acts on them). */
export const resourceQuotaSchema = kindSchema(
  'ResourceQuota sets aggregate quota restrictions enforced per namespace',
  {
    spec: obj('Spec defines the desired quota.', {
      hard: resourceList('hard is the set of desired hard limits for each named resource.'),
      scopes: atomicList(
        'A collection of filters that must match each object tracked by a quota. If not specified, the quota matches all objects.',
        { type: 'string' },
      ),
      scopeSelector: obj(
        'scopeSelector is also a collection of filters like scopes that must match each object tracked by a quota but expressed using ScopeSelectorOperator in combination with possible values.',
        {
          matchExpressions: atomicList(
            'A list of scope selector requirements by scope of the resources.',
            obj(
              'A scoped-resource selector requirement is a selector that contains values, a scope name, and an operator that relates the scope name and values.',
              {
                scopeName: str('The name of the scope that the selector applies to.'),
                operator: str("Represents a scope's relationship to a set of values.", {
                  enum: ['DoesNotExist', 'Exists', 'In', 'NotIn'],
                }),
                values: atomicList('An array of string values.', { type: 'string' }),
              },
              { required: ['scopeName', 'operator'] },
            ),
          ),
        },
      ),
    }),
    status: obj('Status defines the actual enforced quota and its current usage.', {
      hard: resourceList('Hard is the set of enforced hard limits for each named resource.'),
      used: resourceList('Used is the current observed total usage of the resource in the namespace.'),
    }),
  },
);
