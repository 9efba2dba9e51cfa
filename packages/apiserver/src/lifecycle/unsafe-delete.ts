import { ApiError, errors, fieldErrors } from '@orchard/meta';
import { aggregateMessage } from '@orchard/meta/internal';
import { isStoreError } from '@orchard/store';
import type { UserInfo } from '../registry/resource.js';
import type { ServerState } from '../state.js';
import { isUndecodableObjectError } from '../storage/object-store.js';
import { ignoreStoreReadErrorField } from './delete-options.js';
import { type DeleteOutcome, type DeleteTarget, deleteObject, keyOf } from './deletion.js';

/** The verb a caller needs, besides `delete`, for the unsafe delete (spec doc 1 §3). */
export const unsafeDeleteVerb = 'unsafe-delete-ignore-read-errors';

/** What the unsafe-delete authorization hook is asked. */
export interface UnsafeDeleteAttributes {
  readonly user: UserInfo;
  readonly group: string;
  readonly resource: string;
  readonly namespace: string;
  readonly name: string;
  /** Both must be allowed: `delete` and `unsafe-delete-ignore-read-errors`. */
  readonly verbs: readonly ['delete', typeof unsafeDeleteVerb];
}

/**
 * Authorization of the unsafe delete: the caller must be allowed both `delete` (the request itself
 * was) and `unsafe-delete-ignore-read-errors` on the object, asked of the server's authorizer chain;
 * a refusal is a 403 Forbidden with upstream's wording.
 */
export async function authorizeUnsafeDelete(
  state: ServerState,
  attributes: UnsafeDeleteAttributes,
): Promise<void> {
  for (const verb of attributes.verbs) {
    const r = await state.authorizer.authorize({
      user: attributes.user,
      verb,
      isResourceRequest: true,
      path: '',
      apiGroup: attributes.group,
      apiVersion: '',
      namespace: attributes.namespace,
      resource: attributes.resource,
      subresource: '',
      name: attributes.name,
    });
    if (r.decision !== 'allow')
      throw errors.forbidden(
        { group: attributes.group, resource: attributes.resource },
        attributes.name,
        `not permitted to do ${JSON.stringify(verb)}, reason: ${r.reason === '' ? 'no RBAC policy matched' : r.reason}`,
      );
  }
}

/** 422 when the object can be read: the option is only for objects storage cannot decode. */
function readableObjectError(target: DeleteTarget): ApiError {
  const causes = [
    fieldErrors.invalid(
      ignoreStoreReadErrorField,
      true,
      'is exclusively used to delete corrupt object(s), try again by removing this option',
    ),
  ];
  // Upstream puts the resource in the Kind slot here.
  return new ApiError(
    422,
    'Invalid',
    `${target.def.group === '' ? target.def.resource : `${target.def.resource}.${target.def.group}`} "${target.name}" is invalid: ${aggregateMessage(causes)}`,
    { name: target.name, group: target.def.group, kind: target.def.resource, causes },
  );
}

/**
 * The unsafe delete of spec doc 1 §3 (`ignoreStoreReadErrorWithClusterBreakingPotential=true`, gate
 * `AllowUnsafeMalformedObjectDeletion`): only for a stored value that cannot be decoded. A readable
 * object aborts with 422; otherwise a normal delete is tried first, and when it fails on the read
 * the key is removed from storage directly, ignoring finalizers and preconditions (the options
 * were validated to be unset). Resolves with `object` undefined when the raw removal ran (nothing
 * readable to return).
 */
export async function unsafeDeleteObject(
  state: ServerState,
  target: DeleteTarget,
  user: UserInfo,
): Promise<DeleteOutcome | { object: undefined; deleted: boolean }> {
  await authorizeUnsafeDelete(state, {
    user,
    group: target.def.group,
    resource: target.def.resource,
    namespace: target.namespace,
    name: target.name,
    verbs: ['delete', unsafeDeleteVerb],
  });
  const key = keyOf(state, target);
  const raw = await state.store.get(key);
  if (!raw.kv) throw errors.notFound({ group: target.def.group, resource: target.def.resource }, target.name);
  let readable = true;
  try {
    state.objects.decode(raw.kv);
  } catch (e) {
    if (!isUndecodableObjectError(e)) throw e;
    readable = false;
  }
  if (readable) throw readableObjectError(target);
  try {
    return await deleteObject(state, target, {});
  } catch (e) {
    if (!isUndecodableObjectError(e)) throw e;
  }
  state.log.info(`unsafe delete of the undecodable object stored at ${key}`);
  try {
    await state.store.delete(key);
    return { object: undefined, deleted: true };
  } catch (e) {
    if (isStoreError(e, 'NotFound')) return { object: undefined, deleted: false };
    throw e;
  }
}
