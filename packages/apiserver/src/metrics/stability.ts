/**
 * Metric stability (spec doc 1 §9.3 rules 11a–11b and the "Metrics" paragraph): every metric is
 * registered with a stability level and, once deprecated, the release it was deprecated in. A
 * deprecated metric keeps its series, its help text gains upstream's `(Deprecated since x.y.z)`
 * prefix and a warning is logged when it is registered; once its deprecation window has passed it
 * is hidden (created, so code may still update it, but not registered), unless the operator asks for
 * hidden metrics back with `--show-hidden-metrics-for-version` (the previous minor release only, as
 * upstream).
 */

/** Upstream's stability levels (`INTERNAL` is alpha's alias for metrics no one should depend on). */
export type StabilityLevel = 'INTERNAL' | 'ALPHA' | 'BETA' | 'STABLE';

/** What a metric declares about itself besides its series. */
export interface MetricStability {
  readonly stabilityLevel: StabilityLevel;
  /** The release (`1.29` or `1.29.0`) the metric was deprecated in; absent while current. */
  readonly deprecatedVersion?: string;
}

/** What the server knows when it registers its metrics. Not mutated. */
export interface MetricStabilityOptions {
  /** The release the server reports (`1.32`). */
  readonly currentVersion: string;
  /** `--show-hidden-metrics-for-version`: the previous minor release, or undefined. */
  readonly showHiddenMetricsForVersion?: string;
  /** Where registration warnings go. */
  readonly warn: (message: string) => void;
}

/** How a metric is exposed: `shown` (current), `deprecated` (shown with the prefix) or `hidden`. */
export type MetricVisibility = 'shown' | 'deprecated' | 'hidden';

/**
 * Releases a deprecated metric stays visible (rule 11b: STABLE 3 releases, BETA 1; ALPHA and INTERNAL
 * may go at once, but, as upstream, they too stay for the release they are deprecated in).
 */
export const deprecationWindows: Readonly<Record<StabilityLevel, number>> = Object.freeze({
  INTERNAL: 1,
  ALPHA: 1,
  BETA: 1,
  STABLE: 3,
});

/** A `major.minor[.patch]` release as numbers; throws on anything else. */
export function parseRelease(version: string): { major: number; minor: number; patch: number } {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(version.trim());
  if (!m) throw new Error(`"${version}" is not a release of the form <major>.<minor>[.<patch>]`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) };
}

/**
 * Checks a `--show-hidden-metrics-for-version` value against the current release: only the previous
 * minor release is accepted (upstream's rule), e.g. `1.31` on 1.32. Returns the message of a bad
 * value, or undefined.
 */
export function validateShowHiddenVersion(value: string, currentVersion: string): string | undefined {
  let v: ReturnType<typeof parseRelease>;
  try {
    v = parseRelease(value);
  } catch (e) {
    return (e as Error).message;
  }
  const cur = parseRelease(currentVersion);
  if (v.major !== cur.major || v.minor !== cur.minor - 1)
    return `must be omitted or have the value '${cur.major}.${cur.minor - 1}'; only the previous minor version is meaningful, other values are not allowed`;
  return undefined;
}

/** Whether a metric of `stability` is shown, shown deprecated or hidden in `options.currentVersion`. */
export function metricVisibility(
  stability: MetricStability,
  options: MetricStabilityOptions,
): MetricVisibility {
  if (stability.deprecatedVersion === undefined) return 'shown';
  const dep = parseRelease(stability.deprecatedVersion);
  const cur = parseRelease(options.currentVersion);
  const age = (cur.major - dep.major) * 1000 + (cur.minor - dep.minor);
  if (age < deprecationWindows[stability.stabilityLevel]) return 'deprecated';
  return options.showHiddenMetricsForVersion === undefined ? 'hidden' : 'deprecated';
}

/** The full release of a deprecation (`1.29` → `1.29.0`), as upstream prints it. */
function fullRelease(version: string): string {
  const r = parseRelease(version);
  return `${r.major}.${r.minor}.${r.patch}`;
}

/**
 * The help text a metric is exposed with: upstream's `[LEVEL] ` prefix, then `(Deprecated since
 * x.y.z) ` for a deprecated one.
 */
export function stabilityHelp(help: string, stability: MetricStability): string {
  const deprecated =
    stability.deprecatedVersion === undefined
      ? ''
      : `(Deprecated since ${fullRelease(stability.deprecatedVersion)}) `;
  return `[${stability.stabilityLevel}] ${deprecated}${help}`;
}

/**
 * Decides how one metric named `name` is registered, warning as upstream does: a deprecated metric
 * at registration, a hidden one brought back by `--show-hidden-metrics-for-version`. Returns whether
 * to register it and the help text to register it with.
 */
export function resolveMetricStability(
  name: string,
  help: string,
  stability: MetricStability,
  options: MetricStabilityOptions,
): { register: boolean; help: string } {
  const visibility = metricVisibility(stability, options);
  if (visibility === 'shown') return { register: true, help: stabilityHelp(help, stability) };
  if (visibility === 'hidden') return { register: false, help: stabilityHelp(help, stability) };
  const hiddenShown =
    metricVisibility(stability, { ...options, showHiddenMetricsForVersion: undefined }) === 'hidden';
  options.warn(
    hiddenShown
      ? `metric ${name} is hidden since its deprecation window passed; shown because of --show-hidden-metrics-for-version=${options.showHiddenMetricsForVersion}`
      : `metric ${name} is deprecated since ${fullRelease(stability.deprecatedVersion as string)}`,
  );
  return { register: true, help: stabilityHelp(help, stability) };
}
