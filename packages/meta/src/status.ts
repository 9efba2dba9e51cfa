/**
 * `Status` and `ApiError`: the one error vocabulary of the API. Packages throw their own errors;
 * the server maps each to an `ApiError`, and every error response body is `apiError.toStatus()`.
 */

import { z } from 'zod';
import { hasBrand } from './brand.js';

/** The machine-readable reason of a Status (spec doc 1 §2.5). */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'StorageReadError'
  | '';

/** The reason of a Status cause (upstream's constants; others allowed). */
export type CauseType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'UnexpectedServerResponse'
  | 'FieldManagerConflict'
  | 'ResourceVersionTooLarge'
  | 'InternalError'
  | (string & {});

/** One cause of a Status: a field and what is wrong with it. */
export interface StatusCause {
  reason?: CauseType;
  message?: string;
  field?: string;
}

/** What a Status is about (name, group, kind, uid) and its causes. */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/** The body of every error response and of some successes (spec doc 1 §2.5). */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { resourceVersion?: string; continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/**
 * A `Status` body as a client receives it (spec doc 1 §2.5): what `@orchard/client` checks an error
 * response against before trusting it. Loose (unknown fields kept) and open on `reason` and cause
 * types, so a newer server's values still decode; a wrong type is an issue naming the field path.
 */
export const StatusSchema = z.looseObject({
  kind: z.literal('Status'),
  apiVersion: z.string().optional(),
  metadata: z
    .looseObject({ resourceVersion: z.string().optional(), continue: z.string().optional() })
    .optional(),
  status: z.string().optional(),
  message: z.string().optional(),
  reason: z.string().optional(),
  details: z
    .looseObject({
      name: z.string().optional(),
      group: z.string().optional(),
      kind: z.string().optional(),
      uid: z.string().optional(),
      causes: z
        .array(
          z.looseObject({
            reason: z.string().optional(),
            message: z.string().optional(),
            field: z.string().optional(),
          }),
        )
        .optional(),
      retryAfterSeconds: z.number().int().optional(),
    })
    .optional(),
  code: z.number().int().optional(),
});

/** An error a client caused (or a server fault), carrying everything its `Status` body needs. */
export class ApiError extends Error {
  /** Brand for `isApiError`: works across duplicated copies of this package. */
  readonly orchardApiError = true as const;
  readonly code: number;
  readonly reason: StatusReason;
  readonly details: StatusDetails | undefined;
  /** Extra response headers (e.g. `Retry-After`). */
  readonly headers: Record<string, string>;

  constructor(
    code: number,
    reason: StatusReason,
    message: string,
    details?: StatusDetails,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.reason = reason;
    this.details = details;
    this.headers = headers;
  }

  toStatus(): Status {
    const s: Status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      reason: this.reason,
      code: this.code,
    };
    // Upstream sends `details` whenever the error carries it, even as `{}` (kubectl debug reads it
    // unguarded), and omits its empty fields (Go's omitempty).
    if (this.details) s.details = withoutEmptyFields(this.details);
    return s;
  }
}

function withoutEmptyFields(details: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  for (const [k, v] of Object.entries(details) as [keyof StatusDetails, unknown][]) {
    if (v === undefined || v === '' || v === 0 || (Array.isArray(v) && v.length === 0)) continue;
    (out as Record<string, unknown>)[k] = v;
  }
  return out;
}

/** Whether `e` is an `ApiError` (from any copy of this package), and when reasons are given, one with one of them. */
export function isApiError(e: unknown, ...reasons: StatusReason[]): e is ApiError {
  if (!hasBrand(e, 'orchardApiError')) return false;
  return reasons.length === 0 || reasons.includes((e as ApiError).reason);
}

/** The qualified resource of an error message: `configmaps`, `deployments.apps`. */
export interface QualifiedResource {
  group: string;
  resource: string;
}

function qr(r: QualifiedResource): string {
  return r.group === '' ? r.resource : `${r.resource}.${r.group}`;
}

/** Factories with upstream's messages, so clients print what users expect. */
export const errors = {
  badRequest: (message: string, causes?: StatusCause[]) =>
    new ApiError(400, 'BadRequest', message, causes ? { causes } : undefined),
  unauthorized: (message = 'Unauthorized') => new ApiError(401, 'Unauthorized', message),
  forbidden: (r: QualifiedResource, name: string, message: string) =>
    new ApiError(
      403,
      'Forbidden',
      name ? `${qr(r)} "${name}" is forbidden: ${message}` : `${qr(r)} is forbidden: ${message}`,
      { name: name || undefined, group: r.group, kind: r.resource },
    ),
  notFound: (r: QualifiedResource, name: string) =>
    new ApiError(404, 'NotFound', `${qr(r)} "${name}" not found`, {
      name,
      group: r.group,
      kind: r.resource,
    }),
  /** A path the server does not serve at all. */
  pathNotFound: () => new ApiError(404, 'NotFound', 'the server could not find the requested resource', {}),
  alreadyExists: (r: QualifiedResource, name: string) =>
    new ApiError(409, 'AlreadyExists', `${qr(r)} "${name}" already exists`, {
      name,
      group: r.group,
      kind: r.resource,
    }),
  /** An optimistic-concurrency or precondition failure. */
  conflict: (r: QualifiedResource, name: string, why: string) =>
    new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qr(r)} "${name}": ${why}`, {
      name,
      group: r.group,
      kind: r.resource,
    }),
  /** 422 with one cause per invalid field; `kind` is the Kind (kubectl prints `The <Kind> "<name>" is invalid`). */
  invalid: (group: string, kind: string, name: string, causes: StatusCause[]) => {
    const list = causes.map((c) => `${c.field ? `${c.field}: ` : ''}${c.message ?? ''}`).join(', ');
    const message =
      causes.length === 1
        ? `${kind} "${name}" is invalid: ${list}`
        : `${kind} "${name}" is invalid: [${list}]`;
    return new ApiError(422, 'Invalid', message, { name, group, kind, causes });
  },
  gone: (message: string) => new ApiError(410, 'Gone', message),
  expired: (message: string) => new ApiError(410, 'Expired', message),
  methodNotAllowed: (message: string) => new ApiError(405, 'MethodNotAllowed', message),
  notAcceptable: (accepted: string[]) =>
    new ApiError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`),
  // Upstream's message does not repeat the Content-Type (negotiation.errUnsupportedMediaType).
  unsupportedMediaType: (_contentType: string, accepted: string[]) =>
    new ApiError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    ),
  requestEntityTooLarge: (limit: number) =>
    new ApiError(413, 'RequestEntityTooLarge', `the request body is larger than the limit of ${limit} bytes`),
  tooLargeResourceVersion: (requested: string, current: string, retryAfterSeconds = 1) =>
    new ApiError(
      504,
      'Timeout',
      `Too large resource version: ${requested}, current: ${current}`,
      {
        causes: [
          {
            reason: 'ResourceVersionTooLarge',
            message: `Too large resource version: ${requested}, current: ${current}`,
          },
        ],
        retryAfterSeconds,
      },
      { 'Retry-After': String(retryAfterSeconds) },
    ),
  internal: (message: string) =>
    new ApiError(500, 'InternalError', `Internal error occurred: ${message}`, {
      causes: [{ message }],
    }),
  serviceUnavailable: (message: string) => new ApiError(503, 'ServiceUnavailable', message),
} as const;

/** A success Status (e.g. the answer to deleting an object of some kinds). */
export function successStatus(details?: StatusDetails): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 200 };
  if (details) s.details = details;
  return s;
}
