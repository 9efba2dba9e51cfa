import { ApiError, fieldErrors, isApiError, type StoredObject } from '@orchard/meta';
import { aggregateMessage } from '@orchard/meta/internal';
import { isStoreError } from '@orchard/store';
import type { RequestContext } from '../context.js';
import { ignoreStoreReadErrorField, readDeleteOptions } from '../lifecycle/delete-options.js';
import { deleteObject } from '../lifecycle/deletion.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { compileFilter } from '../request/selectors.js';
import { writeObject } from '../response/write.js';
import { keyParts } from './common.js';
import { readPage } from './list.js';

/** How many objects one deletecollection deletes at a time (upstream's `DeleteCollectionWorkers` is 1 by default; in-process deletes are cheap). */
export const deleteCollectionConcurrency = 8;

/**
 * deletecollection (spec doc 1 §4.2): lists what the label and field selectors match, then runs
 * the delete of each object with the same options (finalizers honoured per object: those stay
 * Terminating). Objects that vanish meanwhile are skipped. Answers with the list as it was read,
 * as upstream does. The unsafe-delete option is refused here (422), as upstream.
 */
export async function handleDeleteCollection(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const opts = await readDeleteOptions(ctx);
  if (opts.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    const group = ctx.server.flavor.group('meta');
    const causes = [
      fieldErrors.invalid(
        ignoreStoreReadErrorField,
        true,
        'is not allowed with DELETECOLLECTION, try again after removing the option',
      ),
    ];
    throw new ApiError(422, 'Invalid', `DeleteOptions.${group} "" is invalid: ${aggregateMessage(causes)}`, {
      group,
      kind: 'DeleteOptions',
      causes,
    });
  }
  const filter = compileFilter(def, ctx.query.labelSelector, ctx.query.fieldSelector);
  const page = await readPage(ctx, ctx.server.objects.prefix(keyParts(ctx, def)), filter, {});
  const items = page.items;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const o = items[next++] as StoredObject;
      try {
        await deleteObject(
          ctx.server,
          { def, namespace: o.metadata.namespace ?? '', name: o.metadata.name },
          { ...opts },
        );
      } catch (e) {
        if (isStoreError(e, 'NotFound') || (isApiError(e) && e.code === 404)) continue;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(deleteCollectionConcurrency, items.length) }, worker));
  const apiVersion = def.group === '' ? ctx.version : `${def.group}/${ctx.version}`;
  await writeObject(
    ctx,
    200,
    { kind: def.listKind, apiVersion, metadata: { resourceVersion: String(page.revision) }, items },
    'list',
  );
}
