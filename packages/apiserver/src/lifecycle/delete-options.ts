import { codecForContentType } from '@orchard/codecs';
import {
  ApiError,
  type DeleteOptions,
  DeleteOptionsSchema,
  errors,
  type FieldCause,
  type Flavor,
  fieldErrors,
} from '@orchard/meta';
import { aggregateMessage, getOwn, isJsonObject } from '@orchard/meta/internal';
import type { RequestContext } from '../context.js';
import { featureEnabled } from '../feature-gates.js';
import { readBody } from '../request/body.js';
import { queryDryRun } from '../request/query.js';

/** The three propagation policies of spec doc 1 §2.8, in upstream's order of its error message. */
export const propagationPolicies = ['Foreground', 'Background', 'Orphan'] as const;
/** `Foreground`, `Background` or `Orphan` (spec doc 1 §2.8). */
export type PropagationPolicy = (typeof propagationPolicies)[number];

/** The option of spec doc 1 §2.8 behind the `AllowUnsafeMalformedObjectDeletion` gate. */
export const ignoreStoreReadErrorField = 'ignoreStoreReadErrorWithClusterBreakingPotential';

function typeError(field: string, want: string, got: unknown): ApiError {
  return errors.badRequest(
    `json: cannot unmarshal ${Array.isArray(got) ? 'array' : typeof got} into Go struct field DeleteOptions.${field} of type ${want}`,
  );
}

// The Go type of each field in upstream's decode error, in the order its decoder reports them.
const goFieldTypes: readonly (readonly [string, string])[] = [
  ['dryRun', '[]string'],
  ['gracePeriodSeconds', 'int64'],
  ['orphanDependents', 'bool'],
  ['propagationPolicy', 'v1.DeletionPropagation'],
  ['preconditions', 'v1.Preconditions'],
  ['preconditions.uid', 'types.UID'],
  ['preconditions.resourceVersion', 'string'],
  [ignoreStoreReadErrorField, 'bool'],
];

// apiVersion and kind are TypeMeta: upstream's decoder checks kind alone (below) and ignores apiVersion.
const deleteOptionsBodySchema = DeleteOptionsSchema.omit({ apiVersion: true, kind: true });

/** The field an issue of `deleteOptionsBodySchema` names (`dryRun.0` → `dryRun`). */
function issueField(path: readonly PropertyKey[]): string {
  return path[0] === 'preconditions' && path.length > 1
    ? `preconditions.${String(path[1])}`
    : String(path[0]);
}

/**
 * Reads DeleteOptions from a decoded body as upstream's decoder does, checking it against meta's
 * `DeleteOptionsSchema`: unknown fields are ignored, a field of the wrong JSON type is a 400 in
 * upstream's words, `null` means unset. The enum and combination rules are checked separately
 * (`validateDeleteOptions`, 422).
 */
export function deleteOptionsFromBody(value: unknown): DeleteOptions {
  if (!isJsonObject(value)) throw errors.badRequest('the request body must be a DeleteOptions object');
  if (value.kind !== undefined && value.kind !== null && value.kind !== 'DeleteOptions') {
    throw errors.badRequest(
      `decoded object of kind ${JSON.stringify(value.kind)} cannot be converted to DeleteOptions`,
    );
  }
  const parsed = deleteOptionsBodySchema.safeParse(value);
  if (!parsed.success) {
    const fields = new Set(parsed.error.issues.map((issue) => issueField(issue.path)));
    const [field, want] = goFieldTypes.find(([f]) => fields.has(f)) ?? goFieldTypes[0]!;
    const got = field.startsWith('preconditions.')
      ? getOwn(value.preconditions as object, field.slice('preconditions.'.length))
      : getOwn(value, field);
    throw typeError(field, want, got);
  }
  const v = parsed.data;
  const out: DeleteOptions = {};
  if (v.dryRun !== undefined && v.dryRun !== null) out.dryRun = v.dryRun;
  if (v.gracePeriodSeconds !== undefined && v.gracePeriodSeconds !== null)
    out.gracePeriodSeconds = v.gracePeriodSeconds;
  if (v.orphanDependents !== undefined && v.orphanDependents !== null)
    out.orphanDependents = v.orphanDependents;
  // Checked against the three policies by validateDeleteOptions (422, as upstream).
  if (v.propagationPolicy !== undefined && v.propagationPolicy !== null)
    out.propagationPolicy = v.propagationPolicy;
  if (v.preconditions !== undefined && v.preconditions !== null) {
    const p: { uid?: string; resourceVersion?: string } = {};
    const { uid, resourceVersion } = v.preconditions;
    if (uid !== undefined && uid !== null) p.uid = uid;
    if (resourceVersion !== undefined && resourceVersion !== null) p.resourceVersion = resourceVersion;
    out.preconditions = p;
  }
  const ign = v.ignoreStoreReadErrorWithClusterBreakingPotential;
  if (ign !== undefined && ign !== null) out.ignoreStoreReadErrorWithClusterBreakingPotential = ign;
  return out;
}

