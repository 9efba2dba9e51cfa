import { type FieldCause, type Flavor, fieldErrors, orchFlavor } from '@orchard/meta';
import { aggregateMessage, configSchemaCauses, fromBase64, hasBrand } from '@orchard/meta/internal';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { type KeyedProvider, providerKeySizes } from './providers.js';

/** A configuration file larger than this is refused before parsing. */
export const maxEncryptionConfigBytes = 1 << 20;
/** The API versions of EncryptionConfiguration (group `apiserver.config.<flavor domain>`). */
export const encryptionConfigVersions = ['v1'] as const;

/** One key of a keyed provider: its name (in every value it encrypts) and its secret bytes. */
export interface EncryptionKey {
  readonly name: string;
  readonly secret: Uint8Array;
}

/** One provider of a `resources[]` entry, validated. */
export type EncryptionProvider =
  | { readonly type: KeyedProvider; readonly keys: readonly EncryptionKey[] }
  | { readonly type: 'identity' };

/** One `resources[]` entry: which resources (`secrets`, `*.apps`, `*.*`…) and the providers, first writes. */
export interface EncryptionResourceRule {
  readonly resources: readonly string[];
  readonly providers: readonly EncryptionProvider[];
}

/** A validated EncryptionConfiguration (upstream `apiserver.config.k8s.io/v1`). */
export interface EncryptionConfiguration {
  readonly apiVersion: string;
  readonly resources: readonly EncryptionResourceRule[];
}

/** Why an encryption configuration was refused; the message names the file and the field. */
export class EncryptionConfigError extends Error {
  readonly orchardEncryptionConfigError = true as const;
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionConfigError';
  }
}

/** Whether `e` is an `EncryptionConfigError`; works across copies of this package. */
export function isEncryptionConfigError(e: unknown): e is EncryptionConfigError {
  return hasBrand(e, 'orchardEncryptionConfigError');
}

/** Options of `parseEncryptionConfiguration`. */
export interface ParseEncryptionConfigurationOptions {
  /** The file name errors start with. Default `encryption provider configuration`. */
  readonly file?: string;
  /** Which `apiserver.config.<domain>` group the file must use. Default the orch flavor. */
  readonly flavor?: Flavor;
}

// Strict objects (an unknown field is an error, as upstream's strict decoding); everything optional
// here so the validation pass names what is missing with upstream's words.
const keys = z.strictObject({
  keys: z.array(z.strictObject({ name: z.string().nullish(), secret: z.string().nullish() })).nullish(),
});
const providerSchema = z.strictObject({
  aesgcm: keys.nullish(),
  aescbc: keys.nullish(),
  secretbox: keys.nullish(),
  identity: z.strictObject({}).nullish(),
  kms: z.record(z.string(), z.unknown()).nullish(),
});
const fileSchema = z.strictObject({
  apiVersion: z.string(),
  kind: z.literal('EncryptionConfiguration'),
  resources: z
    .array(
      z.strictObject({
        resources: z.array(z.string()).nullish(),
        providers: z.array(providerSchema).nullish(),
      }),
    )
    .nullish(),
});
type ProviderShape = z.infer<typeof providerSchema>;

const providerNames = ['kms', 'aesgcm', 'aescbc', 'secretbox', 'identity'] as const;

// Never echo a secret back: the value of a `secret` field is redacted, as upstream does.
const redactSecrets = (field: string, value: unknown): unknown =>
  field.endsWith('.secret') ? 'REDACTED' : value;

/** Upstream's `schema.ParseGroupResource`: `secrets` → core, `deployments.apps`, `*.` (all of core), `*.*`. */
export function parseGroupResource(s: string): { group: string; resource: string } {
  const dot = s.indexOf('.');
  return dot < 0 ? { group: '', resource: s } : { group: s.slice(dot + 1), resource: s.slice(0, dot) };
}

const nonRestResources = new Set(['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations']);

