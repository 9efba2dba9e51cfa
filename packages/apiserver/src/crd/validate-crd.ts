import type { Flavor, StatusCause } from '@orchard/meta';
import {
  checkStructural,
  type FieldError,
  fieldErrors,
  fromOpenApi,
  prune,
  type StructuralSchema,
  toStatusCauses,
  validate,
} from '@orchard/schema';
import { validateCrdRules } from './validation-rules.js';

type Obj = Record<string, any>;

const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const printerTypes = ['integer', 'number', 'string', 'boolean', 'date'];

/**
 * Validation of a CustomResourceDefinition (apiextensions v1) beyond its schema: names, scope,
 * versions (exactly one storage version, unique names), a structural `openAPIV3Schema` per
 * version (every violation reported with its path), sub-resources and printer columns.
 */
export function validateCrd(crd: Obj, flavor: Flavor): StatusCause[] {
  const errs: FieldError[] = [];
  const ruleCauses: StatusCause[] = [];
  const spec: Obj = crd.spec ?? {};
  const names: Obj = spec.names ?? {};
  const group: string = spec.group ?? '';
  if (!group) errs.push(fieldErrors.required('spec.group'));
  else if (!group.includes('.'))
    errs.push(fieldErrors.invalid('spec.group', group, 'should be a domain with at least one dot'));
  if (!names.plural) errs.push(fieldErrors.required('spec.names.plural'));
  else if (!dnsLabel.test(names.plural))
    errs.push(
      fieldErrors.invalid(
        'spec.names.plural',
        names.plural,
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'",
      ),
    );
  if (names.singular && !dnsLabel.test(names.singular))
    errs.push(
      fieldErrors.invalid(
        'spec.names.singular',
        names.singular,
        "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-'",
      ),
    );
  if (!names.kind) errs.push(fieldErrors.required('spec.names.kind'));
  if (names.kind && names.listKind && names.kind === names.listKind)
    errs.push(
      fieldErrors.invalid('spec.names.listKind', names.listKind, 'kind and listKind may not be the same'),
    );
  const expectedName = `${names.plural}.${group}`;
  if (names.plural && group && crd.metadata?.name !== expectedName) {
    errs.push(
      fieldErrors.invalid(
        'metadata.name',
        crd.metadata?.name ?? '',
        'must be spec.names.plural+"."+spec.group',
      ),
    );
  }
  if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
    errs.push(
      spec.scope === undefined
        ? fieldErrors.required('spec.scope')
        : fieldErrors.notSupported('spec.scope', spec.scope, ['Cluster', 'Namespaced']),
    );
  }
  const versions: Obj[] = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0)
    errs.push(
      fieldErrors.invalid(
        'spec.versions',
        versions,
        'must have exactly one version marked as storage version',
      ),
    );
  else {
    const storage = versions.filter((v) => v.storage === true).length;
    if (storage !== 1)
      errs.push(
        fieldErrors.invalid(
          'spec.versions',
          versions.map((v) => v.name),
          'must have exactly one version marked as storage version',
        ),
      );
    if (!versions.some((v) => v.served === true))
      errs.push(
        fieldErrors.invalid(
          'spec.versions',
          versions.map((v) => v.name),
          'must have at least one served version',
        ),
      );
  }
  const seen = new Set<string>();
  versions.forEach((v, i) => {
    const p = `spec.versions[${i}]`;
    if (!v.name) errs.push(fieldErrors.required(`${p}.name`));
    else if (!dnsLabel.test(v.name))
      errs.push(
        fieldErrors.invalid(
          `${p}.name`,
          v.name,
          "a DNS-1035 label must consist of lower case alphanumeric characters or '-'",
        ),
      );
    else if (seen.has(v.name)) errs.push(fieldErrors.duplicate(`${p}.name`, v.name));
    seen.add(v.name);
    const schema = v.schema?.openAPIV3Schema;
    if (schema === undefined || schema === null)
      errs.push(fieldErrors.required(`${p}.schema.openAPIV3Schema`, 'schemas are required'));
    else {
      const structural = checkStructural(schema, flavor, { path: `${p}.schema.openAPIV3Schema` });
      errs.push(...structural);
      // CEL rules compile only on a structural schema (a bad or too costly rule rejects the CRD)
      if (structural.length === 0) {
        ruleCauses.push(...validateCrdRules(schema, flavor, `${p}.schema.openAPIV3Schema`));
        errs.push(...invalidDefaults(fromOpenApi(schema, flavor), `${p}.schema.openAPIV3Schema`));
      }
    }
    const scale = v.subresources?.scale;
    if (scale) {
      if (typeof scale.specReplicasPath !== 'string' || !scale.specReplicasPath.startsWith('.spec.'))
        errs.push(
          fieldErrors.invalid(
            `${p}.subresources.scale.specReplicasPath`,
            scale.specReplicasPath ?? '',
            'should be a json path under .spec',
          ),
        );
      if (typeof scale.statusReplicasPath !== 'string' || !scale.statusReplicasPath.startsWith('.status.'))
        errs.push(
          fieldErrors.invalid(
            `${p}.subresources.scale.statusReplicasPath`,
            scale.statusReplicasPath ?? '',
            'should be a json path under .status',
          ),
        );
    }
    (Array.isArray(v.additionalPrinterColumns) ? v.additionalPrinterColumns : []).forEach(
      (c: Obj, j: number) => {
        const cp = `${p}.additionalPrinterColumns[${j}]`;
        if (!c.name) errs.push(fieldErrors.required(`${cp}.name`));
        if (!c.jsonPath) errs.push(fieldErrors.required(`${cp}.jsonPath`));
        if (!printerTypes.includes(c.type))
          errs.push(fieldErrors.notSupported(`${cp}.type`, c.type ?? '', printerTypes));
      },
    );
  });
  const strategy = spec.conversion?.strategy;
  if (strategy !== undefined && strategy !== 'None' && strategy !== 'Webhook') {
    errs.push(fieldErrors.notSupported('spec.conversion.strategy', strategy, ['None', 'Webhook']));
  }
  errs.push(...validateConversionWebhook(spec.conversion));
  return [...toStatusCauses(errs), ...ruleCauses];
}

