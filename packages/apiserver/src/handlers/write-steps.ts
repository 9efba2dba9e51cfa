import {
  type ApiObject,
  errors,
  formatApiVersion,
  generateName,
  isApiError,
  nameIsDnsSubdomain,
  newUid,
  nowRfc3339,
  type StatusCause,
  validateAnnotations,
  validateLabels,
} from '@orchard/meta';
import { cloneJson, isJsonObject } from '@orchard/meta/internal';
import { isStoreError } from '@orchard/store';
import { versionInStep, versionOutStep } from '../crd/conversion.js';
import { crdValidationRulesStep } from '../crd/validation-rules.js';
import { invalidCause, requiredCause } from '../registry/validation.js';
import { schemaStep, schemaValidationStep } from '../schema/schema-steps.js';
import { fieldManagerStep } from './field-manager-step.js';
import { patchStep } from './patch-step.js';
import type { WriteStep } from './write-pipeline.js';

/**
 * `type-meta`: the body is an object of the URL's kind and apiVersion (filled in when absent), and
 * its namespace and name agree with the URL.
 */
export const typeMetaStep: WriteStep = {
  name: 'type-meta',
  operations: ['create', 'update'],
  run(w) {
    if (!isJsonObject(w.body)) throw errors.badRequest('the request body must be a JSON or YAML object');
    const obj = (w.bodyOwned ? w.body : cloneJson(w.body)) as ApiObject;
    const expectedApiVersion = formatApiVersion({ group: w.def.group, version: w.ctx.version });
    if (obj.apiVersion !== undefined && obj.apiVersion !== expectedApiVersion) {
      throw errors.badRequest(
        `the API version in the data (${String(obj.apiVersion)}) does not match the expected API version (${expectedApiVersion})`,
      );
    }
    if (obj.kind !== undefined && obj.kind !== w.def.kind) {
      throw errors.badRequest(
        `the kind in the data (${String(obj.kind)}) does not match the expected kind (${w.def.kind})`,
      );
    }
    if (obj.metadata !== undefined && !isJsonObject(obj.metadata))
      throw errors.badRequest('metadata must be an object');
    const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
    w.obj = { apiVersion: expectedApiVersion, kind: w.def.kind, metadata: metadata ?? {}, ...rest };
  },
};

/**
 * Upstream ObjectMeta marks these `omitempty`: an empty map or list (what removing the last label
 * with a merge patch leaves) is never stored or served, and is the same as an absent one.
 */
const omitEmptyMetaFields = ['labels', 'annotations', 'finalizers', 'ownerReferences'] as const;

function dropEmptyMetaCollections(meta: Record<string, unknown>): void {
  for (const field of omitEmptyMetaFields) {
    const v = meta[field];
    if (v === null || (Array.isArray(v) ? v.length === 0 : isJsonObject(v) && Object.keys(v).length === 0))
      delete meta[field];
  }
}

/**
 * `object-meta`: namespace and name against the URL, system fields (`uid`, `creationTimestamp`)
 * set on create and carried over on update, `generateName`.
 */
