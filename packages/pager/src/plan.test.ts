import { describe, expect, it } from 'vitest';
import { isPagerError } from './errors.js';
import { type ListParams, planGet, planList, planWatch } from './plan.js';

const T = 'tok';
type Row = [string, ListParams, string];

// One row per cell of the spec doc 1 §4.5 list table (plus the combinations upstream forbids).
const listTable: Row[] = [
  ['match unset, limit unset, rv unset', {}, 'MostRecent'],
  ['match unset, limit unset, rv=0', { resourceVersion: '0' }, 'Any'],
  ['match unset, limit unset, rv=nz', { resourceVersion: '42' }, 'NotOlderThan:42'],
  ['match unset, limit=n, rv unset', { limit: 5 }, 'MostRecent'],
  ['match unset, limit=n, rv=0', { limit: 5, resourceVersion: '0' }, 'Any'],
  ['match unset, limit=n, rv=nz', { limit: 5, resourceVersion: '42' }, 'Exact:42'],
  ['match unset, limit=n, continue, rv unset', { limit: 5, continue: T }, 'Continue:tok'],
  [
    'match unset, limit=n, continue, rv=0 (invalid, tolerated)',
    { limit: 5, continue: T, resourceVersion: '0' },
    'Continue:tok',
  ],
  [
    'match unset, limit=n, continue, rv=nz',
    { limit: 5, continue: T, resourceVersion: '42' },
    '400:resourceVersion',
  ],
  ['Exact, limit unset, rv unset', { resourceVersionMatch: 'Exact' }, '400:resourceVersionMatch'],
  [
    'Exact, limit unset, rv=0',
    { resourceVersionMatch: 'Exact', resourceVersion: '0' },
    '400:resourceVersionMatch',
  ],
  ['Exact, limit unset, rv=nz', { resourceVersionMatch: 'Exact', resourceVersion: '42' }, 'Exact:42'],
  ['Exact, limit=n, rv unset', { resourceVersionMatch: 'Exact', limit: 5 }, '400:resourceVersionMatch'],
  [
    'Exact, limit=n, rv=0',
    { resourceVersionMatch: 'Exact', limit: 5, resourceVersion: '0' },
    '400:resourceVersionMatch',
  ],
  ['Exact, limit=n, rv=nz', { resourceVersionMatch: 'Exact', limit: 5, resourceVersion: '42' }, 'Exact:42'],
  [
    'NotOlderThan, limit unset, rv unset',
    { resourceVersionMatch: 'NotOlderThan' },
    '400:resourceVersionMatch',
  ],
  ['NotOlderThan, limit unset, rv=0', { resourceVersionMatch: 'NotOlderThan', resourceVersion: '0' }, 'Any'],
  [
    'NotOlderThan, limit unset, rv=nz',
    { resourceVersionMatch: 'NotOlderThan', resourceVersion: '42' },
    'NotOlderThan:42',
  ],
  [
    'NotOlderThan, limit=n, rv unset',
    { resourceVersionMatch: 'NotOlderThan', limit: 5 },
    '400:resourceVersionMatch',
  ],
  [
    'NotOlderThan, limit=n, rv=0',
    { resourceVersionMatch: 'NotOlderThan', limit: 5, resourceVersion: '0' },
    'Any',
  ],
  [
    'NotOlderThan, limit=n, rv=nz',
    { resourceVersionMatch: 'NotOlderThan', limit: 5, resourceVersion: '42' },
    'NotOlderThan:42',
  ],
  [
    'Exact with continue',
    { resourceVersionMatch: 'Exact', resourceVersion: '42', continue: T },
    '400:resourceVersionMatch',
  ],
  [
    'NotOlderThan with continue',
    { resourceVersionMatch: 'NotOlderThan', continue: T },
    '400:resourceVersionMatch',
  ],
  ['unknown match', { resourceVersionMatch: 'Newest', resourceVersion: '42' }, '400:resourceVersionMatch'],
  ['limit=0 counts as unset', { limit: 0, resourceVersion: '42' }, 'NotOlderThan:42'],
  [
    'empty strings count as unset',
    { resourceVersion: '', resourceVersionMatch: '', continue: '' },
    'MostRecent',
  ],
  ['non-numeric rv', { resourceVersion: 'abc' }, '400:resourceVersion'],
  ['negative rv', { resourceVersion: '-1' }, '400:resourceVersion'],
];