/** Upstream's checks of `spec.conversion.webhook` (required with `Webhook`, forbidden otherwise). */
function validateConversionWebhook(conversion: Obj | undefined): ReturnType<typeof fieldErrors.required>[] {
  const errs: ReturnType<typeof fieldErrors.required>[] = [];
  const webhook = conversion?.webhook;
  if (conversion?.strategy !== 'Webhook') {
    if (webhook !== undefined && webhook !== null)
      errs.push(
        fieldErrors.forbidden(
          'spec.conversion.webhook',
          'should not be set when strategy is not set to Webhook',
        ),
      );
    return errs;
  }
  if (typeof webhook !== 'object' || webhook === null) {
    errs.push(fieldErrors.required('spec.conversion.webhook', 'required when strategy is set to Webhook'));
    return errs;
  }
  const versions = Array.isArray(webhook.conversionReviewVersions) ? webhook.conversionReviewVersions : [];
  if (!versions.some((v: unknown) => v === 'v1' || v === 'v1beta1'))
    errs.push(
      fieldErrors.invalid(
        'spec.conversion.webhook.conversionReviewVersions',
        versions,
        'must include at least one of v1, v1beta1',
      ),
    );
  const client: Obj | undefined = webhook.clientConfig;
  const p = 'spec.conversion.webhook.clientConfig';
  const hasUrl = typeof client?.url === 'string';
  const hasService = typeof client?.service === 'object' && client?.service !== null;
  if (hasUrl === hasService) errs.push(fieldErrors.required(p, 'exactly one of url or service is required'));
  if (hasUrl) {
    let u: URL | undefined;
    try {
      u = new URL(client?.url);
    } catch {
      errs.push(fieldErrors.invalid(`${p}.url`, client?.url, 'host must be specified'));
    }
    if (u && u.protocol !== 'https:')
      errs.push(fieldErrors.invalid(`${p}.url`, client?.url, "'https' is the only allowed URL scheme"));
  }
  if (
    client?.caBundle !== undefined &&
    (typeof client.caBundle !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(client.caBundle))
  )
    errs.push(fieldErrors.invalid(`${p}.caBundle`, '', 'must be base64-encoded PEM'));
  return errs;
}

/** Immutable parts of a CRD on update. */
export function validateCrdUpdate(crd: Obj, old: Obj, flavor: Flavor): StatusCause[] {
  const causes = validateCrd(crd, flavor);
  if (old.spec?.group !== crd.spec?.group)
    causes.push(
      ...toStatusCauses([fieldErrors.invalid('spec.group', crd.spec?.group ?? '', 'field is immutable')]),
    );
  if (old.spec?.names?.plural !== crd.spec?.names?.plural)
    causes.push(
      ...toStatusCauses([
        fieldErrors.invalid('spec.names.plural', crd.spec?.names?.plural ?? '', 'field is immutable'),
      ]),
    );
  if (old.spec?.scope !== crd.spec?.scope)
    causes.push(
      ...toStatusCauses([fieldErrors.invalid('spec.scope', crd.spec?.scope ?? '', 'field is immutable')]),
    );
  return causes;
}

/**
 * Every `default` must be valid against its own schema and survive pruning unchanged, as
 * upstream requires (an invalid default would make every defaulted object invalid).
 */
function invalidDefaults(root: StructuralSchema, rootPath: string): FieldError[] {
  const out: FieldError[] = [];
  const visit = (s: StructuralSchema, path: string, inMetadata: boolean): void => {
    if (s.default !== undefined) {
      if (inMetadata) {
        out.push(fieldErrors.forbidden(`${path}.default`, 'must not be set inside metadata'));
      } else {
        for (const e of validate(s.default, s, { path: '' })) {
          out.push({ ...e, field: `${path}.default${e.field ? `.${e.field}` : ''}` });
        }
        const copy = structuredClone(s.default);
        const pruned = prune(copy, s, { isResourceRoot: false });
        if (pruned.length > 0) {
          out.push(
            fieldErrors.invalid(
              `${path}.default`,
              s.default,
              `must not have unknown fields (${pruned.join(', ')})`,
            ),
          );
        }
      }
    }
    for (const [k, sub] of Object.entries(s.properties ?? {}))
      visit(sub, `${path}.properties[${k}]`, inMetadata || (path === rootPath && k === 'metadata'));
    if (typeof s.additionalProperties === 'object')
      visit(s.additionalProperties, `${path}.additionalProperties`, inMetadata);
    if (s.items) visit(s.items, `${path}.items`, inMetadata);
  };
  visit(root, rootPath, false);
  return out;
}
