/**
 * Deprecated command-line flags (spec doc 1 §9.3 rules 5–8): a deprecated flag keeps working for
 * its deprecation window, is left out of `--help` (as pflag's `MarkDeprecated` does), and says so at
 * start in pflag's words (`Flag --x has been deprecated, <message>`), unless
 * `--warn-deprecated-flags=false` silences it (rule 6). A flag replaced by another is read as that
 * flag; both given with different values is refused, so the deprecated spelling never silently
 * changes what the server does.
 */
import type { CliFlagValues } from './flags.js';

/** One deprecated flag. */
export interface DeprecatedFlag {
  /** The release it was deprecated in (upstream's). */
  readonly since: string;
  /** pflag's deprecation message, printed after `Flag --<name> has been deprecated, `. */
  readonly message: string;
  /** The flag it is an alias of (its value is read as that flag's); absent: no effect here. */
  readonly replacement?: string;
  /** Checks the value; returns what is wrong with it, or undefined. */
  readonly check?: (value: string) => string | undefined;
}

/** Normalizes a comma-separated list for comparison (order and blanks do not matter). */
const listKey = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .sort()
    .join(',');

/** The deprecated flags `orchard-apiserver` accepts, as upstream kube-apiserver 1.32 does. */
export const deprecatedFlags: Readonly<Record<string, DeprecatedFlag>> = Object.freeze({
  /** Upstream's old name of `--api-audiences` (deprecated in 1.13). */
  'service-account-api-audiences': {
    since: '1.13',
    message: 'Use --api-audiences',
    replacement: 'api-audiences',
  },
  /** Upstream's count of servers for the master-count endpoint reconciler; no effect here. */
  'apiserver-count': {
    since: '1.20',
    message: 'apiserver-count is deprecated and will be removed in a future version.',
    check: (v) =>
      /^\d+$/.test(v) && Number(v) > 0
        ? undefined
        : `--apiserver-count should be a positive number, but value '${v}' provided`,
  },
});

/** The `node:util` parse options of the deprecated flags and of `--warn-deprecated-flags`. */
export const deprecatedFlagOptions = {
  'service-account-api-audiences': { type: 'string' },
  'apiserver-count': { type: 'string' },
  'warn-deprecated-flags': { type: 'string', default: 'true' },
} as const;

/**
 * Reads the deprecated flags of `values`: returns the warnings to print and the values with each
 * alias moved to its replacement. Throws naming the flag when a value is bad or when an alias and
 * its replacement disagree.
 */
export function resolveDeprecatedFlags(values: CliFlagValues): {
  values: CliFlagValues;
  warnings: string[];
} {
  const out: CliFlagValues = { ...values };
  const warnings: string[] = [];
  const warnSetting = String(values['warn-deprecated-flags'] ?? 'true');
  const warn = ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(warnSetting);
  if (!warn && !['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(warnSetting))
    throw new Error(
      `invalid argument "${warnSetting}" for "--warn-deprecated-flags" flag: strconv.ParseBool: parsing "${warnSetting}": invalid syntax`,
    );
  for (const [name, spec] of Object.entries(deprecatedFlags)) {
    const v = values[name];
    if (typeof v !== 'string') continue;
    if (warn) warnings.push(`Flag --${name} has been deprecated, ${spec.message}`);
    const problem = spec.check?.(v);
    if (problem) throw new Error(problem);
    if (spec.replacement === undefined) {
      delete out[name];
      continue;
    }
    const current = values[spec.replacement];
    if (typeof current === 'string' && listKey(current) !== listKey(v))
      throw new Error(
        `--${name} (deprecated) and --${spec.replacement} are both given with different values (${JSON.stringify(v)}, ${JSON.stringify(current)}); give only --${spec.replacement}`,
      );
    out[spec.replacement] = v;
    delete out[name];
  }
  delete out['warn-deprecated-flags'];
  return { values: out, warnings };
}