export const objectMetaStep: WriteStep = {
  name: 'object-meta',
  operations: ['create', 'update', 'patch'],
  run(w) {
    const meta = w.obj.metadata ?? {};
    w.obj.metadata = meta;
    dropEmptyMetaCollections(meta);
    if (w.def.namespaced) {
      if (meta.namespace !== undefined && meta.namespace !== '' && meta.namespace !== w.namespace) {
        throw errors.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      meta.namespace = w.namespace;
    } else {
      if (meta.namespace !== undefined && meta.namespace !== '') {
        throw errors.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      }
      delete meta.namespace;
    }
    if (w.operation === 'create') {
      // `0` is no version (upstream's versioner reads it as unset), so a create may carry it.
      if (meta.resourceVersion !== undefined && meta.resourceVersion !== '' && meta.resourceVersion !== '0') {
        throw errors.badRequest('resourceVersion should not be set on objects to be created');
      }
      delete meta.resourceVersion;
      if ((meta.name === undefined || meta.name === '') && meta.generateName) {
        meta.name = generateName(meta.generateName);
      }
      if (w.name !== '' && meta.name !== undefined && meta.name !== w.name) {
        throw errors.badRequest(
          `the name of the object (${meta.name}) does not match the name on the URL (${w.name})`,
        );
      }
      if ((meta.name === undefined || meta.name === '') && w.name !== '') meta.name = w.name;
      meta.uid = newUid();
      meta.creationTimestamp = nowRfc3339();
      delete meta.deletionTimestamp;
      delete meta.deletionGracePeriodSeconds;
      delete meta.selfLink;
      return;
    }
    const old = w.old;
    if (!old) throw new Error('update without the current object');
    if (meta.name !== undefined && meta.name !== '' && meta.name !== w.name) {
      throw errors.badRequest(
        `the name of the object (${meta.name}) does not match the name on the URL (${w.name})`,
      );
    }
    meta.name = w.name;
    if (meta.uid !== undefined && meta.uid !== '' && meta.uid !== old.metadata.uid) {
      throw errors.conflict(
        { group: w.def.group, resource: w.def.resource },
        w.name,
        `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${old.metadata.uid}`,
      );
    }
    meta.uid = old.metadata.uid;
    meta.creationTimestamp = old.metadata.creationTimestamp ?? null;
    if (old.metadata.deletionTimestamp) meta.deletionTimestamp = old.metadata.deletionTimestamp;
    else delete meta.deletionTimestamp;
    if (meta.generateName === undefined && old.metadata.generateName)
      meta.generateName = old.metadata.generateName;
    delete meta.selfLink;
  },
};

/** `namespace-lifecycle`: objects are created only in namespaces that exist (404 otherwise). */
export const namespaceLifecycleStep: WriteStep = {
  name: 'namespace-lifecycle',
  operations: ['create'],
  async run(w) {
    if (!w.def.namespaced) return;
    const nsDef = w.ctx.server.registry.get('', 'namespaces');
    if (!nsDef) return;
    const objects = w.ctx.server.objects;
    const key = objects.key({ group: '', resource: 'namespaces', namespace: '' }, w.namespace);
    // As upstream's NamespaceLifecycle: the watch cache first (no storage round trip per create, which
    // matters on etcd), a live read only when the cache does not have it (a namespace created a
    // moment ago may not have reached the cache yet).
    const cached = await w.ctx.server.watchCaches
      .for(nsDef)
      .get(key, { kind: 'Any' })
      .catch(() => undefined);
    const object = cached?.object ?? (await objects.get(key)).object;
    if (!object) throw errors.notFound({ group: '', resource: 'namespaces' }, w.namespace);
    if (object.metadata.deletionTimestamp) {
      const err = errors.forbidden(
        { group: w.def.group, resource: w.def.resource },
        w.obj.metadata?.name ?? '',
        `unable to create new content in namespace ${w.namespace} because it is being terminated`,
      );
      // Upstream's NamespaceLifecycle admission adds this cause so clients can tell why.
      if (err.details) {
        err.details.causes = [
          {
            reason: 'NamespaceTerminating',
            message: `namespace ${w.namespace} is being terminated`,
            field: 'metadata.namespace',
          },
        ];
      }
      throw err;
    }
  },
};

/** `strategy-prepare`: the type's `prepareForCreate` / `prepareForUpdate`. */
export const strategyPrepareStep: WriteStep = {
  name: 'strategy-prepare',
  operations: ['create', 'update', 'patch'],
  run(w) {
    const sctx = { flavor: w.ctx.server.flavor, dryRun: w.dryRun, subresource: w.ctx.info.subresource };
    if (w.operation === 'create') w.def.strategy.prepareForCreate?.(w.obj, sctx);
    else if (w.old) w.def.strategy.prepareForUpdate?.(w.obj, w.old, sctx);
  },
};

/**
 * `validation`: object metadata (name, labels, annotations), the type's own rules, then the schema
 * violations `schema-validation` left (built-in kinds); any cause → one 422 naming them all.
 */
export const validationStep: WriteStep = {
  name: 'validation',
  operations: ['create', 'update', 'patch'],
  run(w) {
    const causes: StatusCause[] = [];
    const meta = w.obj.metadata ?? {};
    const validateName = w.def.validateName ?? nameIsDnsSubdomain;
    if (meta.name === undefined || meta.name === '') {
      causes.push(requiredCause('metadata.name', 'name or generateName is required'));
    } else {
      for (const msg of validateName(meta.name, false))
        causes.push(invalidCause('metadata.name', meta.name, msg));
    }
    if (meta.generateName) {
      for (const msg of validateName(meta.generateName, true))
        causes.push(invalidCause('metadata.generateName', meta.generateName, msg));
    }
    for (const field of ['labels', 'annotations'] as const) {
      const m = meta[field];
      if (m === undefined || m === null) continue;
      if (typeof m !== 'object' || Array.isArray(m)) {
        causes.push(invalidCause(`metadata.${field}`, m, 'must be a map of strings'));
        continue;
      }
      const entries = Object.entries(m);
      for (const [k, v] of entries) {
        if (typeof v !== 'string')
          causes.push(invalidCause(`metadata.${field}`, v, `value of ${JSON.stringify(k)} must be a string`));
      }
      // Upstream's ValidateObjectMeta: qualified-name keys, label values, the annotations' total size.
      if (entries.every(([, v]) => typeof v === 'string')) {
        const strings = m as Record<string, string>;
        const validate = field === 'labels' ? validateLabels : validateAnnotations;
        causes.push(...validate(strings, `metadata.${field}`));
      }
    }
    const sctx = { flavor: w.ctx.server.flavor, dryRun: w.dryRun, subresource: w.ctx.info.subresource };
    if (w.operation === 'create') causes.push(...(w.def.strategy.validate?.(w.obj, sctx) ?? []));
    else if (w.old) {
      causes.push(
        ...(w.def.strategy.validateUpdate?.(w.obj, w.old, sctx) ??
          w.def.strategy.validate?.(w.obj, sctx) ??
          []),
      );
    }
    // A built-in kind's schema violations, but only for fields its own rules did not name already.
    const named = new Set(causes.map((c) => c.field));
    causes.push(...(w.schemaCauses ?? []).filter((c) => !named.has(c.field)));
    if (causes.length > 0)
      throw errors.invalid(w.def.group, w.def.kind, meta.name ?? meta.generateName ?? '', causes);
  },
};

/**
 * The steps of every create, update and patch, in order (version in, TypeMeta, patch, schema,
 * ObjectMeta, strategy, field manager, validation, version out); a `WritePipeline` runs them.
 */
export const defaultWriteSteps: readonly WriteStep[] = Object.freeze([
  versionInStep,
  typeMetaStep,
  patchStep,
  schemaStep,
  objectMetaStep,
  namespaceLifecycleStep,
  strategyPrepareStep,
  fieldManagerStep,
  schemaValidationStep,
  crdValidationRulesStep,
  validationStep,
  versionOutStep,
]);

/** True for errors that mean "the object is not there" (used by create-on-update). */
export function isNotFound(e: unknown): boolean {
  return isStoreError(e, 'NotFound') || (isApiError(e) && e.code === 404);
}
