import { kubernetesFlavor } from '@orchard/meta';
import { createMemoryStore } from '@orchard/store';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ObjectStore } from '../storage/object-store.js';
import {
  formatMicroTime,
  type LeaderElector,
  type LeaseLock,
  startLeaderElection,
  validateLeaderElectionTimings,
} from './leader-election.js';
import { controllerLeaseName, createLeaseLock, recordFromLease } from './lease-lock.js';

const flavor = kubernetesFlavor;
const timings = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

/** A lock whose calls fail while `down` is set, as a server that lost its store (or died) sees it. */
function breakable(lock: LeaseLock): LeaseLock & { down: boolean } {
  const gate = <T>(f: () => Promise<T>) => (w.down ? Promise.reject(new Error('store unavailable')) : f());
  const w = {
    down: false,
    get: () => gate(() => lock.get()),
    create: (r: Parameters<LeaseLock['create']>[0]) => gate(() => lock.create(r)),
    update: (r: Parameters<LeaseLock['update']>[0], v: string) => gate(() => lock.update(r, v)),
    describe: () => lock.describe(),
  };
  return w;
}

interface Candidate {
  readonly id: string;
  readonly lock: ReturnType<typeof breakable>;
  readonly elector: LeaderElector;
  readonly events: string[];
}

let objects: ObjectStore;
const running: Candidate[] = [];

function candidate(id: string): Candidate {
  const lock = breakable(
    createLeaseLock(objects, flavor, flavor.systemNamespace, controllerLeaseName(flavor)),
  );
  const events: string[] = [];
  const elector = startLeaderElection(
    lock,
    { identity: id, ...timings },
    {
      onStartedLeading: () => events.push('started'),
      onStoppedLeading: () => {
        events.push('stopped');
      },
    },
  );
  const c = { id, lock, elector, events };
  running.push(c);
  return c;
}

async function lease() {
  const key = objects.key(
    { group: flavor.group('coordination'), resource: 'leases', namespace: 'kube-system' },
    'kube-controller-manager',
  );
  return (await objects.get(key)).object;
}

/** Advances the fake clock in retry-period steps until `check` holds; returns the ms it took (bounded). */
async function advanceUntil(check: () => boolean, maxMs: number): Promise<number> {
  let waited = 0;
  while (!check() && waited < maxMs) {
    await vi.advanceTimersByTimeAsync(100);
    waited += 100;
  }
  return waited;
}

beforeEach(() => {
  vi.useFakeTimers({ now: Date.parse('2026-11-26T06:00:00Z') });
  objects = new ObjectStore(createMemoryStore());
});
afterEach(async () => {
  for (const c of running.splice(0)) {
    c.lock.down = true;
    const stopped = c.elector.stop();
    await vi.advanceTimersByTimeAsync(20_000);
    await stopped;
  }
  vi.useRealTimers();
});

