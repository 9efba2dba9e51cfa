import { ApiError, type Flavor, fieldErrors } from '@orchard/meta';
import { type FeatureGateOverrides, featureEnabled } from '../feature-gates.js';

/**
 * Upstream's ListOptions validation of a watch (`validateWatchOptions`): with the `WatchList` gate
 * off, `sendInitialEvents` (true or false) is 422 Invalid, `ListOptions.meta.<domain> "" is invalid:
 * sendInitialEvents: Forbidden: sendInitialEvents is forbidden for watch unless the WatchList feature
 * gate is enabled` — what client-go's reflector falls back to a plain list and watch on.
 */
export function checkWatchListGate(
  sendInitialEvents: boolean | undefined,
  featureGates: FeatureGateOverrides | undefined,
  flavor: Flavor,
): void {
  if (sendInitialEvents === undefined || featureEnabled(featureGates, 'WatchList')) return;
  const group = flavor.group('meta');
  const cause = fieldErrors.forbidden(
    'sendInitialEvents',
    'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled',
  );
  throw new ApiError(422, 'Invalid', `ListOptions.${group} "" is invalid: ${cause.field}: ${cause.message}`, {
    name: '',
    group,
    kind: 'ListOptions',
    causes: [cause],
  });
}