function resourceNameCauses(resources: readonly string[], at: string, flavor: Flavor): FieldCause[] {
  const out: FieldCause[] = [];
  resources.forEach((res, j) => {
    const f = `${at}[${j}]`;
    const gr = parseGroupResource(res);
    if (res.toLowerCase() !== res)
      out.push(fieldErrors.invalid(f, res, 'resource name should not contain capital letters'));
    else if (res === '*')
      out.push(
        fieldErrors.invalid(
          f,
          res,
          "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources",
        ),
      );
    else if (nonRestResources.has(res))
      out.push(fieldErrors.invalid(f, res, 'resources which do not have REST API/s cannot be encrypted'));
    else if (gr.group === `events.${flavor.domain}`)
      out.push(
        fieldErrors.invalid(
          f,
          res,
          `'*.events.${flavor.domain}' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file`,
        ),
      );
    else if (gr.group === 'extensions')
      out.push(
        fieldErrors.invalid(f, res, "'extensions' group has been removed and cannot be used for encryption"),
      );
    else if (gr.group === '*' && gr.resource !== '*')
      out.push(fieldErrors.invalid(f, res, 'encrypting the same resource across groups is not supported'));
  });
  return out;
}

function overlapCauses(resources: readonly string[], at: string): FieldCause[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  let duplicate = false;
  let overlap = false;
  for (let i = 0; i < grs.length; i++) {
    for (let j = 0; j < grs.length; j++) {
      const a = grs[i] as { group: string; resource: string };
      const b = grs[j] as { group: string; resource: string };
      if (i === j) continue;
      if (a.group === b.group && a.resource === b.resource) duplicate = true;
      else if (
        (a.group === '*' && a.resource === '*') ||
        (a.group === b.group && (a.resource === '*' || b.resource === '*'))
      )
        overlap = true;
    }
  }
  const out: FieldCause[] = [];
  if (duplicate)
    out.push(fieldErrors.invalid(at, resources, 'the same resource cannot be specified multiple times'));
  if (overlap)
    out.push(
      fieldErrors.invalid(
        at,
        resources,
        "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked",
      ),
    );
  return out;
}

function keyCauses(
  raw: { name?: string | null; secret?: string | null }[] | null | undefined,
  at: string,
  sizes: readonly number[],
): { causes: FieldCause[]; keys: EncryptionKey[] } {
  const causes: FieldCause[] = [];
  const out: EncryptionKey[] = [];
  if (!raw || raw.length === 0)
    return { causes: [fieldErrors.required(at, 'at least one keys is required')], keys: out };
  const seen = new Set<string>();
  raw.forEach((k, i) => {
    const f = `${at}[${i}]`;
    const name = k.name ?? '';
    const secret = k.secret ?? '';
    if (name === '') causes.push(fieldErrors.required(`${f}.name`, 'name is a mandatory field for a key'));
    // A ':' would end the key's prefix early, so a value could match another key's name.
    else if (name.includes(':')) causes.push(fieldErrors.invalid(`${f}.name`, name, "must not contain ':'"));
    else if (seen.has(name)) causes.push(fieldErrors.duplicate(`${f}.name`, name));
    seen.add(name);
    if (secret === '') {
      causes.push(fieldErrors.required(`${f}.secret`, 'secret is a mandatory field for a key'));
      return;
    }
    const bytes =
      /^[A-Za-z0-9+/]*={0,2}$/.test(secret) && secret.length % 4 === 0 ? fromBase64(secret) : undefined;
    if (!bytes) {
      causes.push(fieldErrors.invalid(`${f}.secret`, 'REDACTED', 'secrets must be base64 encoded'));
      return;
    }
    if (!sizes.includes(bytes.byteLength)) {
      causes.push(
        fieldErrors.invalid(
          `${f}.secret`,
          'REDACTED',
          `secret is not of the expected length, got ${bytes.byteLength}, expected one of [${sizes.join(' ')}]`,
        ),
      );
      return;
    }
    out.push({ name, secret: bytes });
  });
  return { causes, keys: out };
}

function providerOf(p: ProviderShape, at: string): { causes: FieldCause[]; provider?: EncryptionProvider } {
  const present = providerNames.filter((n) => p[n] !== undefined && p[n] !== null);
  if (present.length === 0)
    return {
      causes: [
        fieldErrors.invalid(
          at,
          p,
          'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
        ),
      ],
    };
  if (present.length > 1)
    return {
      causes: [
        fieldErrors.invalid(
          at,
          p,
          'more than one provider specified in a single element, should split into different list elements',
        ),
      ],
    };
  const type = present[0] as (typeof providerNames)[number];
  if (type === 'identity') return { causes: [], provider: { type } };
  if (type === 'kms')
    return {
      causes: [
        fieldErrors.forbidden(
          `${at}.kms`,
          'KMS providers are not supported by this server (it has no KMS plugin client); use aesgcm, aescbc or secretbox',
        ),
      ],
    };
  const k = keyCauses(p[type]?.keys, `${at}.${type}.keys`, providerKeySizes[type]);
  return k.causes.length > 0 ? { causes: k.causes } : { causes: [], provider: { type, keys: k.keys } };
}

