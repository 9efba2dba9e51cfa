/**
 * The cost limits, named as upstream (k8s.io/apiserver/pkg/apis/cel/config.go). Every one is
 * configurable where it is used; these are the defaults.
 */

/** Runtime cost limit of one evaluation of one expression. */
export const PerCallLimit = 1_000_000;

/** Runtime cost budget shared by all the validation rules of one custom-resource object. */
export const RuntimeCELCostBudget = 10_000_000;

/** Largest estimated worst-case cost of one expression that is accepted at creation. */
export const StaticEstimatedCostLimit = 10_000_000;

/** Largest sum of the estimated worst-case costs of all the rules of one CRD. */
export const StaticEstimatedCRDCostLimit = 100_000_000;

/** Largest request body (bytes): bounds lists, maps and strings that declare no maximum. */
export const MaxRequestSizeBytes = 3 * 1024 * 1024;

/** Cost factor of traversing a string, per character (cel-go `StringTraversalCostFactor`). */
export const StringTraversalCostFactor = 0.1;

/** Cost factor of the length of a regular expression (cel-go `RegexStringLengthCostFactor`). */
export const RegexStringLengthCostFactor = 0.25;

/** Base cost of a list literal (doc 2 §2.10 item 6: "list literal base cost 40"). */
export const ListCreateBaseCost = 40;

/** Cost factor per element when a list is copied or concatenated. */
export const ListTraversalCostFactor = 0.1;
