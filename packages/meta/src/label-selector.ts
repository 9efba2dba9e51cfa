/**
 * Label selectors: the `labelSelector` query string (upstream `labels.Parse` grammar, errors and
 * canonical form) and the structured `LabelSelector` of object specs (`matchLabels`/`matchExpressions`).
 *
 * Grammar (comma = AND, whitespace around tokens ignored):
 *   requirement := key | '!' key | key ('=' | '==' | '!=') value? | key ('in' | 'notin') '(' values ')'
 *                | key ('>' | '<') integer
 * Keys are qualified names, values label values. Parse errors are `ApiError` 400 BadRequest with
 * upstream's messages.
 */
import { createLabelRequirement, type Labels } from './label-requirement.js';
import { ParseError, Parser } from './label-selector-parser.js';
import { everythingLabelSelector, type ParsedLabelSelector, Selector } from './parsed-label-selector.js';
import { errors } from './status.js';

export type { LabelRequirement, LabelSelectorOperator, Labels } from './label-requirement.js';
export { createLabelRequirement, formatLabelRequirement } from './label-requirement.js';
export type {
  LabelSelector,
  LabelSelectorRequirement,
  LabelSelectorRequirementOperator,
  ValidateLabelSelectorOptions,
} from './label-selector-object.js';
export {
  labelSelectorFromObject,
  labelSelectorToObject,
  validateLabelSelector,
} from './label-selector-object.js';
export type { ParsedLabelSelector } from './parsed-label-selector.js';
export {
  everythingLabelSelector,
  formatLabelSelector,
  nothingLabelSelector,
} from './parsed-label-selector.js';

/**
 * Parses the `labelSelector` query string. The empty string selects everything.
 * Throws `ApiError` 400 BadRequest with upstream's parser message.
 */
export function parseLabelSelector(selector: string): ParsedLabelSelector {
  try {
    return new Selector(new Parser(selector).parse());
  } catch (e) {
    if (e instanceof ParseError) throw errors.badRequest(e.message);
    throw e;
  }
}

/** The selector `k1=v1,k2=v2` of a label set (upstream `SelectorFromSet`). Throws 400 when invalid. */
export function labelSelectorFromSet(labels: Labels | null | undefined): ParsedLabelSelector {
  if (!labels) return everythingLabelSelector;
  return new Selector(Object.entries(labels).map(([k, v]) => createLabelRequirement(k, '=', [v])));
}