function run(f: () => { kind: string; revision?: number; token?: string }): string {
  try {
    const p = f();
    if (p.kind === 'Continue') return `Continue:${p.token}`;
    return p.revision !== undefined ? `${p.kind}:${p.revision}` : p.kind;
  } catch (e) {
    if (isPagerError(e) && (e.code === 'InvalidRequest' || e.code === 'InvalidResourceVersion'))
      return `400:${e.field}`;
    throw e;
  }
}

describe('planList: the §4.5 list table', () => {
  it.each(listTable)('%s', (_name, params, expected) => {
    expect(run(() => planList(params))).toBe(expected);
  });
  it('uses upstream messages', () => {
    expect(() => planList({ continue: T, resourceVersion: '5' })).toThrow(
      'specifying resource version is not allowed when using continue',
    );
    expect(() => planList({ resourceVersionMatch: 'Exact' })).toThrow(
      'resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  });
});

describe('planGet: the §4.5 get rule', () => {
  it.each([
    [undefined, 'MostRecent'],
    ['', 'MostRecent'],
    ['0', 'Any'],
    ['7', 'NotOlderThan:7'],
    ['x7', '400:resourceVersion'],
  ])('rv=%s → %s', (rv, expected) => {
    expect(run(() => planGet(rv))).toBe(expected);
  });
});

describe('planWatch: §4.6', () => {
  it('unset: state at Most Recent, then changes', () => {
    expect(planWatch({})).toEqual({
      start: { kind: 'MostRecent' },
      initialEvents: true,
      initialEventsEndBookmark: false,
      allowBookmarks: false,
    });
  });
  it('0: state at Any, then changes', () => {
    expect(planWatch({ resourceVersion: '0' }).start).toEqual({ kind: 'Any' });
    expect(planWatch({ resourceVersion: '0' }).initialEvents).toBe(true);
  });
  it('non-zero: changes after it only', () => {
    expect(planWatch({ resourceVersion: '9', allowWatchBookmarks: true })).toEqual({
      start: { kind: 'Exact', revision: 9 },
      initialEvents: false,
      initialEventsEndBookmark: false,
      allowBookmarks: true,
    });
  });
  it('sendInitialEvents=true with NotOlderThan: state not older than rv, then the end bookmark when bookmarks are allowed', () => {
    const p = planWatch({
      resourceVersion: '9',
      resourceVersionMatch: 'NotOlderThan',
      sendInitialEvents: true,
      allowWatchBookmarks: true,
    });
    expect(p).toEqual({
      start: { kind: 'NotOlderThan', revision: 9 },
      initialEvents: true,
      initialEventsEndBookmark: true,
      allowBookmarks: true,
    });
    expect(planWatch({ resourceVersionMatch: 'NotOlderThan', sendInitialEvents: true }).start).toEqual({
      kind: 'MostRecent',
    });
  });
  it('sendInitialEvents=false: no state', () => {
    const p = planWatch({
      resourceVersion: '9',
      resourceVersionMatch: 'NotOlderThan',
      sendInitialEvents: false,
    });
    expect(p.initialEvents).toBe(false);
    expect(p.start).toEqual({ kind: 'Exact', revision: 9 });
  });
  it('rejects sendInitialEvents without NotOlderThan, and resourceVersionMatch without sendInitialEvents', () => {
    expect(run(() => planWatch({ sendInitialEvents: true }).start)).toBe('400:resourceVersionMatch');
    expect(run(() => planWatch({ resourceVersionMatch: 'NotOlderThan', resourceVersion: '3' }).start)).toBe(
      '400:resourceVersionMatch',
    );
  });
});
