/**
 * OpenAPI v3 value validation against a structural schema, with kube-openapi's messages
 * (`spec.replicas in body must be of type integer: "string"`) converted to field errors the way
 * the custom-resource validator does.
 */
import { tryParseQuantity } from '@orchard/meta';
import { jsonEqual } from '@orchard/meta/internal';
import { RE2JS } from 're2js';
import { type FieldError, fieldErrors, indexPath, joinPath } from './field-error.js';
import { propertySchema, type StructuralSchema } from './structural.js';

/** Options of `validate`: the path prefix and a cap on the errors reported. */
export interface ValidateOptions {
  /** Path prefix of the value (`''` for a whole object). */
  path?: string;
  /** Stop after this many errors (default unlimited). */
  maxErrors?: number;
}

/** The JSON type name of a value as kube-openapi reports it. */
export function jsonTypeOf(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const patternCache = new Map<string, RE2JS | null>();

function compilePattern(p: string): RE2JS | null {
  let re = patternCache.get(p);
  if (re === undefined) {
    try {
      re = RE2JS.compile(p);
    } catch {
      re = null;
    }
    if (patternCache.size > 1000) patternCache.clear();
    patternCache.set(p, re);
  }
  return re;
}

/** Whether `pattern` is a valid RE2 expression (what CRD schemas may use). */
export function isValidPattern(p: string): boolean {
  return compilePattern(p) !== null;
}

const rxDateTime = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const rxDate = /^\d{4}-\d{2}-\d{2}$/;
const rxUuid = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const rxUuidV = (v: number) =>
  new RegExp(`^[0-9a-f]{8}-?[0-9a-f]{4}-?${v}[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`, 'i');
const rxByte = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const rxHostname =
  /^(?=.{1,253}$)[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)*\.?$/;
const rxIpv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const rxMac = /^([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}$/;
const rxEmail = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const rxDuration = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h|d|w))+$/;
const rxUri = /^[a-zA-Z][a-zA-Z0-9+.-]*:[^\s]*$/;

function isIpv6(s: string): boolean {
  if (!s.includes(':') || !/^[0-9a-fA-F:.]+$/.test(s)) return false;
  const dbl = s.split('::');
  if (dbl.length > 2) return false;
  const groups = s.split(':').filter((g) => g !== '');
  const lastV4 = groups.length > 0 && groups[groups.length - 1]!.includes('.');
  if (lastV4 && !rxIpv4.test(groups[groups.length - 1]!)) return false;
  const n = groups.length + (lastV4 ? 1 : 0);
  if (!groups.every((g, i) => (lastV4 && i === groups.length - 1) || /^[0-9a-fA-F]{1,4}$/.test(g)))
    return false;
  return dbl.length === 2 ? n < 8 : n === 8;
}

function validDateTime(s: string): boolean {
  if (!rxDateTime.test(s)) return false;
  return !Number.isNaN(Date.parse(s.replace(' ', 'T')));
}

/**
 * String formats checked (the kube-openapi registry's common ones). Unknown formats pass, as
 * upstream ignores formats it does not know.
 */
