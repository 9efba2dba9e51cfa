import { kubernetesFlavor, orchFlavor } from '@orchard/meta';
import { describe, expect, it } from 'vitest';
import {
  nodeTaintKeys,
  noExecuteAction,
  noScheduleTaints,
  swapTaints,
  TokenBucket,
  wantedNoScheduleKeys,
  zoneKey,
  zoneState,
} from './node-taints.js';

const k8s = nodeTaintKeys(kubernetesFlavor);
const orch = nodeTaintKeys(orchFlavor);
const at = new Date('2026-01-01T00:00:00Z');

const node = (conditions: Record<string, string>, spec: Record<string, unknown> = {}) => ({
  metadata: { name: 'n' },
  spec,
  status: { conditions: Object.entries(conditions).map(([type, status]) => ({ type, status })) },
});

describe('node taint keys', () => {
  it('are upstream node.kubernetes.io/… under kubernetes and node.orch.io/… under orch', () => {
    expect(k8s.unreachable).toBe('node.kubernetes.io/unreachable');
    expect(k8s.notReady).toBe('node.kubernetes.io/not-ready');
    expect(k8s.unschedulable).toBe('node.kubernetes.io/unschedulable');
    expect(orch.unreachable).toBe('node.orch.io/unreachable');
    expect(orch.pidPressure).toBe('node.orch.io/pid-pressure');
  });
});

describe('NoSchedule taints of the conditions (doNoScheduleTaintingPass)', () => {
  it.each([
    [{ Ready: 'True' }, {}, []],
    [{ Ready: 'False' }, {}, [k8s.notReady]],
    [{ Ready: 'Unknown' }, {}, [k8s.unreachable]],
    [{ Ready: 'True', MemoryPressure: 'True' }, {}, [k8s.memoryPressure]],
    [{ Ready: 'True', DiskPressure: 'True', PIDPressure: 'True' }, {}, [k8s.diskPressure, k8s.pidPressure]],
    [{ Ready: 'True', NetworkUnavailable: 'True' }, {}, [k8s.networkUnavailable]],
    [{ Ready: 'True', MemoryPressure: 'Unknown' }, {}, []],
    [{ Ready: 'True' }, { unschedulable: true }, [k8s.unschedulable]],
    [{}, {}, []],
  ])('%j %j → %j', (conditions, spec, keys) => {
    expect(wantedNoScheduleKeys(node(conditions, spec), k8s)).toEqual(keys);
  });

  it('adds with timeAdded, removes managed ones no longer wanted, keeps foreign taints and effects', () => {
    const n = node(
      { Ready: 'Unknown' },
      {
        taints: [
          { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
          { key: k8s.notReady, effect: 'NoSchedule' },
          { key: k8s.notReady, effect: 'NoExecute' },
        ],
      },
    );
    expect(noScheduleTaints(n, k8s, at)).toEqual([
      { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' },
      { key: k8s.notReady, effect: 'NoExecute' },
      { key: k8s.unreachable, effect: 'NoSchedule', timeAdded: '2026-01-01T00:00:00Z' },
    ]);
  });

  it('answers undefined when the taints are already right (no write)', () => {
    const n = node({ Ready: 'Unknown' }, { taints: [{ key: k8s.unreachable, effect: 'NoSchedule' }] });
    expect(noScheduleTaints(n, k8s, at)).toBeUndefined();
    expect(noScheduleTaints(node({ Ready: 'True' }), k8s, at)).toBeUndefined();
  });

  it('ignores malformed taint entries and never throws on hostile shapes', () => {
    const n = { spec: { taints: ['x', null, { key: 5 }] }, status: { conditions: 'nope' } };
    expect(noScheduleTaints(n, k8s, at)).toBeUndefined();
    expect(swapTaints({ spec: null }, [{ key: 'a', effect: 'NoExecute' }], [], at)).toHaveLength(1);
  });
});

describe('NoExecute decision (processTaintBaseEviction)', () => {
  const ne = (key: string) => ({ key, effect: 'NoExecute' });
  it.each([
    ['True, untainted', node({ Ready: 'True' }), 'clear'],
    ['no Ready condition', node({}), 'none'],
    ['Unknown, untainted: rate-limited', node({ Ready: 'Unknown' }), 'queue'],
    ['False, untainted: rate-limited', node({ Ready: 'False' }), 'queue'],
    ['Unknown, already unreachable', node({ Ready: 'Unknown' }, { taints: [ne(k8s.unreachable)] }), 'none'],
    [
      'False, carrying unreachable: swapped at once',
      node({ Ready: 'False' }, { taints: [ne(k8s.unreachable)] }),
      'swap',
    ],
    [
      'Unknown, carrying not-ready: swapped at once',
      node({ Ready: 'Unknown' }, { taints: [ne(k8s.notReady)] }),
      'swap',
    ],
  ])('%s → %s', (_label, n, kind) => {
    expect(noExecuteAction(n, k8s).kind).toBe(kind);
  });

  it('swaps the opposite taint for the wanted one', () => {
    const n = node({ Ready: 'False' }, { taints: [ne(k8s.unreachable)] });
    const a = noExecuteAction(n, k8s);
    expect(a).toEqual({ kind: 'swap', key: k8s.notReady, opposite: k8s.unreachable });
    expect(swapTaints(n, [ne(k8s.notReady)], [ne(k8s.unreachable)], at)).toEqual([
      { ...ne(k8s.notReady), timeAdded: '2026-01-01T00:00:00Z' },
    ]);
  });
});

describe('zones (ComputeZoneState) and the rate limiter', () => {
  it.each([
    [['True', 'True'], 'Normal'],
    [['Unknown'], 'FullDisruption'],
    [[undefined, 'False'], 'FullDisruption'],
    [['True', 'Unknown', 'Unknown'], 'Normal'],
    [['True', 'Unknown', 'Unknown', 'Unknown'], 'PartialDisruption'],
    [['True', 'True', 'True', 'Unknown', 'Unknown', 'Unknown'], 'Normal'],
    [[], 'Normal'],
  ] as [(string | undefined)[], string][])('%j → %s', (statuses, state) => {
    expect(zoneState(statuses, 0.55)).toBe(state);
  });

  it('keys zones by the flavor topology labels', () => {
    const labelled = (labels: Record<string, string>) => ({ metadata: { labels } });
    expect(zoneKey(labelled({}), kubernetesFlavor)).toBe('');
    expect(
      zoneKey(
        labelled({ 'topology.kubernetes.io/region': 'r', 'topology.kubernetes.io/zone': 'z' }),
        kubernetesFlavor,
      ),
    ).toBe('r:\x00:z');
    expect(zoneKey(labelled({ 'topology.orch.io/zone': 'z' }), orchFlavor)).toBe(':\x00:z');
    expect(zoneKey(labelled({ 'topology.kubernetes.io/zone': 'z' }), orchFlavor)).toBe('');
  });

  it('lets one token through at once, then one per 1/qps seconds; rate 0 stops it', () => {
    const b = new TokenBucket(0.1, 0);
    expect(b.take(0)).toBe(true);
    expect(b.take(5_000)).toBe(false);
    expect(b.take(10_000)).toBe(true);
    b.setRate(0, 10_000);
    expect(b.take(100_000)).toBe(false);
    b.setRate(0.1, 100_000);
    expect(b.take(110_000)).toBe(true);
  });
});
