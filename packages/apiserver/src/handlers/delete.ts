import { codecForContentType } from '@orchard/codecs';
import {
  type DeleteOptions,
  DeleteOptionsSchema,
  errors,
  type StoredObject,
  successStatus,
} from '@orchard/meta';
import type { RequestContext } from '../context.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { readBody } from '../request/body.js';
import { compileFilter } from '../request/selectors.js';
import { writeObject } from '../response/write.js';
import { errorTarget, keyParts, objectKey } from './common.js';
import { readPage } from './list.js';

/** DeleteOptions from the body (any codec) merged with the query parameters. */
export async function readDeleteOptions(ctx: RequestContext): Promise<DeleteOptions> {
  const bytes = await readBody(ctx.req, ctx.server.options.maxRequestBodyBytes);
  let opts: DeleteOptions = {};
  if (bytes.byteLength > 0) {
    const codec = codecForContentType(ctx.req.headers['content-type'], ctx.server.codecs);
    const value = codec.decode(bytes, { flavor: ctx.server.flavor });
    const parsed = DeleteOptionsSchema.safeParse(value);
    if (!parsed.success)
      throw errors.badRequest(`invalid DeleteOptions: ${parsed.error.issues[0]?.message ?? 'malformed'}`);
    opts = parsed.data;
  }
  const q = ctx.query;
  if (q.gracePeriodSeconds !== undefined) opts.gracePeriodSeconds = q.gracePeriodSeconds;
  if (q.propagationPolicy !== undefined)
    opts.propagationPolicy = q.propagationPolicy as DeleteOptions['propagationPolicy'];
  if (q.orphanDependents !== undefined) opts.orphanDependents = q.orphanDependents;
  if (q.dryRun) opts.dryRun = ['All'];
  for (const v of opts.dryRun ?? [])
    if (v !== 'All') throw errors.badRequest(`Invalid dryRun value: ${JSON.stringify(v)}`);
  return opts;
}

/** Deletes one object honouring preconditions and dry-run; returns the deleted object. */
export async function deleteObject(
  ctx: RequestContext,
  def: ResourceDefinition,
  name: string,
  opts: DeleteOptions,
): Promise<StoredObject> {
  const key = objectKey(ctx, def, name);
  const objects = ctx.server.objects;
  const target = errorTarget(def, name);
  const check = (cur: StoredObject) => {
    const p = opts.preconditions;
    if (p?.uid && p.uid !== cur.metadata.uid) {
      throw errors.conflict(
        target,
        name,
        `Precondition failed: UID in precondition: ${p.uid}, UID in object meta: ${cur.metadata.uid}`,
      );
    }
    if (p?.resourceVersion && p.resourceVersion !== cur.metadata.resourceVersion) {
      throw errors.conflict(
        target,
        name,
        `Precondition failed: ResourceVersion in precondition: ${p.resourceVersion}, ResourceVersion in object meta: ${cur.metadata.resourceVersion}`,
      );
    }
  };
  if (opts.dryRun?.includes('All')) {
    const { object } = await objects.get(key);
    if (!object) throw errors.notFound(target, name);
    check(object);
    return object;
  }
  const deleted = await objects.delete(key, check);
  if (def.group === '' && def.resource === 'namespaces') await deleteNamespaceContents(ctx, name);
  return deleted;
}

/**
 * Removes every namespaced object of a deleted namespace. Stands in for the namespace lifecycle
 * (Terminating phase, finalizers, the namespace controller) until that lands.
 */
async function deleteNamespaceContents(ctx: RequestContext, namespace: string): Promise<void> {
  const objects = ctx.server.objects;
  for (const def of ctx.server.registry.all()) {
    if (!def.namespaced || def.virtualCreate) continue;
    const prefix = objects.prefix({ group: def.group, resource: def.resource, namespace });
    const { items } = await objects.list(prefix);
    for (const o of items) {
      try {
        await objects.delete(
          objects.key({ group: def.group, resource: def.resource, namespace }, o.metadata.name),
        );
      } catch {
        // Already gone: someone else deleted it meanwhile.
      }
    }
  }
}

/** delete (spec doc 1 §4.8, part 3): answers with a success Status naming the object. */
export async function handleDelete(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const opts = await readDeleteOptions(ctx);
  const name = ctx.info.name;
  const deleted = await deleteObject(ctx, def, name, opts);
  if (def.group === '' && def.resource === 'namespaces') {
    writeObject(ctx, 200, deleted);
    return;
  }
  writeObject(
    ctx,
    200,
    successStatus({ name, group: def.group, kind: def.resource, uid: deleted.metadata.uid }),
  );
}

/** deletecollection: deletes every object the selectors match; answers with the list of deleted objects. */
export async function handleDeleteCollection(ctx: RequestContext, def: ResourceDefinition): Promise<void> {
  const opts = await readDeleteOptions(ctx);
  const filter = compileFilter(def, ctx.query.labelSelector, ctx.query.fieldSelector);
  const page = await readPage(ctx, ctx.server.objects.prefix(keyParts(ctx, def)), filter, {});
  const deleted: StoredObject[] = [];
  for (const o of page.items) {
    try {
      const sub = { ...ctx, info: { ...ctx.info, namespace: o.metadata.namespace ?? '' } };
      deleted.push(await deleteObject(sub, def, o.metadata.name, opts));
    } catch (e) {
      if ((e as { code?: unknown }).code === 'NotFound' || (e as { code?: unknown }).code === 404) continue;
      throw e;
    }
  }
  const apiVersion = def.group === '' ? ctx.version : `${def.group}/${ctx.version}`;
  writeObject(
    ctx,
    200,
    { kind: def.listKind, apiVersion, metadata: { resourceVersion: String(page.revision) }, items: deleted },
    'list',
  );
}
