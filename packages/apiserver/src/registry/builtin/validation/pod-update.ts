import { fieldErrors, type StatusCause } from '@orchard/meta';
import { cloneJson, isJsonObject, jsonEqual } from '@orchard/meta/internal';

type Obj = Record<string, unknown>;

/** What a pod update may change (upstream's `updatablePodSpecFields`, 1.32 defaults). */
const updatablePodSpecFields = [
  '`spec.containers[*].image`',
  '`spec.initContainers[*].image`',
  '`spec.activeDeadlineSeconds`',
  '`spec.tolerations` (only additions to existing tolerations)',
  '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
];

/** The first differences between two JSON values, as `-path: old` / `+path: new` lines. */
function diffLines(a: unknown, b: unknown, path: string, out: string[], max: number): void {
  if (out.length >= max || jsonEqual(a, b)) return;
  if (isJsonObject(a) && isJsonObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)]))
      diffLines(a[k], b[k], `${path}.${k}`, out, max);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) diffLines(a[i], b[i], `${path}[${i}]`, out, max);
    return;
  }
  if (a !== undefined) out.push(`-\t${path}: ${JSON.stringify(a)}`);
  if (b !== undefined) out.push(`+\t${path}: ${JSON.stringify(b)}`);
}

/** `new` with the changes a pod update may make put back to `old`'s values. */
function withoutAllowedChanges(next: Obj, old: Obj): Obj {
  const munged = cloneJson(next) as Obj;
  for (const key of ['containers', 'initContainers'] as const) {
    const now = munged[key];
    const before = old[key];
    if (!Array.isArray(now) || !Array.isArray(before) || now.length !== before.length) continue;
    now.forEach((c, i) => {
      const was = before[i];
      if (isJsonObject(c) && isJsonObject(was)) {
        if (was.image === undefined) delete c.image;
        else c.image = was.image;
      }
    });
  }
  const deadline = (v: unknown) => (typeof v === 'number' ? v : undefined);
  const oldDeadline = deadline(old.activeDeadlineSeconds);
  const newDeadline = deadline(munged.activeDeadlineSeconds);
  // It may be set, or lowered, never removed or raised.
  if (newDeadline !== undefined && (oldDeadline === undefined || newDeadline <= oldDeadline)) {
    if (oldDeadline === undefined) delete munged.activeDeadlineSeconds;
    else munged.activeDeadlineSeconds = oldDeadline;
  }
  const oldTolerations = Array.isArray(old.tolerations) ? old.tolerations : [];
  const newTolerations = Array.isArray(munged.tolerations) ? munged.tolerations : [];
  if (oldTolerations.every((t) => newTolerations.some((n) => jsonEqual(n, t)))) {
    if (old.tolerations === undefined) delete munged.tolerations;
    else munged.tolerations = cloneJson(old.tolerations);
  }
  const oldGrace = old.terminationGracePeriodSeconds;
  if (typeof oldGrace === 'number' && oldGrace < 0 && munged.terminationGracePeriodSeconds === 1)
    munged.terminationGracePeriodSeconds = oldGrace;
  return munged;
}

/**
 * Upstream's `ValidatePodUpdate` restriction: a pod's spec is fixed once created but for container
 * images, a lower active deadline, added tolerations and a negative grace period set to 1. Any other
 * change is one `Forbidden` cause on `spec` naming what may change, followed by what differs.
 */
export function validatePodSpecUpdate(next: unknown, old: unknown): StatusCause[] {
  if (!isJsonObject(next) || !isJsonObject(old)) return [];
  const munged = withoutAllowedChanges(next, old);
  if (jsonEqual(munged, old)) return [];
  const lines: string[] = [];
  diffLines(old, munged, 'spec', lines, 20);
  return [
    fieldErrors.forbidden(
      'spec',
      `pod updates may not change fields other than ${updatablePodSpecFields.join(',')}\n${lines.join('\n')}`,
    ),
  ];
}
