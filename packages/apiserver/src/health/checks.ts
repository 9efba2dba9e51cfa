import type { Store } from '@orchard/store';
import type { HealthChecks } from './health.js';

/** The standard checks: `ping`, `log`, the store check (`etcd`, named as upstream's), `shutdown` (readyz only; fails once `draining` is aborted). */
export function addStandardChecks(health: HealthChecks, store: Store, closing: AbortSignal): void {
  health.add({ name: 'ping', check: () => undefined }, ['livez', 'readyz', 'healthz']);
  health.add({ name: 'log', check: () => undefined }, ['livez', 'readyz', 'healthz']);
  health.add(
    {
      name: 'etcd',
      async check() {
        await store.currentRevision();
        return undefined;
      },
    },
    ['livez', 'readyz', 'healthz'],
  );
  health.add(
    { name: 'shutdown', check: () => (closing.aborted ? 'the server is shutting down' : undefined) },
    ['readyz'],
  );
}
