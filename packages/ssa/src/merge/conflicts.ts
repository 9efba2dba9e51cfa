import { hasBrand } from '@orchard/meta/internal';
import { FieldSet } from '../fieldpath/field-set.js';
import { formatPath, type Path } from '../fieldpath/path-element.js';

/** One field an apply would change that another manager owns. */
export interface Conflict {
  /** The other manager's key in the managed-sets map. */
  readonly manager: string;
  readonly path: Path;
}

/**
 * Thrown by `applyFields` when the intent changes fields owned by other managers and `force` is
 * off. Conflicts are grouped by manager, each manager's paths in field-set order.
 */
export class MergeConflicts extends Error {
  readonly orchardSsaMergeConflicts = true as const;
  constructor(readonly conflicts: readonly Conflict[]) {
    super(formatConflicts(conflicts, (m) => JSON.stringify(m)));
    this.name = 'MergeConflicts';
  }

  /** The conflicting paths as a set. */
  toSet(): FieldSet {
    return FieldSet.of(...this.conflicts.map((c) => c.path));
  }
}

export function isMergeConflicts(e: unknown): e is MergeConflicts {
  return hasBrand(e, 'orchardSsaMergeConflicts');
}

/**
 * Upstream's conflict text: `conflict with "A": .spec.replicas` for one conflict, else one
 * `conflicts with "A":` block per manager (sorted by manager key) listing `- <path>` lines.
 */
export function formatConflicts(
  conflicts: readonly Conflict[],
  printManager: (manager: string) => string,
): string {
  if (conflicts.length === 1) {
    const c = conflicts[0] as Conflict;
    return `conflict with ${printManager(c.manager)}: ${formatPath(c.path)}`;
  }
  const byManager = new Map<string, Path[]>();
  for (const c of conflicts) {
    const l = byManager.get(c.manager);
    if (l) l.push(c.path);
    else byManager.set(c.manager, [c.path]);
  }
  const lines: string[] = [];
  for (const m of [...byManager.keys()].sort()) {
    lines.push(`conflicts with ${printManager(m)}:`);
    for (const p of byManager.get(m) as Path[]) lines.push(`- ${formatPath(p)}`);
  }
  return lines.join('\n');
}
