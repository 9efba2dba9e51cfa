/**
 * The audit record of one request in flight: what the audit filter decided and what later steps
 * add to it (annotations from authorization and the unsafe-delete path, the request body as the
 * handler read it). Keyed by the Node request, so any step holding the request can reach it without
 * the record being threaded through every signature (upstream keeps it in the request context).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ApiError, UserInfo } from '@orchard/meta';
import type { AuditDecision } from './policy.js';

/** One audited request; mutated by the steps that serve it. */
export interface AuditRecord {
  readonly auditID: string;
  readonly decision: AuditDecision;
  /** The authenticated user (before impersonation). */
  readonly user: UserInfo | undefined;
  /** Epoch microseconds the request was received at. */
  readonly receivedAt: number;
  readonly annotations: Record<string, string>;
  /** The body the handler read (the same bytes, not a copy), kept only at Request level and above. */
  requestBody?: Uint8Array;
  /** The response body as written (RequestResponse level, non-long-running requests). */
  responseBody?: Uint8Array | string;
  /** The error the request ended with, when it failed. */
  error?: ApiError;
}

const records = new WeakMap<IncomingMessage, AuditRecord>();

/** Attaches `record` to `req` (the audit filter does). */
export function attachAuditRecord(req: IncomingMessage, record: AuditRecord): void {
  records.set(req, record);
}

/** The record of `req`, when the request is audited. */
export function auditRecordOf(req: IncomingMessage): AuditRecord | undefined {
  return records.get(req);
}

/**
 * Adds an annotation to the audit event of `req` (upstream's `audit.AddAuditAnnotation`); nothing
 * when the request is not audited. A key already set keeps its first value, as upstream.
 */
export function addAuditAnnotation(req: IncomingMessage, key: string, value: string): void {
  const r = records.get(req);
  if (r && !Object.hasOwn(r.annotations, key)) r.annotations[key] = value;
}

/** Keeps the request body the handler read when the level records it (no copy is made). */
export function noteRequestBody(req: IncomingMessage, body: Uint8Array): void {
  const r = records.get(req);
  if (r && (r.decision.level === 'Request' || r.decision.level === 'RequestResponse')) r.requestBody = body;
}

/** Epoch microseconds now. */
export function nowMicros(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** Upstream's MicroTime form: `2026-11-26T07:01:02.345678Z`. */
export function formatMicroTime(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 19)}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

/**
 * The audit ID of a request (upstream's `WithAuditInit`): the client's `Audit-ID` header when it is
 * a sane token (at most 128 visible characters), else a new UUID.
 */
export function auditIdOf(req: IncomingMessage): string {
  const h = req.headers['audit-id'];
  return typeof h === 'string' && h.length > 0 && h.length <= 128 && /^[\x21-\x7e]+$/.test(h)
    ? h
    : randomUUID();
}
