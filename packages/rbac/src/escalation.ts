/**
 * The privilege-escalation guard (spec doc 2 §5.3): a role may be written only by a caller that already
 * holds every permission in it at the same scope (or `escalate` on roles/clusterroles), and a binding
 * only by a caller holding every permission of the referenced role (or `bind` on that role). Both checks
 * reduce to rule coverage: every atom (one verb × group × resource × name, or verb × URL) of the
 * requested rules must be covered by some rule the caller holds.
 */
import type { PolicyRule } from './types.js';

function covers(owner: readonly string[] | null | undefined, value: string): boolean {
  if (!owner) return false;
  return owner.includes('*') || owner.includes(value);
}

function resourceCovers(owner: readonly string[] | null | undefined, requested: string): boolean {
  if (!owner) return false;
  for (const o of owner) {
    if (o === '*' || o === requested) return true;
    const slash = requested.indexOf('/');
    if (slash < 0) continue;
    // `pods/*` covers `pods/log`, `*/status` covers `pods/status`.
    if (o === `${requested.slice(0, slash)}/*` || o === `*/${requested.slice(slash + 1)}`) return true;
  }
  return false;
}

function urlCovers(owner: readonly string[] | null | undefined, requested: string): boolean {
  if (!owner) return false;
  for (const o of owner) {
    if (o === '*' || o === requested) return true;
    if (o.endsWith('*') && requested.startsWith(o.slice(0, -1))) return true;
  }
  return false;
}

function namesCover(owner: readonly string[] | null | undefined, requested: string | undefined): boolean {
  if (!owner || owner.length === 0) return true;
  return requested !== undefined && owner.includes(requested);
}

/** Splits a rule into single-verb, single-group, single-resource, single-name (or single-URL) rules. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const verb of rule.verbs) {
    for (const url of rule.nonResourceURLs ?? []) out.push({ verbs: [verb], nonResourceURLs: [url] });
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
        else
          for (const n of names)
            out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [n] });
      }
    }
  }
  return out;
}

function atomCovered(owner: PolicyRule, atom: PolicyRule): boolean {
  const verb = atom.verbs[0] as string;
  if (!covers(owner.verbs, verb)) return false;
  if (atom.nonResourceURLs?.length)
    return urlCovers(owner.nonResourceURLs, atom.nonResourceURLs[0] as string);
  return (
    covers(owner.apiGroups, atom.apiGroups?.[0] as string) &&
    resourceCovers(owner.resources, atom.resources?.[0] as string) &&
    namesCover(owner.resourceNames, atom.resourceNames?.[0])
  );
}

/**
 * The parts of `requested` that `owner` does not cover (as single-atom rules); empty when the owner
 * holds them all. Wildcards in requested rules are covered only by the same wildcard.
 */
export function uncoveredRules(owner: readonly PolicyRule[], requested: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const r of requested) {
    for (const atom of breakdownRule(r)) {
      if (!owner.some((o) => atomCovered(o, atom))) missing.push(atom);
    }
  }
  return missing;
}

/** One rule as upstream prints it in escalation errors: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function formatRule(rule: PolicyRule): string {
  const parts: string[] = [];
  const q = (xs: readonly string[]) => `[${xs.map((x) => JSON.stringify(x)).join(' ')}]`;
  if (rule.apiGroups?.length) parts.push(`APIGroups:${q(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${q(rule.resources)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${q(rule.resourceNames)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(rule.nonResourceURLs)}`);
  parts.push(`Verbs:${q(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}
