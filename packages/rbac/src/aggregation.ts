/**
 * ClusterRole aggregation (spec doc 2 §2.3): a ClusterRole with `aggregationRule` gets as `rules` the
 * rules of every other ClusterRole matching one of its label selectors, in name order, without
 * duplicates; its own manual rules are overwritten.
 */
import { type LabelSelector, labelSelectorFromObject, type ParsedLabelSelector } from '@orchard/meta';
import type { ClusterRole, PolicyRule } from './types.js';

/** The keys of frozen rules (the informer's shared objects: the same rules every pass and server see). */
const frozenKeys = new WeakMap<PolicyRule, string>();

function ruleKey(r: PolicyRule): string {
  let k = frozenKeys.get(r);
  if (k !== undefined) return k;
  k = ruleText(r);
  if (deeplyFrozen(r)) frozenKeys.set(r, k);
  return k;
}

/** A rule whose key cannot change: it and every list the key reads are frozen. */
function deeplyFrozen(r: PolicyRule): boolean {
  return (
    Object.isFrozen(r) &&
    [r.verbs, r.apiGroups, r.resources, r.resourceNames, r.nonResourceURLs].every(
      (l) => l === undefined || l === null || Object.isFrozen(l),
    )
  );
}

/** The parsed selectors of frozen selector lists (the default roles' are shared by every server). */
const frozenSelectors = new WeakMap<readonly LabelSelector[], readonly ParsedLabelSelector[]>();

/** The non-empty selectors of `selectors`, parsed once for a list that cannot change. */
function parsedSelectors(selectors: readonly LabelSelector[]): readonly ParsedLabelSelector[] {
  const cached = frozenSelectors.get(selectors);
  if (cached) return cached;
  const parsed = selectors.map((s) => labelSelectorFromObject(s)).filter((s) => !s.isEmpty());
  if (deeplyFrozenValue(selectors)) frozenSelectors.set(selectors, parsed);
  return parsed;
}

/** Whether `v` and everything it holds is frozen. */
function deeplyFrozenValue(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  return Object.isFrozen(v) && Object.values(v).every(deeplyFrozenValue);
}

function ruleText(r: PolicyRule): string {
  return JSON.stringify([
    r.verbs,
    r.apiGroups ?? [],
    r.resources ?? [],
    r.resourceNames ?? [],
    r.nonResourceURLs ?? [],
  ]);
}

/**
 * The rules `target` should hold given all cluster roles, or `undefined` when it does not aggregate.
 * A selector with no requirements selects nothing (an empty selector would select every role).
 */
export function aggregatedRules(target: ClusterRole, all: Iterable<ClusterRole>): PolicyRule[] | undefined {
  const selectors = target.aggregationRule?.clusterRoleSelectors;
  if (!target.aggregationRule) return undefined;
  const parsed = parsedSelectors(selectors ?? []);
  const sources = [...all]
    .filter((r) => r.metadata.name !== target.metadata.name)
    .filter((r) => parsed.some((s) => s.matches(r.metadata.labels ?? {})))
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  const out: PolicyRule[] = [];
  const seen = new Set<string>();
  for (const src of sources) {
    for (const rule of src.rules ?? []) {
      const k = ruleKey(rule);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(rule);
    }
  }
  return out;
}

/** True when two rule lists are equal in order and content (whether an aggregated role needs an update). */
export function sameRules(
  a: readonly PolicyRule[] | null | undefined,
  b: readonly PolicyRule[] | null | undefined,
): boolean {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((r, i) => r === y[i] || ruleKey(r) === ruleKey(y[i] as PolicyRule));
}
