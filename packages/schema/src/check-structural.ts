/**
 * The structural-schema rules custom resource definitions must satisfy (the apiextensions
 * checks), run on the wire form so that every violation names the offending keyword.
 */

import type { Flavor } from '@orchard/meta';
import { isJsonObject } from '@orchard/meta/internal';
import { type FieldError, fieldErrors } from './field-error.js';
import type { OpenApiSchema } from './openapi.js';
import { isValidPattern } from './validate.js';

/** Where the checked schema sits in the request, for the paths of its errors. */
export interface CheckStructuralOptions {
  /** Path of the schema in the request, e.g. `spec.versions[0].schema.openAPIV3Schema`. */
  path?: string;
}

const forbiddenEverywhere = [
  '$ref',
  'definitions',
  'id',
  '$schema',
  'additionalItems',
  'patternProperties',
  'dependencies',
];
const allowedTypes = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

/**
 * Returns every structural violation of `schema` (empty = structural):
 * - every node specifies a non-empty `type`, except under `int-or-string` or
 *   `preserve-unknown-fields` (and inside value validations, where `type` is forbidden);
 * - `properties` and `additionalProperties` are mutually exclusive; arrays need `items`;
 * - the root is an object, and at the root `metadata` may only restrict `name`/`generateName`;
 * - `$ref`, `definitions`, `additionalItems`, `patternProperties`, `dependencies`,
 *   `uniqueItems: true` and `nullable` in value validations are forbidden;
 * - extension markers are consistent (`list-map-keys` only with `list-type: map`, keys are
 *   scalar properties of the items; `embedded-resource` only on objects;
 *   `preserve-unknown-fields` only `true`; `int-or-string` without `type`).
 */
export function checkStructural(
  schema: OpenApiSchema,
  flavor: Flavor,
  options: CheckStructuralOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  const base = options.path ?? '';
  if (!isJsonObject(schema)) {
    errs.push(fieldErrors.required(base, 'must not be empty'));
    return errs;
  }
  node(schema, base, { root: true, inValueValidation: false, underPreserve: false }, flavor, errs);
  if (schema.type !== undefined && schema.type !== 'object') {
    errs.push(fieldErrors.invalid(`${base}.type`, schema.type, 'must be object at the root'));
  }
  if (schema[flavor.ext('embedded-resource')] === true) {
    errs.push(
      fieldErrors.forbidden(`${base}.${flavor.ext('embedded-resource')}`, 'must not be used at the root'),
    );
  }
  const meta = isJsonObject(schema.properties) ? schema.properties.metadata : undefined;
  if (isJsonObject(meta)) checkRootMetadata(meta, `${base}.properties[metadata]`, errs);
  return errs;
}

interface Ctx {
  root: boolean;
  inValueValidation: boolean;
  underPreserve: boolean;
}

