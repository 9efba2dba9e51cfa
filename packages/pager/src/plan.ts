import { PagerError } from './errors.js';
import { parseResourceVersion } from './resource-version.js';

/**
 * How a read is served (spec doc 1 §4.5 "Meanings"):
 * - `MostRecent`: latest data, consistent.
 * - `Any`: data at any version, newest preferred.
 * - `NotOlderThan`: at least `revision`.
 * - `Exact`: exactly `revision`, else 410.
 * - `Continue`: "Continue Token, Exact": the snapshot carried by `token` (decode it with the ContinueCodec).
 */
export type ReadPlan =
  | { kind: 'MostRecent' }
  | { kind: 'Any' }
  | { kind: 'NotOlderThan'; revision: number }
  | { kind: 'Exact'; revision: number };

/** How to serve a list: a read plan for its resourceVersion rules, or a continued page. */
export type ListPlan = ReadPlan | { kind: 'Continue'; token: string };

/** The query parameters of a list (strings as on the wire; `limit` parsed). */
export interface ListParams {
  resourceVersion?: string | undefined;
  resourceVersionMatch?: string | undefined;
  /** Page size; 0, negative or unset = no limit. */
  limit?: number | undefined;
  continue?: string | undefined;
  /** Only a watch takes it; upstream's ListOptions validation forbids it on a list (either value). */
  sendInitialEvents?: boolean | undefined;
}

function invalid(message: string, field: string): PagerError {
  return new PagerError('InvalidRequest', message, { field });
}

const present = (s: string | undefined): s is string => s !== undefined && s !== '';

/**
 * The §4.5 list table, row by row. Throws `InvalidRequest` for the Invalid cells (and the option
 * combinations upstream's ListOptions validation forbids), `InvalidResourceVersion` for an rv this
 * server cannot have issued.
 *
 * | rvMatch      | paging              | rv unset        | rv=0                          | rv=non-zero    |
 * | unset        | limit unset         | MostRecent      | Any                           | NotOlderThan   |
 * | unset        | limit=n             | MostRecent      | Any                           | Exact          |
 * | unset        | limit=n, continue   | Continue        | Continue (invalid, tolerated) | 400            |
 * | Exact        | continue unset      | 400             | 400                           | Exact          |
 * | NotOlderThan | continue unset      | 400             | Any                           | NotOlderThan   |
 */
export function planList(p: ListParams): ListPlan {
  const rv = present(p.resourceVersion) ? p.resourceVersion : undefined;
  const match = present(p.resourceVersionMatch) ? p.resourceVersionMatch : undefined;
  const cont = present(p.continue) ? p.continue : undefined;
  const limited = p.limit !== undefined && p.limit > 0;
  const revision = rv === undefined ? undefined : parseResourceVersion(rv);

  if (p.sendInitialEvents !== undefined) {
    throw invalid(
      'sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
      'sendInitialEvents',
    );
  }
  if (match !== undefined) {
    if (match !== 'Exact' && match !== 'NotOlderThan') {
      throw invalid(
        `resourceVersionMatch: Unsupported value: "${match}": supported values: "Exact", "NotOlderThan"`,
        'resourceVersionMatch',
      );
    }
    if (cont !== undefined) {
      throw invalid(
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided',
        'resourceVersionMatch',
      );
    }
    if (revision === undefined) {
      throw invalid(
        'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
        'resourceVersionMatch',
      );
    }
    if (match === 'Exact') {
      if (revision === 0) {
        throw invalid(
          'resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
          'resourceVersionMatch',
        );
      }
      return { kind: 'Exact', revision };
    }
    return revision === 0 ? { kind: 'Any' } : { kind: 'NotOlderThan', revision };
  }

  if (cont !== undefined) {
    if (revision !== undefined && revision !== 0) {
      throw invalid('specifying resource version is not allowed when using continue', 'resourceVersion');
    }
    return { kind: 'Continue', token: cont };
  }
  if (revision === undefined) return { kind: 'MostRecent' };
  if (revision === 0) return { kind: 'Any' };
  return limited ? { kind: 'Exact', revision } : { kind: 'NotOlderThan', revision };
}

/** The §4.5 get rule: unset → Most Recent, `0` → Any, non-zero → Not older than. */
export function planGet(resourceVersion: string | undefined): ReadPlan {
  if (!present(resourceVersion)) return { kind: 'MostRecent' };
  const revision = parseResourceVersion(resourceVersion);
  return revision === 0 ? { kind: 'Any' } : { kind: 'NotOlderThan', revision };
}

/** The query parameters of a watch request that decide where it starts. */
export interface WatchParams {
  resourceVersion?: string | undefined;
  resourceVersionMatch?: string | undefined;
  sendInitialEvents?: boolean | undefined;
  allowWatchBookmarks?: boolean | undefined;
}

/** Where a watch starts and what it sends first (spec doc 1 §4.6). */
export interface WatchPlan {
  /** `Exact`: changes after that revision only; otherwise the state at that read first (if `initialEvents`). */
  start: ReadPlan;
  /** Synthetic ADDED events for the state before the changes. */
  initialEvents: boolean;
  /** A BOOKMARK annotated `<domain>/initial-events-end` after the initial events (sendInitialEvents + bookmarks). */
  initialEventsEndBookmark: boolean;
  allowBookmarks: boolean;
}

/**
 * The §4.6 rules: unset → state at Most Recent then changes; `0` → state at Any then changes; non-zero
 * → changes after it. `sendInitialEvents` requires `resourceVersionMatch=NotOlderThan`; with it the
 * state is sent at (unset) a consistent read, (`0`) any, (non-zero) not older than that version, and
 * `false` means no initial state (start at that version, or now).
 */
export function planWatch(p: WatchParams): WatchPlan {
  const rv = present(p.resourceVersion) ? p.resourceVersion : undefined;
  const match = present(p.resourceVersionMatch) ? p.resourceVersionMatch : undefined;
  const revision = rv === undefined ? undefined : parseResourceVersion(rv);
  const allowBookmarks = p.allowWatchBookmarks ?? false;
  if (p.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') {
      throw invalid(
        'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
        'resourceVersionMatch',
      );
    }
    const start: ReadPlan =
      revision === undefined
        ? { kind: 'MostRecent' }
        : revision === 0
          ? { kind: 'Any' }
          : { kind: 'NotOlderThan', revision };
    if (p.sendInitialEvents) {
      return { start, initialEvents: true, initialEventsEndBookmark: allowBookmarks, allowBookmarks };
    }
    // sendInitialEvents=false: no state, start at the given version (or now).
    return {
      start: revision === undefined || revision === 0 ? { kind: 'MostRecent' } : { kind: 'Exact', revision },
      initialEvents: false,
      initialEventsEndBookmark: false,
      allowBookmarks,
    };
  }
  if (match !== undefined) {
    if (match !== 'NotOlderThan') {
      throw invalid(
        `resourceVersionMatch: Unsupported value: "${match}": supported values: "NotOlderThan"`,
        'resourceVersionMatch',
      );
    }
    throw invalid(
      'resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      'resourceVersionMatch',
    );
  }
  if (revision === undefined) {
    return {
      start: { kind: 'MostRecent' },
      initialEvents: true,
      initialEventsEndBookmark: false,
      allowBookmarks,
    };
  }
  if (revision === 0) {
    return { start: { kind: 'Any' }, initialEvents: true, initialEventsEndBookmark: false, allowBookmarks };
  }
  return {
    start: { kind: 'Exact', revision },
    initialEvents: false,
    initialEventsEndBookmark: false,
    allowBookmarks,
  };
}
