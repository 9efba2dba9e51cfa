/**
 * Requests to deprecated versions (spec doc 1 §6 item 2, §9.3): the `Warning` header in upstream's
 * words, the audit annotations `<domain>/deprecated` and `<domain>/removed-release`, and the gauge
 * `apiserver_requested_deprecated_apis`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { formatApiVersion } from '@orchard/meta';
import { addAuditAnnotation } from '../audit/record.js';
import type { ResourceDefinition } from '../registry/resource.js';
import { formatWarning } from '../response/write.js';
import type { ServerState } from '../state.js';
import { compareReleases, formatRelease, parseRelease, type Release } from './release.js';
import { removedReleaseOf } from './served.js';

/** What a request to a deprecated version gets. */
export interface Deprecation {
  /** The warning text (without the `299 -` framing). */
  readonly warning: string;
  /** The release that no longer serves the version (`1.26`), or '' when none is planned. */
  readonly removedRelease: string;
}

/**
 * The deprecation of `version` of `def` at `release`, or undefined when the version is not
 * deprecated by then. The text is upstream's: `autoscaling/v2beta2 HorizontalPodAutoscaler is
 * deprecated in v1.23+, unavailable in v1.26+; use autoscaling/v2 HorizontalPodAutoscaler`.
 */
export function deprecationOf(
  def: ResourceDefinition,
  version: string,
  release: Release,
): Deprecation | undefined {
  const l = def.lifecycle?.[version];
  const deprecated = l?.deprecated === undefined ? undefined : parseRelease(l.deprecated);
  if (!l || !deprecated || compareReleases(release, deprecated) < 0) return undefined;
  const removed = removedReleaseOf(l, version);
  let warning = `${formatApiVersion({ group: def.group, version })} ${def.kind} is deprecated in v${formatRelease(deprecated)}+`;
  if (removed) warning += `, unavailable in v${formatRelease(removed)}+`;
  if (l.replacement)
    warning += `; use ${formatApiVersion({ group: l.replacement.group, version: l.replacement.version })} ${l.replacement.kind}`;
  return { warning, removedRelease: removed ? formatRelease(removed) : '' };
}

const cache = new WeakMap<ResourceDefinition, Map<string, Deprecation | null>>();

/**
 * Marks a request to `def` at `version` when that version is deprecated at the server's emulated
 * release: adds the warning to `warnings`, the audit annotations to the request's audit event, and
 * sets the gauge. Costs one map lookup for a resource without release history.
 */
export function noteDeprecatedRequest(
  server: ServerState,
  req: IncomingMessage,
  res: ServerResponse,
  def: ResourceDefinition,
  version: string,
  subresource: string,
  warnings: string[],
): void {
  if (def.lifecycle === undefined) return;
  let byVersion = cache.get(def);
  if (!byVersion) {
    byVersion = new Map();
    cache.set(def, byVersion);
  }
  // Built-in definitions are shared by every server of the process; each may emulate another release.
  const key = `${server.options.emulatedRelease}/${version}`;
  let dep = byVersion.get(key);
  if (dep === undefined) {
    const release = parseRelease(server.options.emulatedRelease);
    dep = (release && deprecationOf(def, version, release)) ?? null;
    byVersion.set(key, dep);
  }
  if (dep === null) return;
  warnings.push(dep.warning);
  // Also on the response itself, so an error Status and a watch stream carry it (a handler's own
  // write sends every warning of `warnings`, this one included).
  if (!res.headersSent) res.setHeader('Warning', formatWarning(dep.warning));
  const domain = server.flavor.domain;
  addAuditAnnotation(req, `${domain}/deprecated`, 'true');
  if (dep.removedRelease !== '') addAuditAnnotation(req, `${domain}/removed-release`, dep.removedRelease);
  server.metrics?.requestedDeprecatedApis.set(
    { group: def.group, version, resource: def.resource, subresource, removed_release: dep.removedRelease },
    1,
  );
}