function checkRootMetadata(meta: Record<string, unknown>, path: string, errs: FieldError[]): void {
  const allowedKeys = new Set(['type', 'properties', 'description']);
  const extra = Object.keys(meta).filter((k) => !allowedKeys.has(k));
  const props = isJsonObject(meta.properties) ? meta.properties : {};
  const extraProps = Object.keys(props).filter((k) => k !== 'name' && k !== 'generateName');
  if (extra.length > 0 || extraProps.length > 0) {
    errs.push(
      fieldErrors.forbidden(
        path,
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
  }
  for (const k of ['name', 'generateName']) {
    const p = props[k];
    if (!isJsonObject(p)) continue;
    const bad = Object.keys(p).filter(
      (x) => !['type', 'pattern', 'maxLength', 'minLength', 'description', 'enum', 'format'].includes(x),
    );
    if (p.type !== undefined && p.type !== 'string')
      errs.push(fieldErrors.invalid(`${path}.properties[${k}].type`, p.type, 'must be string'));
    if (bad.length > 0)
      errs.push(fieldErrors.forbidden(`${path}.properties[${k}]`, `must not specify ${bad.join(', ')}`));
  }
}

function node(s: Record<string, unknown>, path: string, ctx: Ctx, flavor: Flavor, errs: FieldError[]): void {
  const x = (n: string) => flavor.ext(n);
  for (const k of forbiddenEverywhere) {
    if (s[k] !== undefined) errs.push(fieldErrors.forbidden(`${path}.${k}`, `${k} is not supported`));
  }
  if (s.uniqueItems === true) {
    errs.push(
      fieldErrors.forbidden(
        `${path}.uniqueItems`,
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  const intOrString = s[x('int-or-string')] === true;
  const preserve = s[x('preserve-unknown-fields')];
  if (preserve !== undefined && preserve !== true) {
    errs.push(
      fieldErrors.invalid(`${path}.${x('preserve-unknown-fields')}`, preserve, 'must be true or undefined'),
    );
  }
  const ioss = s[x('int-or-string')];
  if (ioss !== undefined && ioss !== true) {
    errs.push(fieldErrors.invalid(`${path}.${x('int-or-string')}`, ioss, 'must be true or undefined'));
  }
  const type = s.type;

  if (ctx.inValueValidation) {
    for (const k of ['type', 'nullable', 'default', 'additionalProperties', 'description', 'title']) {
      if (s[k] !== undefined && !(k === 'additionalProperties' && s[k] === true))
        errs.push(fieldErrors.forbidden(`${path}.${k}`, 'must be empty to be structural'));
    }
    for (const k of Object.keys(s)) {
      if (k.startsWith(flavor.extensionPrefix))
        errs.push(fieldErrors.forbidden(`${path}.${k}`, 'must be false to be structural'));
    }
  } else {
    if (type === undefined || type === '') {
      if (!intOrString && preserve !== true) {
        errs.push(fieldErrors.required(`${path}.type`, 'must not be empty for specified object fields'));
      }
    } else if (typeof type !== 'string' || !allowedTypes.has(type)) {
      errs.push(fieldErrors.notSupported(`${path}.type`, type, [...allowedTypes]));
    }
    if (intOrString && type !== undefined) {
      errs.push(fieldErrors.invalid(`${path}.type`, type, `must be empty if ${x('int-or-string')} is true`));
    }
  }

  if (
    s.properties !== undefined &&
    s.additionalProperties !== undefined &&
    s.additionalProperties !== false
  ) {
    errs.push(
      fieldErrors.forbidden(
        `${path}.additionalProperties`,
        'additionalProperties and properties are mutual exclusive',
      ),
    );
  }
  if (s.additionalProperties === false && !ctx.inValueValidation) {
    errs.push(fieldErrors.forbidden(`${path}.additionalProperties`, 'must not be false'));
  }
  if (!ctx.inValueValidation && type === 'array' && !isJsonObject(s.items)) {
    errs.push(fieldErrors.required(`${path}.items`, 'must be specified'));
  }
  if (Array.isArray(s.items)) {
    errs.push(fieldErrors.forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  }
  if (
    (s.properties !== undefined || s.additionalProperties !== undefined) &&
    type !== undefined &&
    type !== 'object' &&
    !ctx.inValueValidation
  ) {
    errs.push(
      fieldErrors.invalid(
        `${path}.type`,
        type,
        'must be object if properties or additionalProperties are specified',
      ),
    );
  }
  if (typeof s.pattern === 'string' && !isValidPattern(s.pattern)) {
    errs.push(
      fieldErrors.invalid(`${path}.pattern`, s.pattern, "must be a valid regular expression, but isn't"),
    );
  }

  const embedded = s[x('embedded-resource')];
  if (embedded !== undefined) {
    if (embedded !== true)
      errs.push(
        fieldErrors.invalid(`${path}.${x('embedded-resource')}`, embedded, 'must be true or undefined'),
      );
    else {
      if (type !== 'object')
        errs.push(
          fieldErrors.invalid(
            `${path}.type`,
            type ?? '',
            `must be object if ${x('embedded-resource')} is true`,
          ),
        );
      if (s.properties === undefined && preserve !== true)
        errs.push(
          fieldErrors.required(
            `${path}.properties`,
            `must not be empty if ${x('embedded-resource')} is true without ${x('preserve-unknown-fields')}`,
          ),
        );
    }
  }

  const listType = s[x('list-type')];
  const mapKeys = s[x('list-map-keys')];
  if (listType !== undefined) {
    if (listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
      errs.push(fieldErrors.notSupported(`${path}.${x('list-type')}`, listType, ['atomic', 'set', 'map']));
    } else if (type !== 'array') {
      errs.push(
        fieldErrors.invalid(`${path}.type`, type ?? '', `must be array if ${x('list-type')} is specified`),
      );
    } else if (listType === 'set' && isJsonObject(s.items)) {
      const it = s.items.type;
      if (it === 'object' || it === 'array' || (it === undefined && s.items[x('int-or-string')] !== true)) {
        errs.push(
          fieldErrors.invalid(
            `${path}.items.type`,
            it ?? '',
            'must be a scalar type if parent array type is set',
          ),
        );
      }
    } else if (listType === 'map') {
      if (!Array.isArray(mapKeys) || mapKeys.length === 0) {
        errs.push(
          fieldErrors.required(
            `${path}.${x('list-map-keys')}`,
            `must not be empty if ${x('list-type')} is map`,
          ),
        );
      }
      if (isJsonObject(s.items)) {
        if (s.items.type !== 'object')
          errs.push(
            fieldErrors.invalid(
              `${path}.items.type`,
              s.items.type ?? '',
              `must be object if parent array's ${x('list-type')} is map`,
            ),
          );
        const props = isJsonObject(s.items.properties) ? s.items.properties : {};
        const required = Array.isArray(s.items.required) ? s.items.required : [];
        if (Array.isArray(mapKeys)) {
          for (const [i, k] of mapKeys.entries()) {
            const p = props[k as string];
            if (!isJsonObject(p)) {
              errs.push(
                fieldErrors.required(
                  `${path}.items.properties[${String(k)}]`,
                  `must have all properties listed in ${x('list-map-keys')}`,
                ),
              );
              continue;
            }
            if (p.type === 'object' || p.type === 'array') {
              errs.push(
                fieldErrors.invalid(
                  `${path}.items.properties[${String(k)}].type`,
                  p.type,
                  'must be a scalar type if parent array type is map',
                ),
              );
            }
            if (!required.includes(k) && p.default === undefined) {
              errs.push(
                fieldErrors.required(
                  `${path}.${x('list-map-keys')}[${i}]`,
                  'all map keys must be required or have a default value',
                ),
              );
            }
          }
        }
      }
    }
  }
  if (mapKeys !== undefined && listType !== 'map') {
    errs.push(
      fieldErrors.forbidden(
        `${path}.${x('list-map-keys')}`,
        `must not be set if ${x('list-type')} is not map`,
      ),
    );
  }
  const mapType = s[x('map-type')];
  if (mapType !== undefined && mapType !== 'atomic' && mapType !== 'granular') {
    errs.push(fieldErrors.notSupported(`${path}.${x('map-type')}`, mapType, ['atomic', 'granular']));
  }

  const nextPreserve = ctx.underPreserve || preserve === true;
  if (isJsonObject(s.properties)) {
    for (const [k, v] of Object.entries(s.properties)) {
      if (isJsonObject(v))
        node(
          v,
          `${path}.properties[${k}]`,
          { ...ctx, root: false, underPreserve: nextPreserve },
          flavor,
          errs,
        );
    }
  }
  if (isJsonObject(s.additionalProperties)) {
    node(
      s.additionalProperties,
      `${path}.additionalProperties`,
      { ...ctx, root: false, underPreserve: nextPreserve },
      flavor,
      errs,
    );
  }
  if (isJsonObject(s.items))
    node(s.items, `${path}.items`, { ...ctx, root: false, underPreserve: nextPreserve }, flavor, errs);
  for (const j of ['allOf', 'anyOf', 'oneOf'] as const) {
    const v = s[j];
    if (Array.isArray(v)) {
      v.forEach((sub, i) => {
        if (isJsonObject(sub))
          node(sub, `${path}.${j}[${i}]`, { ...ctx, root: false, inValueValidation: true }, flavor, errs);
      });
    }
  }
  if (isJsonObject(s.not))
    node(s.not, `${path}.not`, { ...ctx, root: false, inValueValidation: true }, flavor, errs);
}
