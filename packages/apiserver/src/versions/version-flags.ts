/**
 * The API version flags of `orchard-apiserver`: `--runtime-config` and `--emulated-release`,
 * parsed and checked against the built-in resources before anything starts (a bad key or
 * release is a message naming the flag).
 */
import type { Flavor } from '@orchard/meta';
import { builtinResources } from '../registry/builtin/index.js';
import { validateEmulatedRelease } from './release.js';
import { parseRuntimeConfig, type RuntimeConfig } from './runtime-config.js';
import { servedResources } from './served.js';

/** The `parseArgs` options of these flags. */
export const versionFlagOptions = {
  'runtime-config': { type: 'string' },
  'emulated-release': { type: 'string' },
} as const;

/** Server options from the flags (only those given). */
export interface VersionFlags {
  readonly runtimeConfig?: RuntimeConfig;
  readonly emulatedRelease?: string;
}

/** Parses the flags in `values`; throws an Error whose message names the bad flag and key. */
export function parseVersionFlags(values: Record<string, unknown>, flavor: Flavor): VersionFlags {
  const release = typeof values['emulated-release'] === 'string' ? values['emulated-release'] : undefined;
  const text = typeof values['runtime-config'] === 'string' ? values['runtime-config'] : undefined;
  let parsedRelease: ReturnType<typeof validateEmulatedRelease> | undefined;
  try {
    parsedRelease = release === undefined ? undefined : validateEmulatedRelease(release);
  } catch (e) {
    throw new Error(`invalid --emulated-release ${release}: ${(e as Error).message}`);
  }
  let runtimeConfig: RuntimeConfig | undefined;
  try {
    runtimeConfig = text === undefined ? undefined : parseRuntimeConfig(text);
    if (runtimeConfig)
      servedResources(builtinResources(flavor), [], {
        runtimeConfig,
        release: parsedRelease ?? validateEmulatedRelease('1.32'),
        flavor,
      });
  } catch (e) {
    throw new Error(`invalid --runtime-config: ${(e as Error).message}`);
  }
  return {
    ...(runtimeConfig ? { runtimeConfig } : {}),
    ...(release !== undefined && parsedRelease
      ? { emulatedRelease: `${parsedRelease.major}.${parsedRelease.minor}` }
      : {}),
  };
}