/** DeleteOptions from query parameters (used only when the request has no body, as upstream). */
export function deleteOptionsFromQuery(ctx: RequestContext): DeleteOptions {
  const q = ctx.query;
  const out: DeleteOptions = {};
  if (q.gracePeriodSeconds !== undefined) out.gracePeriodSeconds = q.gracePeriodSeconds;
  if (q.propagationPolicy !== undefined) out.propagationPolicy = q.propagationPolicy as PropagationPolicy;
  if (q.orphanDependents !== undefined) out.orphanDependents = q.orphanDependents;
  const dry = queryDryRun(q.raw);
  if (dry.length > 0) out.dryRun = dry;
  const ign = q.raw.get(ignoreStoreReadErrorField);
  if (ign !== null) {
    if (ign === '' || ign === 'true' || ign === '1' || ign === 'True')
      out.ignoreStoreReadErrorWithClusterBreakingPotential = true;
    else if (ign === 'false' || ign === '0' || ign === 'False')
      out.ignoreStoreReadErrorWithClusterBreakingPotential = false;
    else
      throw errors.badRequest(
        `invalid boolean value for ${ignoreStoreReadErrorField}: ${JSON.stringify(ign)}`,
      );
  }
  return out;
}

/**
 * Upstream's `ValidateDeleteOptions`: `orphanDependents` and `propagationPolicy` are exclusive, the
 * policy is one of three, `dryRun` is `All` only, and the unsafe-delete option excludes every other
 * option (spec doc 1 §3, "Force-delete request rules"). Returns the causes (empty when valid).
 */
export function validateDeleteOptions(opts: DeleteOptions): FieldCause[] {
  const causes: FieldCause[] = [];
  if (
    opts.orphanDependents !== undefined &&
    opts.orphanDependents !== null &&
    opts.propagationPolicy !== undefined &&
    opts.propagationPolicy !== null
  ) {
    causes.push(
      fieldErrors.invalid(
        'propagationPolicy',
        opts.propagationPolicy,
        'orphanDependents and deletionPropagation cannot be both set',
      ),
    );
  }
  if (
    opts.propagationPolicy !== undefined &&
    opts.propagationPolicy !== null &&
    !(propagationPolicies as readonly string[]).includes(opts.propagationPolicy)
  ) {
    causes.push(
      fieldErrors.notSupported('propagationPolicy', opts.propagationPolicy, [...propagationPolicies, 'nil']),
    );
  }
  if (opts.dryRun?.some((d) => d !== 'All')) {
    causes.push(fieldErrors.notSupported('dryRun', opts.dryRun, ['All']));
  }
  if (opts.ignoreStoreReadErrorWithClusterBreakingPotential === true) {
    const f = ignoreStoreReadErrorField;
    if (opts.dryRun && opts.dryRun.length > 0)
      causes.push(fieldErrors.invalid(f, true, 'cannot be set together with .dryRun'));
    if (opts.propagationPolicy !== undefined && opts.propagationPolicy !== null)
      causes.push(fieldErrors.invalid(f, true, 'cannot be set together with .propagationPolicy'));
    if (opts.orphanDependents !== undefined && opts.orphanDependents !== null)
      causes.push(fieldErrors.invalid(f, true, 'cannot be set together with .orphanDependents'));
    if (opts.gracePeriodSeconds !== undefined && opts.gracePeriodSeconds !== null)
      causes.push(fieldErrors.invalid(f, true, 'cannot be set together with .gracePeriodSeconds'));
    if (opts.preconditions !== undefined && opts.preconditions !== null)
      causes.push(fieldErrors.invalid(f, true, 'cannot be set together with .preconditions'));
  }
  return causes;
}

/** Upstream's 422 for invalid DeleteOptions: `DeleteOptions.meta.k8s.io "" is invalid: …`. */
export function invalidDeleteOptions(flavor: Flavor, causes: FieldCause[]): ApiError {
  const group = flavor.group('meta');
  return new ApiError(422, 'Invalid', `DeleteOptions.${group} "" is invalid: ${aggregateMessage(causes)}`, {
    group,
    kind: 'DeleteOptions',
    causes,
  });
}

/**
 * DeleteOptions of a delete or deletecollection request (spec doc 1 §2.8): from the body when there
 * is one (any registered codec), otherwise from the query, as upstream reads them. Invalid
 * combinations answer 422. With the `AllowUnsafeMalformedObjectDeletion` gate off, the unsafe option
 * is dropped, as upstream drops disabled fields.
 */
export async function readDeleteOptions(ctx: RequestContext): Promise<DeleteOptions> {
  const bytes = await readBody(ctx.req, ctx.server.options.maxRequestBodyBytes, ctx.res);
  let opts: DeleteOptions;
  if (bytes.byteLength > 0) {
    const codec = codecForContentType(ctx.req.headers['content-type'], ctx.server.codecs);
    const value = codec.decode(bytes, { flavor: ctx.server.flavor });
    opts = deleteOptionsFromBody(value);
  } else {
    opts = deleteOptionsFromQuery(ctx);
  }
  if (!featureEnabled(ctx.server.options.featureGates, 'AllowUnsafeMalformedObjectDeletion')) {
    delete opts.ignoreStoreReadErrorWithClusterBreakingPotential;
  }
  const causes = validateDeleteOptions(opts);
  if (causes.length > 0) throw invalidDeleteOptions(ctx.server.flavor, causes);
  return opts;
}

export function isDryRun(opts: DeleteOptions): boolean {
  return (opts.dryRun?.length ?? 0) > 0;
}
