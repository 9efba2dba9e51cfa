/**
 * The `audit.<domain>/v1` Event of one stage of a request, in upstream's field order. Bodies are
 * decoded only here, when the event is written: the request body is the buffer the handler read
 * (never copied), parsed as JSON data (a `__proto__` key stays an ordinary key) and written back;
 * a body that is not JSON, or too deep to re-encode, is left out.
 */
import type { FilterContext } from '../filters/filter.js';
import type { AuditStage } from './policy.js';
import { type AuditRecord, formatMicroTime, nowMicros } from './record.js';

const decoder = new TextDecoder();

function userOf(u: FilterContext['user']): Record<string, unknown> {
  if (!u) return {};
  return {
    username: u.username,
    ...(u.uid ? { uid: u.uid } : {}),
    ...(u.groups && u.groups.length > 0 ? { groups: [...u.groups] } : {}),
    ...(u.extra && Object.keys(u.extra).length > 0 ? { extra: u.extra } : {}),
  };
}

/** Upstream's `SourceIPs`: the `X-Forwarded-For` chain, `X-Real-Ip`, then the peer address, each once. */
export function sourceIPs(req: FilterContext['req']): string[] {
  const out: string[] = [];
  const add = (ip: string | undefined) => {
    const v = ip?.trim();
    if (v && !out.includes(v) && out.length < 32) out.push(v);
  };
  const xff = req.headers['x-forwarded-for'];
  for (const part of (Array.isArray(xff) ? xff.join(',') : (xff ?? '')).split(',')) add(part);
  const real = req.headers['x-real-ip'];
  add(Array.isArray(real) ? real[0] : real);
  add(req.socket.remoteAddress?.replace(/^::ffff:/, ''));
  return out;
}

function stripManagedFields(v: unknown): void {
  if (typeof v !== 'object' || v === null) return;
  const o = v as Record<string, unknown>;
  const meta = o.metadata;
  if (typeof meta === 'object' && meta !== null && Object.hasOwn(meta, 'managedFields'))
    delete (meta as Record<string, unknown>).managedFields;
  if (Array.isArray(o.items)) for (const item of o.items) stripManagedFields(item);
}

/** The body as JSON data, or undefined (not JSON). */
function decodeBody(body: Uint8Array | string, omitManagedFields: boolean): unknown {
  try {
    const value: unknown = JSON.parse(typeof body === 'string' ? body : decoder.decode(body));
    if (omitManagedFields) stripManagedFields(value);
    return value;
  } catch {
    return undefined;
  }
}

function objectRef(ctx: FilterContext): Record<string, string> | undefined {
  const { info } = ctx;
  if (!info.isResourceRequest) return undefined;
  const ref: Record<string, string> = {};
  if (info.resource) ref.resource = info.resource;
  if (info.namespace) ref.namespace = info.namespace;
  if (info.name) ref.name = info.name;
  if (info.apiGroup) ref.apiGroup = info.apiGroup;
  if (info.apiVersion) ref.apiVersion = info.apiVersion;
  if (info.subresource) ref.subresource = info.subresource;
  return ref;
}

function responseStatus(record: AuditRecord, code: number, panic: boolean): Record<string, unknown> {
  const e = record.error;
  if (panic)
    return {
      metadata: {},
      status: 'Failure',
      message: `APIServer panic'd: ${e?.message ?? ''}`,
      reason: 'InternalError',
      code: 500,
    };
  if (!e || e.code !== code) return { metadata: {}, code };
  return {
    metadata: {},
    status: 'Failure',
    message: e.message,
    reason: e.reason,
    ...(e.details ? { details: e.details } : {}),
    code: e.code,
  };
}

/**
 * One event as a JSON text (no newline). `code` is the response status for the stages after the
 * request was received. Throws only if encoding fails (the caller drops the event).
 */
export function formatAuditEvent(
  ctx: FilterContext,
  record: AuditRecord,
  stage: AuditStage,
  code: number,
): string {
  const { level, omitManagedFields } = record.decision;
  const impersonated = ctx.user !== record.user && ctx.user !== undefined;
  const withBodies = level === 'Request' || level === 'RequestResponse';
  const requestObject =
    withBodies && record.requestBody ? decodeBody(record.requestBody, omitManagedFields) : undefined;
  let responseObject: unknown;
  if (level === 'RequestResponse' && stage === 'ResponseComplete') {
    if (record.responseBody !== undefined)
      responseObject = decodeBody(record.responseBody, omitManagedFields);
    else if (record.error && record.error.code === code) responseObject = record.error.toStatus();
  }
  const ua = ctx.req.headers['user-agent'];
  const ref = objectRef(ctx);
  const event = {
    kind: 'Event',
    apiVersion: `audit.${ctx.server.flavor.domain}/v1`,
    level,
    auditID: record.auditID,
    stage,
    requestURI: ctx.req.url ?? '/',
    verb: ctx.info.verb,
    user: userOf(record.user),
    ...(impersonated ? { impersonatedUser: userOf(ctx.user) } : {}),
    sourceIPs: sourceIPs(ctx.req),
    ...(ua ? { userAgent: ua } : {}),
    ...(ref ? { objectRef: ref } : {}),
    ...(stage !== 'RequestReceived'
      ? { responseStatus: responseStatus(record, code, stage === 'Panic') }
      : {}),
    ...(requestObject !== undefined ? { requestObject } : {}),
    ...(responseObject !== undefined ? { responseObject } : {}),
    requestReceivedTimestamp: formatMicroTime(record.receivedAt),
    stageTimestamp: formatMicroTime(nowMicros()),
    ...(Object.keys(record.annotations).length > 0 ? { annotations: { ...record.annotations } } : {}),
  };
  return JSON.stringify(event);
}
