import { invalidConfiguration } from './errors.js';
import type { AnonymousOptions } from './union.js';

/** The `anonymous` section of an AuthenticationConfiguration (doc 2 §2.5). */
export interface AnonymousConfigSection {
  readonly enabled: boolean;
  readonly conditions?: readonly { readonly path: string }[];
}

/**
 * Resolves anonymous access from `--anonymous-auth` (undefined when not given on the command line)
 * and the configuration file's section; giving both is a start-up error, as upstream.
 */
export function resolveAnonymousOptions(
  flag: boolean | undefined,
  section: AnonymousConfigSection | undefined,
): AnonymousOptions {
  if (flag !== undefined && section !== undefined) {
    throw invalidConfiguration(
      'anonymous: --anonymous-auth flag cannot be set when anonymous field is configured in the authentication configuration file',
    );
  }
  if (section !== undefined) {
    if (!section.enabled && (section.conditions?.length ?? 0) > 0) {
      throw invalidConfiguration(
        'anonymous.conditions: Invalid value: conditions are only allowed when anonymous.enabled is true',
      );
    }
    const paths = (section.conditions ?? []).map((c) => c.path);
    const seen = new Set<string>();
    for (const [i, p] of paths.entries()) {
      if (p === '') throw invalidConfiguration(`anonymous.conditions[${i}].path: Required value`);
      if (seen.has(p)) throw invalidConfiguration(`anonymous.conditions[${i}].path: Duplicate value: "${p}"`);
      seen.add(p);
    }
    return { enabled: section.enabled, paths };
  }
  return { enabled: flag ?? true };
}
