/**
 * Server feature gates (spec doc 1 §2.8, §4.3, §9): every feature that sits behind a gate upstream
 * sits behind the same name here, with the same default as release 1.32. Add a gate by adding a row
 * to `knownFeatureGates`; `FeatureGateName` then includes it and `--feature-gates` accepts it.
 */

export type FeatureStage = 'alpha' | 'beta' | 'ga' | 'deprecated';

/** One gate: its stage and its default, as upstream's 1.32 table lists it. */
export interface FeatureGateSpec {
  /** Whether the feature is on when the operator says nothing (upstream's default). */
  readonly default: boolean;
  readonly stage: FeatureStage;
  /**
   * The gate cannot be set away from its default (upstream `LockToDefault`: GA gates during their
   * deprecation window, spec doc 1 §9.3 rule 10 "disabling a non-operational gate fails").
   */
  readonly lockToDefault?: boolean;
}

/** Every gate the server knows, with upstream 1.32 defaults. */
export const knownFeatureGates = Object.freeze({
  /** Delete options `ignoreStoreReadErrorWithClusterBreakingPotential` (spec doc 1 §2.8, §3). Alpha in 1.32. */
  AllowUnsafeMalformedObjectDeletion: { default: false, stage: 'alpha' },
  /** CBOR as a wire encoding (spec doc 1 §1 item 4). Alpha in 1.32. */
  CBORServingAndStorage: { default: false, stage: 'alpha' },
  /** gzip response compression (spec doc 1 §4.3). Beta, on by default. */
  APIResponseCompression: { default: true, stage: 'beta' },
  /** `--authentication-config` (structured JWT authenticators, doc 2 §2.5). Beta in 1.32, on by default. */
  StructuredAuthenticationConfiguration: { default: true, stage: 'beta' },
  /** The `anonymous` section of the authentication configuration file. Beta in 1.32, on by default. */
  AnonymousAuthConfigurableEndpoints: { default: true, stage: 'beta' },
  /** Label and field selectors passed to authorizers. Beta in 1.32, on by default. */
  AuthorizeWithSelectors: { default: true, stage: 'beta' },
  /**
   * The Node authorizer's selector rules: a node reads only its own Node object and lists or watches
   * pods only with a `spec.nodeName=<itself>` field selector (doc 2 §5.3). Beta in 1.32, on by default.
   */
  AuthorizeNodeWithSelectors: { default: true, stage: 'beta' },
  /**
   * Watch `sendInitialEvents` (streaming lists, spec doc 1 §4.4, §4.6). Beta in 1.32, on by default.
   * Off, upstream answers a watch carrying `sendInitialEvents` with 422 Invalid (`sendInitialEvents is
   * forbidden for watch unless the WatchList feature gate is enabled`).
   */
  WatchList: { default: true, stage: 'beta' },
  /** SelfSubjectReview (`kubectl auth whoami`, doc 2 §2). GA since 1.28: locked on. */
  APISelfSubjectReview: { default: true, stage: 'ga', lockToDefault: true },
  /** The node agent's checkpoint endpoint (doc 2). Beta in 1.32, on by default. */
  ContainerCheckpoint: { default: true, stage: 'beta' },
  /** Resizing a pod's resources in place. Alpha in 1.32, off by default. */
  InPlacePodVerticalScaling: { default: false, stage: 'alpha' },
} satisfies Record<string, FeatureGateSpec>);

/** The name of a gate the server knows (upstream's 1.32 names). */
export type FeatureGateName = keyof typeof knownFeatureGates;

/** The resolved state of every gate. */
export type FeatureGates = Readonly<Record<FeatureGateName, boolean>>;

/** Overrides of some gates (what `--feature-gates` sets). */
export type FeatureGateOverrides = Partial<Record<FeatureGateName, boolean>>;

