import { errors } from '@orchard/meta';

/** The query parameters of spec doc 1 §4.4 (+ selectors), parsed and checked once per request. */
export interface RequestQuery {
  readonly watch: boolean;
  readonly resourceVersion: string | undefined;
  readonly resourceVersionMatch: 'Exact' | 'NotOlderThan' | undefined;
  readonly allowWatchBookmarks: boolean;
  readonly sendInitialEvents: boolean | undefined;
  readonly timeoutSeconds: number | undefined;
  readonly limit: number | undefined;
  readonly continue: string | undefined;
  readonly labelSelector: string | undefined;
  readonly fieldSelector: string | undefined;
  /** `dryRun=All` (the only value upstream accepts). */
  readonly dryRun: boolean;
  readonly fieldManager: string | undefined;
  readonly fieldValidation: 'Ignore' | 'Warn' | 'Strict' | undefined;
  readonly force: boolean | undefined;
  readonly pretty: boolean;
  /** DeleteOptions passed as query parameters. */
  readonly gracePeriodSeconds: number | undefined;
  readonly propagationPolicy: string | undefined;
  readonly orphanDependents: boolean | undefined;
  readonly raw: URLSearchParams;
}

/**
 * A boolean query value: `true`/`false` in any case, `1`/`0`, and no value (`?watch`) for true, as
 * upstream's parameter codec reads them; undefined for anything else (upstream would read that as
 * true; here it is a 400). The one reading shared by the query parser and the request-info resolver.
 */
export function parseQueryBool(v: string): boolean | undefined {
  const lower = v.toLowerCase();
  if (lower === '' || lower === '1' || lower === 'true') return true;
  if (lower === '0' || lower === 'false') return false;
  return undefined;
}

function bool(q: URLSearchParams, name: string): boolean | undefined {
  const v = q.get(name);
  if (v === null) return undefined;
  const b = parseQueryBool(v);
  if (b === undefined) throw errors.badRequest(`invalid boolean value for ${name}: ${JSON.stringify(v)}`);
  return b;
}

const int64Max = 2n ** 63n - 1n;

function int(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  if (!/^-?\d+$/.test(v)) throw errors.badRequest(`invalid integer value for ${name}: ${JSON.stringify(v)}`);
  // Every integer option is an int64 upstream; beyond it Go's parser refuses the request.
  const big = BigInt(v);
  if (big > int64Max || big < -int64Max - 1n)
    throw errors.badRequest(`strconv.ParseInt: parsing ${JSON.stringify(v)}: value out of range`);
  return Number(big);
}

function opt(q: URLSearchParams, name: string): string | undefined {
  const v = q.get(name);
  return v === null || v === '' ? undefined : v;
}

/** The `dryRun` values of a query without the empty ones: no value means no dry run. */
export function queryDryRun(q: URLSearchParams): string[] {
  return q.getAll('dryRun').filter((v) => v !== '');
}

/** Parses the query; malformed values are a 400 BadRequest, as upstream's parameter codec does. */
export function parseRequestQuery(q: URLSearchParams): RequestQuery {
  const rvm = opt(q, 'resourceVersionMatch');
  if (rvm !== undefined && rvm !== 'Exact' && rvm !== 'NotOlderThan') {
    throw errors.badRequest(
      `resourceVersionMatch: Unsupported value: "${rvm}": supported values: "Exact", "NotOlderThan"`,
    );
  }
  // A `dryRun` with no value (`?dryRun`, `?dryRun=`) is a normal request (spec doc 1 §4.4, §4.10).
  const dryRunValues = queryDryRun(q);
  for (const v of dryRunValues) {
    if (v !== 'All')
      throw errors.badRequest(`Invalid dryRun value: ${JSON.stringify(v)}: supported values: "All"`);
  }
  const fv = opt(q, 'fieldValidation');
  if (fv !== undefined && fv !== 'Ignore' && fv !== 'Warn' && fv !== 'Strict') {
    throw errors.badRequest(
      `fieldValidation: Unsupported value: "${fv}": supported values: "Ignore", "Warn", "Strict"`,
    );
  }
  const limit = int(q, 'limit');
  if (limit !== undefined && limit < 0) throw errors.badRequest('limit: Invalid value: must be non-negative');
  const timeoutSeconds = int(q, 'timeoutSeconds');
  if (timeoutSeconds !== undefined && timeoutSeconds < 0)
    throw errors.badRequest('timeoutSeconds: Invalid value: must be non-negative');
  const fieldManager = opt(q, 'fieldManager');
  if (fieldManager !== undefined && fieldManager.length > 128) {
    throw errors.badRequest('fieldManager: Too long: may not be longer than 128');
  }
  return {
    watch: bool(q, 'watch') ?? false,
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: rvm as RequestQuery['resourceVersionMatch'],
    allowWatchBookmarks: bool(q, 'allowWatchBookmarks') ?? false,
    sendInitialEvents: bool(q, 'sendInitialEvents'),
    timeoutSeconds,
    limit,
    continue: opt(q, 'continue'),
    labelSelector: opt(q, 'labelSelector'),
    fieldSelector: opt(q, 'fieldSelector'),
    dryRun: dryRunValues.length > 0,
    fieldManager,
    fieldValidation: fv as RequestQuery['fieldValidation'],
    force: bool(q, 'force'),
    pretty: bool(q, 'pretty') ?? false,
    gracePeriodSeconds: int(q, 'gracePeriodSeconds'),
    propagationPolicy: opt(q, 'propagationPolicy'),
    orphanDependents: bool(q, 'orphanDependents'),
    raw: q,
  };
}