const stringFormats: Record<string, (s: string) => boolean> = {
  'date-time': validDateTime,
  datetime: validDateTime,
  date: (s) => rxDate.test(s) && !Number.isNaN(Date.parse(s)),
  byte: (s) => rxByte.test(s),
  uuid: (s) => rxUuid.test(s),
  uuid3: (s) => rxUuidV(3).test(s),
  uuid4: (s) => rxUuidV(4).test(s),
  uuid5: (s) => rxUuidV(5).test(s),
  hostname: (s) => rxHostname.test(s),
  ipv4: (s) => rxIpv4.test(s),
  ipv6: isIpv6,
  cidr: (s) => {
    const [ip, bits, ...rest] = s.split('/');
    if (rest.length > 0 || ip === undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
    if (rxIpv4.test(ip)) return Number(bits) <= 32;
    return isIpv6(ip) && Number(bits) <= 128;
  },
  mac: (s) => rxMac.test(s),
  email: (s) => rxEmail.test(s),
  duration: (s) => rxDuration.test(s),
  uri: (s) => rxUri.test(s),
  /** A resource quantity (`500m`, `1Gi`), with @orchard/meta's parser. */
  quantity: (s) => tryParseQuantity(s) !== undefined,
};

const intRanges: Record<string, [number, number]> = {
  int32: [-2147483648, 2147483647],
  int64: [Number.MIN_SAFE_INTEGER * 1024, Number.MAX_SAFE_INTEGER * 1024],
};

/** Whether `format` is a string format this validator checks. */
export function isKnownFormat(format: string): boolean {
  return format in stringFormats || format in intRanges;
}

/** A string identifying a JSON value up to object key order. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return v === undefined ? 'u' : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const keys = Object.keys(v).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** UTF-8 length in characters as kube-openapi counts (runes). */
function runeLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Validates `value` against `schema` and returns every violation (type errors stop the descent
 * into that value). Types are always checked; `required`, `enum`, `format`, `pattern`, bounds,
 * lengths, item and property counts, `nullable`, and the value validations (allOf/anyOf/oneOf/not).
 */
export function validate(
  value: unknown,
  schema: StructuralSchema,
  options: ValidateOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const max = options.maxErrors ?? Number.POSITIVE_INFINITY;
  walk(value, schema, options.path ?? '', errs, max);
  return errs;
}

function walk(v: unknown, s: StructuralSchema, path: string, errs: FieldError[], max: number): void {
  if (errs.length >= max) return;
  const where = path === '' ? '<root>' : path;
  if (v === null || v === undefined) {
    if (s.nullable || (!s.type && !s.intOrString)) return;
    const expected = s.intOrString ? 'integer-or-string' : (s.type ?? 'object');
    errs.push(fieldErrors.typeInvalid(path, 'null', `${where} in body must be of type ${expected}: "null"`));
    return;
  }
  const actual = jsonTypeOf(v);
  if (s.intOrString) {
    if (actual !== 'integer' && actual !== 'string') {
      errs.push(
        fieldErrors.typeInvalid(
          path,
          actual,
          `${where} in body must be of type integer,string: ${JSON.stringify(actual)}`,
        ),
      );
      return;
    }
  } else if (s.type) {
    const ok = s.type === 'number' ? actual === 'number' || actual === 'integer' : actual === s.type;
    if (!ok) {
      errs.push(
        fieldErrors.typeInvalid(
          path,
          actual,
          `${where} in body must be of type ${s.type}: ${JSON.stringify(actual)}`,
        ),
      );
      return;
    }
  }

  if (s.enum && s.enum.length > 0 && !s.enum.some((e) => jsonEqual(e, v))) {
    errs.push(fieldErrors.notSupported(path, v, s.enum));
  }

  if (typeof v === 'string') {
    if (s.maxLength !== undefined && runeLength(v) > s.maxLength)
      errs.push(fieldErrors.tooLong(path, s.maxLength));
    if (s.minLength !== undefined && runeLength(v) < s.minLength)
      errs.push(
        fieldErrors.invalid(path, v, `${where} in body should be at least ${s.minLength} chars long`),
      );
    if (s.pattern !== undefined) {
      const re = compilePattern(s.pattern);
      if (re && !re.matcher(v).find())
        errs.push(fieldErrors.invalid(path, v, `${where} in body should match '${s.pattern}'`));
    }
    if (s.format !== undefined && s.type === 'string') {
      const check = stringFormats[s.format];
      if (check && !check(v))
        errs.push(
          fieldErrors.invalid(path, v, `${where} in body must be of type ${s.format}: ${JSON.stringify(v)}`),
        );
    }
  } else if (typeof v === 'number') {
    if (s.maximum !== undefined) {
      if (s.exclusiveMaximum ? v >= s.maximum : v > s.maximum)
        errs.push(
          fieldErrors.invalid(
            path,
            v,
            `${where} in body should be less than ${s.exclusiveMaximum ? '' : 'or equal to '}${s.maximum}`,
          ),
        );
    }
    if (s.minimum !== undefined) {
      if (s.exclusiveMinimum ? v <= s.minimum : v < s.minimum)
        errs.push(
          fieldErrors.invalid(
            path,
            v,
            `${where} in body should be greater than ${s.exclusiveMinimum ? '' : 'or equal to '}${s.minimum}`,
          ),
        );
    }
    if (s.multipleOf !== undefined && s.multipleOf > 0) {
      const q = v / s.multipleOf;
      if (Math.abs(q - Math.round(q)) > 1e-9)
        errs.push(fieldErrors.invalid(path, v, `${where} in body should be a multiple of ${s.multipleOf}`));
    }
    if (s.format !== undefined && s.type === 'integer') {
      const r = intRanges[s.format];
      if (r && (v < r[0] || v > r[1]))
        errs.push(
          fieldErrors.invalid(
            path,
            v,
            `${where} in body must be of type ${s.format}: ${JSON.stringify(String(v))}`,
          ),
        );
    }
  } else if (Array.isArray(v)) {
    if (s.maxItems !== undefined && v.length > s.maxItems)
      errs.push(fieldErrors.tooMany(path, v.length, s.maxItems));
    if (s.minItems !== undefined && v.length < s.minItems)
      errs.push(
        fieldErrors.invalid(path, v.length, `${where} in body should have at least ${s.minItems} items`),
      );
    if (s.uniqueItems || s.listType === 'set') {
      // A Set of canonical forms: linear, where pairwise comparison made long lists a denial of service.
      const seen = new Set<string>();
      for (let i = 0; i < v.length; i++) {
        const k = canonical(v[i]);
        if (seen.has(k)) errs.push(fieldErrors.duplicate(indexPath(path, i), v[i]));
        seen.add(k);
      }
    }
    if (s.listType === 'map' && s.listMapKeys && s.listMapKeys.length > 0) {
      const seen = new Set<string>();
      for (let i = 0; i < v.length; i++) {
        const item = v[i];
        if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
        const key = JSON.stringify(s.listMapKeys.map((k) => (item as Record<string, unknown>)[k] ?? null));
        if (seen.has(key)) {
          const desc = Object.fromEntries(
            s.listMapKeys.map((k) => [k, (item as Record<string, unknown>)[k]]),
          );
          errs.push(fieldErrors.duplicate(indexPath(path, i), desc));
        }
        seen.add(key);
      }
    }
    if (s.items) for (let i = 0; i < v.length; i++) walk(v[i], s.items, indexPath(path, i), errs, max);
  } else if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    if (s.maxProperties !== undefined && keys.length > s.maxProperties)
      errs.push(fieldErrors.tooMany(path, keys.length, s.maxProperties));
    if (s.minProperties !== undefined && keys.length < s.minProperties)
      errs.push(
        fieldErrors.invalid(
          path,
          keys.length,
          `${where} in body should have at least ${s.minProperties} properties`,
        ),
      );
    if (s.required) {
      for (const r of s.required) if (o[r] === undefined) errs.push(fieldErrors.required(joinPath(path, r)));
    }
    if (s.embeddedResource) {
      for (const r of ['apiVersion', 'kind']) {
        if (typeof o[r] !== 'string' || o[r] === '')
          errs.push(fieldErrors.required(joinPath(path, r), 'must not be empty'));
      }
    }
    for (const k of keys) {
      const sub = propertySchema(s, k);
      if (sub) walk(o[k], sub, joinPath(path, k), errs, max);
      else if (typeof s.additionalProperties === 'object')
        walk(o[k], s.additionalProperties, joinPath(path, k), errs, max);
    }
  }

  if (s.allOf) for (const sub of s.allOf) walk(v, sub, path, errs, max);
  if (s.anyOf && s.anyOf.length > 0 && !s.anyOf.some((sub) => validate(v, sub, { path }).length === 0)) {
    errs.push(
      fieldErrors.invalid(
        path,
        v,
        s.format === 'quantity'
          ? "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
          : `${where} in body must be valid against at least one of the anyOf schemas`,
      ),
    );
  }
  if (s.oneOf && s.oneOf.length > 0) {
    const n = s.oneOf.filter((sub) => validate(v, sub, { path }).length === 0).length;
    if (n !== 1)
      errs.push(
        fieldErrors.invalid(path, v, `${where} in body must validate one and only one schema (oneOf)`),
      );
  }
  if (s.not && validate(v, s.not, { path }).length === 0) {
    errs.push(fieldErrors.invalid(path, v, `${where} in body must not validate the schema (not)`));
  }
}
