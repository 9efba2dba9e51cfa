import {
  EncryptionConfigError,
  type EncryptionConfiguration,
  type EncryptionProvider,
  parseGroupResource,
} from './encryption-config.js';
import { identityTransformer, keyedProviderPrefixes, keyTransformer } from './providers.js';
import {
  createPrefixTransformers,
  type PrefixedTransformer,
  type ValueTransformer,
} from './value-transformer.js';

/** A group and resource, `''` for the core group (as the server names them). */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** The transformer of every resource under an EncryptionConfiguration. */
export interface ResourceTransformers {
  /**
   * The transformer of a resource: its exact rule, else `*.<group>`, else `*.*`; a resource no rule
   * names gets identity that refuses encrypted values (as upstream). Never undefined.
   */
  transformerFor(gr: GroupResource): ValueTransformer;
  /** Whether a rule names this resource (its values are written by the rule's first provider). */
  covers(gr: GroupResource): boolean;
  /** One line per rule for the start-up log: resources → providers (key names, never secrets). */
  describe(): string[];
}

const encoder = new TextEncoder();

function providerTransformer(p: EncryptionProvider): PrefixedTransformer {
  if (p.type === 'identity') return { prefix: new Uint8Array(0), transformer: identityTransformer() };
  const byKey = createPrefixTransformers(
    p.keys.map((k) => ({
      prefix: encoder.encode(`${k.name}:`),
      transformer: keyTransformer(p.type, k.secret),
    })),
    p.type === 'secretbox'
      ? 'no matching key was found for the provided Secretbox transformer'
      : 'no matching key was found for the provided AES transformer',
  );
  return { prefix: encoder.encode(keyedProviderPrefixes[p.type]), transformer: byKey };
}

const grKey = (gr: GroupResource) => `${gr.resource}.${gr.group}`;

/** Upstream's wording of a rule in messages: `secrets`, `*.apps`, `*.` for all of core. */
function ruleName(gr: GroupResource): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group === '' ? gr.resource : `${gr.resource}.${gr.group}`;
}

/**
 * Builds the per-resource transformers of a validated configuration. A resource listed in several
 * entries gets the providers of all of them, in order; a resource listed after an earlier `*.<group>`
 * or `*.*` rule is refused (`resource "x" is masked by earlier rule "*.*"`), as upstream does.
 */
export function createResourceTransformers(config: EncryptionConfiguration): ResourceTransformers {
  const lists = new Map<string, PrefixedTransformer[]>();
  const lines: string[] = [];
  for (const rule of config.resources) {
    const providers = rule.providers.map(providerTransformer);
    for (const res of rule.resources) {
      const gr = parseGroupResource(res);
      for (const wider of [
        { group: gr.group, resource: '*' },
        { group: '*', resource: '*' },
      ]) {
        if (wider.group === gr.group && wider.resource === gr.resource) continue;
        if (lists.has(grKey(wider)))
          throw new EncryptionConfigError(
            `resource ${JSON.stringify(ruleName(gr))} is masked by earlier rule ${JSON.stringify(ruleName(wider))}`,
          );
      }
      const list = lists.get(grKey(gr)) ?? [];
      list.push(...providers);
      lists.set(grKey(gr), list);
    }
    lines.push(
      `${rule.resources.join(',')} → ${rule.providers
        .map((p) =>
          p.type === 'identity' ? 'identity' : `${p.type}(${p.keys.map((k) => k.name).join(',')})`,
        )
        .join(', ')}`,
    );
  }
  const transformers = new Map<string, ValueTransformer>();
  for (const [k, list] of lists)
    transformers.set(k, createPrefixTransformers(list, 'no matching prefix found'));
  const fallback = identityTransformer();
  const find = (gr: GroupResource) =>
    transformers.get(grKey(gr)) ??
    transformers.get(grKey({ group: gr.group, resource: '*' })) ??
    transformers.get(grKey({ group: '*', resource: '*' }));
  return {
    transformerFor: (gr) => find(gr) ?? fallback,
    covers: (gr) => find(gr) !== undefined,
    describe: () => [...lines],
  };
}
