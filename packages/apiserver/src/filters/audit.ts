import type { ServerResponse } from 'node:http';
import type { ApiError } from '@orchard/meta';
import { formatAuditEvent } from '../audit/event.js';
import type { AuditLogWriter } from '../audit/log-writer.js';
import { type AuditPolicy, type AuditStage, evaluatePolicy } from '../audit/policy.js';
import { type AuditRecord, attachAuditRecord, auditRecordOf, nowMicros } from '../audit/record.js';
import { toApiError } from '../errors.js';
import { isClientGone } from '../request/body.js';
import type { Filter, FilterContext } from './filter.js';

/** The audit configuration of a server: the policy and where events go. */
export interface ServerAudit {
  readonly policy: AuditPolicy;
  readonly writer: AuditLogWriter;
  /** Where an event that cannot be encoded is reported. */
  readonly onError: (message: string, error?: unknown) => void;
}

/** Requests whose response is a stream the client holds open: their events get a ResponseStarted stage. */
const isLongRunning = (ctx: FilterContext) => ctx.info.verb === 'watch';

function emit(
  audit: ServerAudit,
  ctx: FilterContext,
  record: AuditRecord,
  stage: AuditStage,
  code: number,
): void {
  if (record.decision.omitStages.has(stage)) return;
  try {
    audit.writer.write(formatAuditEvent(ctx, record, stage, code));
  } catch (e) {
    audit.onError(`audit event ${record.auditID} (${stage}) could not be encoded`, e);
  }
}

/** Keeps the body a non-streaming response ends with (the buffer itself), for RequestResponse events. */
function captureResponseBody(res: ServerResponse, record: AuditRecord): void {
  const end = res.end;
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    const chunk = args[0];
    if (typeof chunk === 'string' || chunk instanceof Uint8Array) record.responseBody = chunk;
    return (end as (...a: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['end'];
}

/** Writes the ResponseStarted event when a long-running response sends its headers. */
function onHeaders(res: ServerResponse, started: () => void): void {
  const writeHead = res.writeHead;
  let done = false;
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const r = (writeHead as (...a: unknown[]) => ServerResponse).apply(this, args);
    if (!done) {
      done = true;
      started();
    }
    return r;
  } as ServerResponse['writeHead'];
}

/** The policy attributes of a request as the filter context has it. */
function attributesOf(ctx: FilterContext) {
  const { info } = ctx;
  return {
    user: ctx.user,
    verb: info.verb,
    isResourceRequest: info.isResourceRequest,
    path: info.path,
    apiGroup: info.apiGroup,
    namespace: info.namespace,
    resource: info.resource,
    subresource: info.subresource,
    name: info.name,
  };
}

/**
 * A request refused by authentication (401) never reaches the audit filter: as upstream's
 * failed-authentication audit, it is recorded with no user, by the policy's rule for it, as one
 * ResponseStarted event carrying the 401 Status. Called by the server when it answers a 401.
 */
export function auditFailedAuthentication(
  audit: ServerAudit | undefined,
  ctx: FilterContext,
  error: ApiError,
): void {
  if (!audit || error.code !== 401 || auditRecordOf(ctx.req)) return;
  const decision = evaluatePolicy(audit.policy, attributesOf(ctx));
  if (decision.level === 'None') return;
  const record: AuditRecord = {
    auditID: ctx.auditID,
    decision,
    user: undefined,
    receivedAt: nowMicros(),
    annotations: {},
    error,
  };
  emit(audit, ctx, record, 'ResponseStarted', 401);
}

/**
 * Audit (`--audit-policy-file`, `--audit-log-path`): the first matching policy rule gives the level
 * of the request (its authenticated user, before impersonation, as upstream); at `None` nothing is
 * recorded. Otherwise events are written at RequestReceived, ResponseStarted (long-running requests,
 * when the headers go out), and ResponseComplete, or Panic when serving failed unexpectedly. Runs
 * right after authentication, before impersonation, request limits and authorization, so refused
 * requests are audited, with the authorizer's decision among the annotations. Without a policy the
 * filter does nothing.
 */
export function auditFilter(audit: ServerAudit | undefined): Filter {
  if (!audit) return (_ctx, next) => next();
  return async (ctx, next) => {
    const { info } = ctx;
    const decision = evaluatePolicy(audit.policy, attributesOf(ctx));
    if (decision.level === 'None') return next();
    const record: AuditRecord = {
      auditID: ctx.auditID,
      decision,
      user: ctx.user,
      receivedAt: nowMicros(),
      annotations: {},
    };
    attachAuditRecord(ctx.req, record);
    const { res } = ctx;
    emit(audit, ctx, record, 'RequestReceived', 0);
    const longRunning = isLongRunning(ctx);
    if (longRunning) onHeaders(res, () => emit(audit, ctx, record, 'ResponseStarted', res.statusCode));
    else if (decision.level === 'RequestResponse') captureResponseBody(res, record);
    try {
      await next();
    } catch (e) {
      if (isClientGone(e)) {
        emit(audit, ctx, record, 'ResponseComplete', res.statusCode);
        throw e;
      }
      let unexpected = false;
      const target = ctx.def
        ? { group: ctx.def.group, resource: ctx.def.resource, name: info.name }
        : undefined;
      record.error = toApiError(e, target, () => {
        unexpected = true;
      });
      if (unexpected) emit(audit, ctx, record, 'Panic', 500);
      else emit(audit, ctx, record, 'ResponseComplete', res.headersSent ? res.statusCode : record.error.code);
      throw e;
    }
    emit(audit, ctx, record, 'ResponseComplete', res.statusCode);
  };
}
