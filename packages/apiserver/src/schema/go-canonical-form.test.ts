import { flavorByName } from '@orchard/meta';
import { builtinSchema } from '@orchard/schema';
import { describe, expect, it } from 'vitest';
import { canonicalizeGoValues } from './go-canonical-form.js';

/**
 * The write path's canonical forms (issue 19 item 5), one table per value type; the expected strings
 * are what a 1.32 cluster stores for the same body (Quantity's `String()`, `metav1.Time` as
 * `RFC3339` in UTC truncated to seconds, `metav1.MicroTime` as `RFC3339Micro` in UTC truncated to
 * microseconds). The Quantity parser's own table (upstream's TestQuantityString) is in @orchard/meta.
 */
describe.each(['orch', 'kubernetes'] as const)('canonicalizeGoValues (%s schemas)', (name) => {
  const flavor = flavorByName(name);
  const schema = (group: string, kind: string) => {
    const s = builtinSchema(flavor, group, 'v1', kind);
    if (!s) throw new Error(`no schema for ${kind}`);
    return s;
  };

  it.each([
    ['0.5', '500m'],
    [0.5, '500m'],
    ['1000m', '1'],
    ['1024Mi', '1Gi'],
    ['1.5Gi', '1536Mi'],
    ['2048Ki', '2Mi'],
    ['1000', '1k'],
    [2, '2'],
    ['1e3', '1e3'],
    ['12e2', '1200'],
    ['0.1', '100m'],
  ])('a Quantity %j in a Pod is stored as %j, in requests, limits and overhead alike', (given, stored) => {
    const pod = {
      spec: {
        containers: [{ name: 'c', resources: { requests: { cpu: given }, limits: { memory: given } } }],
        overhead: { cpu: given },
      },
    };
    canonicalizeGoValues(pod, schema('', 'Pod'), 'Pod');
    expect(pod.spec.containers[0]?.resources).toEqual({
      requests: { cpu: stored },
      limits: { memory: stored },
    });
    expect(pod.spec.overhead.cpu).toBe(stored);
  });

  it('a value that is no Quantity is left for validation to report', () => {
    const pod = { spec: { containers: [{ name: 'c', resources: { limits: { cpu: 'lots' } } }] } };
    canonicalizeGoValues(pod, schema('', 'Pod'), 'Pod');
    expect(pod.spec.containers[0]?.resources.limits.cpu).toBe('lots');
  });

  it.each([
    // [given, as Time, as MicroTime]
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000000Z'],
    ['2024-01-02T03:04:05.999999999Z', '2024-01-02T03:04:05Z', '2024-01-02T03:04:05.999999Z'],
    ['2024-01-02T03:04:05.123456789+02:00', '2024-01-02T01:04:05Z', '2024-01-02T01:04:05.123456Z'],
    ['2024-02-29T23:59:59.9999999-00:30', '2024-03-01T00:29:59Z', '2024-03-01T00:29:59.999999Z'],
    ['2024-12-31T23:30:00.5-01:00', '2025-01-01T00:30:00Z', '2025-01-01T00:30:00.500000Z'],
  ])('a time %s is stored as Time %s and MicroTime %s, by field', (given, time, micro) => {
    const event: Record<string, any> = {
      metadata: { name: 'e', creationTimestamp: given },
      firstTimestamp: given,
      lastTimestamp: given,
      eventTime: given,
      series: { count: 2, lastObservedTime: given },
    };
    canonicalizeGoValues(event, schema('', 'Event'), 'Event');
    expect([event.metadata.creationTimestamp, event.firstTimestamp, event.lastTimestamp]).toEqual([
      time,
      time,
      time,
    ]);
    expect([event.eventTime, event.series.lastObservedTime]).toEqual([micro, micro]);
    const lease: Record<string, any> = { spec: { acquireTime: given, renewTime: given } };
    canonicalizeGoValues(lease, schema(flavor.group('coordination'), 'Lease'), 'Lease');
    expect(lease.spec).toEqual({ acquireTime: micro, renewTime: micro });
  });

  it('a string that is no RFC 3339 time is left for the decoding check', () => {
    const event: Record<string, any> = { firstTimestamp: 'yesterday' };
    canonicalizeGoValues(event, schema('', 'Event'), 'Event');
    expect(event.firstTimestamp).toBe('yesterday');
  });
});
