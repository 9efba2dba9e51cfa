import { flavorByName } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import { createFakeClock, installFakeClock, startTestServer } from '../src/index.js';

// Issue 20 item 3: the fake clock option. Its own file: the clock is the process's Date.
describe.each(['orch', 'kubernetes'] as const)('a fake clock under %s', (flavorName) => {
  it('stamps creation and deletion times, managedFields and Lease times from the fake clock', async () => {
    const clock = createFakeClock('2030-01-02T03:04:05Z');
    const api = await startTestServer({ flavor: flavorName, clock });
    try {
      expect(api.clock).toBe(clock);
      const created = (
        await api.request('POST', '/api/v1/namespaces/default/configmaps', {
          body: { metadata: { name: 'c', finalizers: ['example.com/hold'] } },
        })
      ).json as { metadata: { creationTimestamp: string; managedFields: { time: string }[] } };
      expect(created.metadata.creationTimestamp).toBe('2030-01-02T03:04:05Z');
      expect(created.metadata.managedFields[0]!.time).toBe('2030-01-02T03:04:05Z');
      clock.advance(90 * 60_000);
      const deleted = (await api.request('DELETE', '/api/v1/namespaces/default/configmaps/c')).json as {
        metadata: { deletionTimestamp: string };
      };
      expect(deleted.metadata.deletionTimestamp).toBe('2030-01-02T04:34:05Z');
      const leases = `/apis/${flavorByName(flavorName).group('coordination')}/v1/namespaces/default/leases`;
      const lease = (
        await api.request('POST', leases, {
          body: { metadata: { name: 'l' }, spec: { holderIdentity: 'me', leaseDurationSeconds: 10 } },
        })
      ).json as { metadata: { creationTimestamp: string } };
      expect(lease.metadata.creationTimestamp).toBe('2030-01-02T04:34:05Z');
    } finally {
      await api.stop();
    }
    expect(new Date().getUTCFullYear()).toBeLessThan(2030); // the real Date again
  });

  it('allows one fake clock at a time in a process', () => {
    const a = createFakeClock(0);
    const undo = installFakeClock(a);
    try {
      expect(Date.now()).toBe(0);
      expect(new Date().toISOString()).toBe('1970-01-01T00:00:00.000Z');
      expect(new Date(5).getTime()).toBe(5);
      expect(() => installFakeClock(createFakeClock())).toThrow(/already installed/);
    } finally {
      undo();
    }
    expect(() => createFakeClock('not a time')).toThrow(RangeError);
  });
});
