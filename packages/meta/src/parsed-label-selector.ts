/**
 * The parsed label selector: an immutable, key-sorted set of ANDed requirements, the selectors
 * that match everything and nothing, and the canonical string form.
 */
import {
  formatLabelRequirement,
  type LabelRequirement,
  type Labels,
  requirementMatches,
} from './label-requirement.js';

/** A parsed label selector: immutable; requirements sorted by key. */
export interface ParsedLabelSelector {
  /** True when every requirement holds for `labels` (absent/null labels = no labels). */
  matches(labels: Labels | null | undefined): boolean;
  /** True for the selector that selects everything (no requirements). */
  isEmpty(): boolean;
  requirements(): readonly LabelRequirement[];
  /** The value `label` must have for this selector to match (from `=`, `==` or `in` with one value). */
  requiresExactMatch(label: string): string | undefined;
  /** A new selector with more requirements. */
  add(...reqs: LabelRequirement[]): ParsedLabelSelector;
  /** The canonical string form (`formatLabelSelector`). */
  toString(): string;
}

const byKey = (a: LabelRequirement, b: LabelRequirement) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** A selector of requirements (sorted by key on construction). */
export class Selector implements ParsedLabelSelector {
  readonly #reqs: readonly LabelRequirement[];
  constructor(reqs: readonly LabelRequirement[]) {
    this.#reqs = Object.freeze([...reqs].sort(byKey));
  }
  matches(labels: Labels | null | undefined): boolean {
    for (const r of this.#reqs) if (!requirementMatches(r, labels)) return false;
    return true;
  }
  isEmpty(): boolean {
    return this.#reqs.length === 0;
  }
  requirements(): readonly LabelRequirement[] {
    return this.#reqs;
  }
  requiresExactMatch(label: string): string | undefined {
    for (const r of this.#reqs) {
      if (r.key !== label) continue;
      if ((r.operator === '=' || r.operator === '==' || r.operator === 'in') && r.values.length === 1) {
        return r.values[0];
      }
      return undefined;
    }
    return undefined;
  }
  add(...reqs: LabelRequirement[]): ParsedLabelSelector {
    return new Selector([...this.#reqs, ...reqs]);
  }
  toString(): string {
    return formatLabelSelector(this);
  }
}

/** Matches nothing (the selector of a null structured selector). */
class NothingSelector implements ParsedLabelSelector {
  matches(): boolean {
    return false;
  }
  isEmpty(): boolean {
    return false;
  }
  requirements(): readonly LabelRequirement[] {
    return [];
  }
  requiresExactMatch(): string | undefined {
    return undefined;
  }
  add(): ParsedLabelSelector {
    return this;
  }
  toString(): string {
    return '';
  }
}

/** The selector with no requirements: matches every object. */
export const everythingLabelSelector: ParsedLabelSelector = new Selector([]);
/** The selector that matches no object (a null `LabelSelector`). */
export const nothingLabelSelector: ParsedLabelSelector = new NothingSelector();

/** The canonical string form: requirements sorted by key, joined by `,`; values sorted. */
export function formatLabelSelector(sel: ParsedLabelSelector): string {
  return sel.requirements().map(formatLabelRequirement).join(',');
}
