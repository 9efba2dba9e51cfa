import { codecForContentType } from '@orchard/codecs';
import { type ApiObject, errors, type StoredObject } from '@orchard/meta';
import type { RequestContext } from '../context.js';
import type { ErrorTarget } from '../errors.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { readBody } from '../request/body.js';
import { decodeWithFieldValidation } from '../schema/field-validation.js';
import type { ObjectKeyParts } from '../storage/object-store.js';

export function keyParts(ctx: RequestContext, def: ResourceDefinition): ObjectKeyParts {
  return { group: def.group, resource: def.resource, namespace: def.namespaced ? ctx.info.namespace : '' };
}

export function objectKey(ctx: RequestContext, def: ResourceDefinition, name: string): string {
  return ctx.server.objects.key(keyParts(ctx, def), name);
}

export function errorTarget(def: ResourceDefinition, name: string): ErrorTarget {
  return { group: def.group, resource: def.resource, name };
}

/** Reads and decodes the request body with the codec of its Content-Type (413, 415, 400 on failure). */
export async function decodeBody(ctx: RequestContext): Promise<{ value: unknown; bytes: Uint8Array }> {
  const codec = codecForContentType(ctx.req.headers['content-type'], ctx.server.codecs);
  const bytes = await readBody(ctx.req, ctx.server.options.maxRequestBodyBytes, ctx.res);
  if (bytes.byteLength === 0) throw errors.badRequest('the request body is empty');
  return { value: decodeWithFieldValidation(ctx, codec, bytes), bytes };
}

/**
 * The field manager of a write: `fieldManager`, else derived from User-Agent as upstream does
 * (the part before the first `/`, at most 128 characters).
 */
export function fieldManagerOf(ctx: RequestContext): string {
  if (ctx.query.fieldManager) return ctx.query.fieldManager;
  const ua = ctx.req.headers['user-agent'] ?? 'unknown';
  return (ua.split('/')[0] ?? 'unknown').slice(0, 128);
}

/** Parses a resourceVersion the client sent; only the store's numbers are valid. */
export function parseResourceVersion(rv: string, what = 'resourceVersion'): number {
  if (!/^\d+$/.test(rv)) throw errors.badRequest(`invalid ${what}: ${JSON.stringify(rv)}`);
  return Number(rv);
}

/** The object as served: stored objects already carry kind/apiVersion; make sure. */
export function served(obj: StoredObject | ApiObject): ApiObject {
  return obj;
}
