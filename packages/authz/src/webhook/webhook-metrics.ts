/**
 * The metrics of webhook authorizers (upstream's names), plain counters until the server exports
 * `/metrics`. One set serves every webhook of a server across reloads; series are labelled `name`.
 */
import { createGauge, type Gauge } from '@orchard/authn/internal';

/** How one call to a webhook ended: the `result` label of upstream's webhook metrics. */
export type WebhookCallResult = 'success' | 'timeout' | 'error' | 'canceled';

/** Counters of webhook authorizers. */
export interface WebhookMetrics {
  /** `apiserver_authorization_webhook_evaluations_total{name,result}`: calls made. */
  readonly evaluations: Gauge;
  /** `apiserver_authorization_webhook_evaluations_fail_open_total{name,result}`: failures answered no-opinion. */
  readonly failOpen: Gauge;
  /** `apiserver_authorization_match_condition_exclusions_total{type,name}`: requests a `false` condition skipped. */
  readonly matchConditionExclusions: Gauge;
  /** `apiserver_authorization_match_condition_evaluation_errors_total{type,name}`: condition errors. */
  readonly matchConditionErrors: Gauge;
  /** Adds one to the series of `gauge` with `labels`. */
  count(gauge: Gauge, labels: Readonly<Record<string, string>>): void;
}

/** A fresh set of webhook counters. */
export function createWebhookMetrics(): WebhookMetrics {
  return {
    evaluations: createGauge(
      'apiserver_authorization_webhook_evaluations_total',
      'Round-trips to authorization webhooks.',
    ),
    failOpen: createGauge(
      'apiserver_authorization_webhook_evaluations_fail_open_total',
      'NoOpinion results due to webhook timeout or error.',
    ),
    matchConditionExclusions: createGauge(
      'apiserver_authorization_match_condition_exclusions_total',
      'Total count of times an authorizer skipped a request because a match condition was false.',
    ),
    matchConditionErrors: createGauge(
      'apiserver_authorization_match_condition_evaluation_errors_total',
      'Total number of errors when an authorization webhook encounters a match condition error.',
    ),
    count(gauge, labels) {
      gauge.set((gauge.get(labels) ?? 0) + 1, labels);
    },
  };
}