/**
 * Parses and validates an EncryptionConfiguration (YAML or JSON) with upstream's rules and
 * messages: `apiVersion` `apiserver.config.<flavor domain>/v1`, `kind: EncryptionConfiguration`,
 * at least one `resources[]` entry each with resources and providers, one provider per element,
 * base64 secrets of 16/24/32 bytes (aesgcm, aescbc) or 32 (secretbox), resource names as upstream
 * validates them. `kms` is refused (no KMS plugin client here). Throws `EncryptionConfigError`
 * whose message starts with the file and names every bad field; secrets are never echoed.
 */
export function parseEncryptionConfiguration(
  text: string,
  options: ParseEncryptionConfigurationOptions = {},
): EncryptionConfiguration {
  const file = options.file ?? 'encryption provider configuration';
  const flavor = options.flavor ?? orchFlavor;
  const fail = (causes: readonly FieldCause[]) =>
    new EncryptionConfigError(`${file}: ${aggregateMessage(causes)}`);
  if (text.length > maxEncryptionConfigBytes)
    throw new EncryptionConfigError(`${file}: larger than ${maxEncryptionConfigBytes} bytes`);
  if (text.trim() === '') throw new EncryptionConfigError(`${file}: the file is empty`);
  let raw: unknown;
  try {
    const doc = parseDocument(text, { uniqueKeys: true });
    if (doc.errors.length > 0) {
      const e = doc.errors[0] as (typeof doc.errors)[number];
      const line = e.linePos?.[0];
      throw new EncryptionConfigError(
        `${file}${line ? `:${line.line}:${line.col}` : ''}: not valid YAML or JSON: ${e.message.split('\n')[0]}`,
      );
    }
    raw = doc.toJS({ maxAliasCount: 100 });
  } catch (e) {
    if (isEncryptionConfigError(e)) throw e;
    throw new EncryptionConfigError(`${file}: not valid YAML or JSON: ${(e as Error).message}`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new EncryptionConfigError(`${file}: not an EncryptionConfiguration object`);
  let parsed: z.infer<typeof fileSchema>;
  try {
    const r = fileSchema.safeParse(raw, { reportInput: true });
    if (!r.success) throw fail(configSchemaCauses(r.error, 'EncryptionConfiguration', redactSecrets));
    parsed = r.data;
  } catch (e) {
    if (e instanceof RangeError) throw new EncryptionConfigError(`${file}: nested too deeply`);
    throw e;
  }
  const supported = encryptionConfigVersions.map((v) => `apiserver.config.${flavor.domain}/${v}`);
  if (!supported.includes(parsed.apiVersion))
    throw fail([fieldErrors.notSupported('apiVersion', parsed.apiVersion, supported)]);
  const entries = parsed.resources ?? [];
  if (entries.length === 0)
    throw fail([fieldErrors.required('resources', 'at least one resources is required')]);
  const causes: FieldCause[] = [];
  const rules: EncryptionResourceRule[] = [];
  entries.forEach((entry, i) => {
    const r = `resources[${i}].resources`;
    const p = `resources[${i}].providers`;
    const resources = entry.resources ?? [];
    if (resources.length === 0) causes.push(fieldErrors.required(r, `at least one ${r} is required`));
    causes.push(...overlapCauses(resources, r), ...resourceNameCauses(resources, r, flavor));
    const providers: EncryptionProvider[] = [];
    if ((entry.providers ?? []).length === 0)
      causes.push(fieldErrors.required(p, `at least one ${p} is required`));
    (entry.providers ?? []).forEach((pr, j) => {
      const one = providerOf(pr, `${p}[${j}]`);
      causes.push(...one.causes);
      if (one.provider) providers.push(one.provider);
    });
    rules.push({ resources, providers });
  });
  if (causes.length > 0) throw fail(causes);
  return { apiVersion: parsed.apiVersion, resources: rules };
}