describe('leader election over a Lease', () => {
  it('a lone candidate acquires at once and renews every retry period, keeping acquireTime', async () => {
    const a = candidate('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(a.elector.isLeader()).toBe(true);
    const first = await lease();
    expect(first).toMatchObject({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'kube-controller-manager', namespace: 'kube-system' },
      spec: {
        holderIdentity: 'a',
        leaseDurationSeconds: 15,
        acquireTime: '2026-11-26T06:00:00.000000Z',
        renewTime: '2026-11-26T06:00:00.000000Z',
        leaseTransitions: 0,
      },
    });
    await vi.advanceTimersByTimeAsync(2_000);
    const renewed = await lease();
    expect(renewed?.spec).toMatchObject({
      holderIdentity: 'a',
      acquireTime: '2026-11-26T06:00:00.000000Z',
      renewTime: '2026-11-26T06:00:02.000000Z',
      leaseTransitions: 0,
    });
    expect(Number(renewed?.metadata.resourceVersion)).toBeGreaterThan(
      Number(first?.metadata.resourceVersion),
    );
    expect(a.events).toEqual(['started']);
  });

  it('of three candidates exactly one leads, and stays the only one', async () => {
    const cs = [candidate('a'), candidate('b'), candidate('c')];
    for (let i = 0; i < 30; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
      expect(cs.filter((c) => c.elector.isLeader())).toHaveLength(1);
    }
    const leader = cs.find((c) => c.elector.isLeader())!;
    expect((await lease())?.spec).toMatchObject({ holderIdentity: leader.id, leaseTransitions: 0 });
    for (const c of cs) expect(c.elector.leader()).toBe(leader.id);
  });

  it('a dead leader: it stops within the renew deadline, another takes over once the lease expires', async () => {
    const a = candidate('a');
    await vi.advanceTimersByTimeAsync(0);
    const b = candidate('b');
    await vi.advanceTimersByTimeAsync(5_000);
    expect([a.elector.isLeader(), b.elector.isLeader()]).toEqual([true, false]);
    const lastRenew = (await lease())?.spec as { renewTime: string };
    a.lock.down = true;
    const aStops = await advanceUntil(() => !a.elector.isLeader(), 20_000);
    // The renew round starts at most one retry period later and gives up after the renew deadline.
    expect(aStops).toBeLessThanOrEqual(2_000 + 10_000 + 100);
    expect(a.events).toEqual(['started', 'stopped']);
    await advanceUntil(() => b.elector.isLeader(), 30_000);
    expect(b.elector.isLeader()).toBe(true);
    // b saw the last renewal at most one of its retry periods after it happened; it waits out the
    // lease from then, plus at most one more retry. A jittered retry period is 2 s × [1, 2.2).
    const takeover = Date.now() - Date.parse(lastRenew.renewTime);
    expect(takeover).toBeGreaterThanOrEqual(15_000);
    expect(takeover).toBeLessThanOrEqual(15_000 + 2 * 4_400 + 200);
    const spec = (await lease())?.spec as Record<string, unknown>;
    expect(spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
    expect(spec.acquireTime).toBe(formatMicroTime(Date.parse(String(spec.acquireTime))));
    // The old leader, back, does not take the lease from the live one.
    a.lock.down = false;
    await vi.advanceTimersByTimeAsync(20_000);
    expect([a.elector.isLeader(), b.elector.isLeader()]).toEqual([false, true]);
  });

  it('a clean stop releases the lease: the next candidate takes over at its next retry', async () => {
    const a = candidate('a');
    await vi.advanceTimersByTimeAsync(0);
    const b = candidate('b');
    await vi.advanceTimersByTimeAsync(3_000);
    running.splice(running.indexOf(a), 1);
    await a.elector.stop();
    expect(a.events).toEqual(['started', 'stopped']);
    expect((await lease())?.spec).toMatchObject({
      holderIdentity: '',
      leaseDurationSeconds: 1,
      leaseTransitions: 0,
    });
    const waited = await advanceUntil(() => b.elector.isLeader(), 10_000);
    expect(b.elector.isLeader()).toBe(true);
    expect(waited).toBeLessThanOrEqual(2 * 2_200 + 100);
    expect((await lease())?.spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('a leader that sees another holder stops at once (the lease was taken over while it stalled)', async () => {
    const a = candidate('a');
    await vi.advanceTimersByTimeAsync(0);
    const lock = createLeaseLock(objects, flavor, 'kube-system', 'kube-controller-manager');
    const current = await lock.get();
    await lock.update(
      { ...current!.record, holderIdentity: 'intruder', leaseTransitions: 1 },
      current!.resourceVersion,
    );
    await vi.advanceTimersByTimeAsync(2_100);
    expect(a.elector.isLeader()).toBe(false);
    expect(a.elector.leader()).toBe('intruder');
  });

  it('a restarted candidate with the same identity takes its unexpired lease back at once', async () => {
    const a = candidate('a');
    await vi.advanceTimersByTimeAsync(0);
    a.lock.down = true; // the process died without releasing
    const again = candidate('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(again.elector.isLeader()).toBe(true);
    expect((await lease())?.spec).toMatchObject({ holderIdentity: 'a', leaseTransitions: 0 });
  });

  it('refuses timings upstream refuses', () => {
    expect(() => validateLeaderElectionTimings({ ...timings, renewDeadlineMs: 15_000 })).toThrow(
      'the lease duration must be greater than the renew deadline',
    );
    expect(() => validateLeaderElectionTimings({ ...timings, renewDeadlineMs: 2_000 })).toThrow('1.2 times');
    expect(() => validateLeaderElectionTimings({ ...timings, retryPeriodMs: 0 })).toThrow(
      'greater than zero',
    );
  });
});

describe('Lease records', () => {
  it('MicroTime has six fractional digits in UTC', () => {
    expect(formatMicroTime(Date.parse('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
  });

  it('a Lease written by a stranger with wrong types or hostile keys reads as an empty record', () => {
    const spec = JSON.parse(
      '{"__proto__":{"holderIdentity":"x"},"holderIdentity":7,"leaseDurationSeconds":"15","leaseTransitions":-1,"renewTime":{}}',
    );
    expect(recordFromLease({ metadata: { name: 'l' }, spec })).toEqual({
      holderIdentity: '',
      leaseDurationSeconds: 0,
      acquireTime: '',
      renewTime: '',
      leaseTransitions: 0,
    });
    expect(recordFromLease({ metadata: { name: 'l' }, spec: 'nope' }).holderIdentity).toBe('');
  });

  it('the lease name follows the flavor', () => {
    expect(controllerLeaseName(kubernetesFlavor)).toBe('kube-controller-manager');
  });
});
