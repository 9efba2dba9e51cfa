import type { DeleteOptions, Status } from '@orchard/meta';
import { addAuditAnnotation } from '../audit/record.js';
import type { RequestContext } from '../context.js';
import { readDeleteOptions } from '../lifecycle/delete-options.js';
import { type DeleteOutcome, type DeleteTarget, deleteObject } from '../lifecycle/deletion.js';
import { unsafeDeleteObject } from '../lifecycle/unsafe-delete.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { writeObject } from '../response/write.js';

export { handleDeleteCollection } from './delete-collection.js';
export { readDeleteOptions };

/**
 * The answer to a delete, as upstream's handler gives it: an object removed now answers with a
 * success Status naming it (`details.kind` is the resource, as upstream) or, for the kinds that
 * return the deleted object (namespaces …), the object; an object that stays (finalizers, a
 * namespace being emptied) answers with its current state, 200, or 202 when the deprecated
 * `orphanDependents: false` asked for cascading deletion.
 */
export function writeDeleteOutcome(
  ctx: RequestContext,
  def: ResourceDefinition,
  name: string,
  outcome: DeleteOutcome,
  opts: DeleteOptions,
): void | Promise<void> {
  if (outcome.deleted && !def.returnDeletedObject) {
    // Upstream's finalizeDelete Status carries no `code`.
    const status: Omit<Status, 'code'> = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      // Go's omitempty drops an empty group (core types).
      details: {
        name,
        ...(def.group === '' ? {} : { group: def.group }),
        kind: def.resource,
        uid: outcome.object.metadata?.uid ?? '',
      },
    };
    return writeObject(ctx, 200, status);
  }
  const code = !outcome.deleted && opts.orphanDependents === false ? 202 : 200;
  return writeObject(ctx, code, outcome.object);
}

/** delete (spec doc 1 §4.2, §3): the deletion lifecycle with the options of §2.8. */
export async function handleDelete(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const opts = await readDeleteOptions(ctx);
  const name = ctx.info.name;
  const target: DeleteTarget = { def, namespace: def.namespaced ? ctx.info.namespace : '', name };
  if (opts.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    // As upstream: the audit event shows the delete was tried with the option on.
    addAuditAnnotation(ctx.req, `apiserver.${ctx.server.flavor.domain}/unsafe-delete-ignore-read-error`, '');
    const r = await unsafeDeleteObject(ctx.server, target, ctx.user);
    if (r.object === undefined) {
      // Nothing readable to return: upstream fills a Status naming the Kind.
      const status: Status = {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        code: 200,
        details: { name, kind: def.kind },
      };
      await writeObject(ctx, 200, status);
      return;
    }
    await writeDeleteOutcome(ctx, def, name, r as DeleteOutcome, opts);
    return;
  }
  await writeDeleteOutcome(ctx, def, name, await deleteObject(ctx.server, target, opts), opts);
}
