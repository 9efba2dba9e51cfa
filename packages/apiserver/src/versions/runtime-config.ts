/**
 * `--runtime-config` (spec doc 1 §9.2): comma-separated `<key>[=<bool>]`, a missing value meaning
 * true. Keys: `api/all`, `api/ga`, `api/beta`, `api/alpha`, `<group>/<version>`,
 * `<group>/<version>/<resource>`; the core group is `api/v1` (upstream's spelling).
 */

/** One `key=value` of the flag, in the order given. */
export interface RuntimeConfigEntry {
  readonly key: string;
  readonly enabled: boolean;
}

/** The parsed flag. Later entries for the same key win. */
export type RuntimeConfig = readonly RuntimeConfigEntry[];

/** The keys that switch every version of a stability level (`api/all`: every level). */
export const levelKeys = Object.freeze(['api/all', 'api/ga', 'api/beta', 'api/alpha'] as const);

/** A malformed `--runtime-config` value or a key this server does not serve. */
export class RuntimeConfigError extends Error {
  readonly orchardRuntimeConfigError = true as const;
  constructor(message: string) {
    super(message);
    this.name = 'RuntimeConfigError';
  }
}

/** A `<group>/<version>[/<resource>]` key; `api/v1` is the core group (`group` ''). */
export interface RuntimeConfigTarget {
  readonly group: string;
  readonly version: string;
  readonly resource?: string;
}

/** The group version (and resource) a key names, or undefined for the `api/<level>` keys. */
export function targetOfKey(key: string): RuntimeConfigTarget | undefined {
  if ((levelKeys as readonly string[]).includes(key)) return undefined;
  const parts = key.split('/');
  const [g = '', v = '', r] = parts;
  const group = g === 'api' && v === 'v1' ? '' : g;
  return r === undefined ? { group, version: v } : { group, version: v, resource: r };
}

const goTrue = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const goFalse = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/**
 * Parses the flag. Each key must be a level key or have two or three non-empty `/` segments; a
 * value must be a Go boolean (`strconv.ParseBool`). Throws `RuntimeConfigError` naming the item.
 */
export function parseRuntimeConfig(text: string): RuntimeConfig {
  const out: RuntimeConfigEntry[] = [];
  for (const raw of text.split(',')) {
    const item = raw.trim();
    if (item === '') continue;
    const eq = item.indexOf('=');
    const key = (eq < 0 ? item : item.slice(0, eq)).trim();
    const value = eq < 0 ? '' : item.slice(eq + 1).trim();
    let enabled = true;
    if (value !== '') {
      if (goTrue.has(value)) enabled = true;
      else if (goFalse.has(value)) enabled = false;
      else
        throw new RuntimeConfigError(
          `invalid value of ${key}: ${value}, err: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`,
        );
    }
    if (key === 'api/legacy')
      throw new RuntimeConfigError('invalid key api/legacy: use api/v1 for the core group');
    if (!(levelKeys as readonly string[]).includes(key)) {
      const parts = key.split('/');
      if (
        parts.length < 2 ||
        parts.length > 3 ||
        parts.some((p) => p === '') ||
        (parts[0] === 'api' && parts[1] !== 'v1')
      )
        throw new RuntimeConfigError(
          `invalid key ${JSON.stringify(key)}: must be api/all, api/ga, api/beta, api/alpha, <group>/<version> or <group>/<version>/<resource>`,
        );
    }
    out.push({ key, enabled });
  }
  return out;
}

/** The last value given for `key`, or undefined. */
export function runtimeConfigValue(config: RuntimeConfig, key: string): boolean | undefined {
  let v: boolean | undefined;
  for (const e of config) if (e.key === key) v = e.enabled;
  return v;
}