/** Every known gate at upstream's 1.32 default (what `--feature-gates` overrides). */
export const defaultFeatureGates: FeatureGates = Object.freeze(
  Object.fromEntries(Object.entries(knownFeatureGates).map(([k, v]) => [k, v.default])) as Record<
    FeatureGateName,
    boolean
  >,
);

/** A malformed `--feature-gates` value or an unknown gate name. */
export class FeatureGateError extends Error {
  readonly orchardFeatureGateError = true as const;
  constructor(message: string) {
    super(message);
    this.name = 'FeatureGateError';
  }
}

export function isFeatureGateName(name: string): name is FeatureGateName {
  return Object.hasOwn(knownFeatureGates, name);
}

/**
 * Parses `Name=true,Other=false` as upstream's `--feature-gates` flag does: unknown names and
 * non-boolean values are rejected with upstream's messages.
 */
export function parseFeatureGates(text: string): FeatureGateOverrides {
  const out: FeatureGateOverrides = {};
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const name = (eq < 0 ? item : item.slice(0, eq)).trim();
    if (eq < 0) throw new FeatureGateError(`missing bool value for ${name}`);
    const value = item.slice(eq + 1).trim();
    if (!isFeatureGateName(name)) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
    const b = parseGoBool(value);
    if (b === undefined) {
      throw new FeatureGateError(
        `invalid value of ${name}=${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`,
      );
    }
    out[name] = b;
  }
  resolveFeatureGates(out);
  return out;
}

function parseGoBool(v: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(v)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(v)) return false;
  return undefined;
}

/**
 * The defaults with `overrides` applied. Unknown names (from untyped callers) are rejected, and so
 * is setting a locked gate away from its default, in upstream's words (spec doc 1 §9.3 rule 10).
 */
export function resolveFeatureGates(overrides: FeatureGateOverrides = {}): FeatureGates {
  for (const [k, v] of Object.entries(overrides)) {
    if (!isFeatureGateName(k)) throw new FeatureGateError(`unrecognized feature gate: ${k}`);
    const spec: FeatureGateSpec = knownFeatureGates[k];
    if (spec.lockToDefault && v !== spec.default)
      throw new FeatureGateError(
        `cannot set feature gate ${k} to ${String(v)}, feature is locked to ${String(spec.default)}`,
      );
  }
  return Object.freeze({ ...defaultFeatureGates, ...overrides });
}

/**
 * The start-up warnings of `overrides` (spec doc 1 §9.3 rules 6, 10), in upstream's words: setting
 * a GA or deprecated gate works (or is a no-op when locked) but says it will go.
 */
export function featureGateWarnings(
  overrides: FeatureGateOverrides,
  table: Readonly<Record<string, FeatureGateSpec>> = knownFeatureGates,
): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(overrides)) {
    const spec = table[k];
    if (spec?.stage === 'ga')
      out.push(`Setting GA feature gate ${k}=${String(v)}. It will be removed in a future release.`);
    else if (spec?.stage === 'deprecated')
      out.push(`Setting deprecated feature gate ${k}=${String(v)}. It will be removed in a future release.`);
  }
  return out;
}

/** Whether a gate is on for a server configured with `overrides`. */
export function featureEnabled(overrides: FeatureGateOverrides | undefined, name: FeatureGateName): boolean {
  return overrides?.[name] ?? defaultFeatureGates[name];
}

/**
 * The gates as `--help` lists them, one a line and sorted, in upstream's `KnownFeatures` form
 * (`Name=true|false (BETA - default=true)`); GA and deprecated gates are listed too, so the help
 * documents what warns (spec doc 1 §9.3 rule 10).
 */
export function featureGatesHelp(
  table: Readonly<Record<string, FeatureGateSpec>> = knownFeatureGates,
): string[] {
  return Object.entries(table)
    .map(([name, spec]) => {
      const stage = spec.stage.toUpperCase();
      const locked = spec.lockToDefault ? ', locked' : '';
      return `${name}=true|false (${stage} - default=${String(spec.default)}${locked})`;
    })
    .sort();
}
