import { type ApiObject, isApiError, nowRfc3339 } from '@orchard/meta';
import type { ResourceDefinition } from '../registry/resource.js';
import type { ServerState } from '../state.js';
import { isUndecodableObjectError, type ObjectList } from '../storage/object-store.js';
import { deleteObject } from './deletion.js';
import { finalizersOf, mutateObject } from './finalizers.js';
import type { ObservedObject } from './observed.js';
import { createWorkQueue, type WorkQueue, type WorkQueueOptions } from './work-queue.js';

export interface NamespaceControllerOptions {
  /**
   * Re-check of a namespace whose content is still there (an object held by a finalizer). Deletions
   * in the namespace re-check it at once; this is the fallback. Default 2 s.
   */
  readonly recheckMs: number;
  /** Objects read (and deleted) per page of a collection. Default 256. */
  readonly pageSize: number;
  readonly queue: Partial<WorkQueueOptions>;
}

export const defaultNamespaceControllerOptions: Readonly<NamespaceControllerOptions> = Object.freeze({
  recheckMs: 2_000,
  pageSize: 256,
  queue: Object.freeze({ workers: 2 }),
});

export interface NamespaceController {
  observe(event: ObservedObject): void;
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** The namespace condition types upstream's namespace controller maintains. */
export const namespaceConditionTypes = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
] as const;

interface NamespaceCondition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime?: string;
  reason: string;
  message: string;
}

interface ContentReport {
  /** `configmaps has 2 resource instances` per resource with objects left. */
  remaining: string[];
  remainingCount: number;
  /** finalizer → objects holding it. */
  finalizers: Map<string, number>;
  failures: string[];
}

function groupResource(def: ResourceDefinition): string {
  return def.group === '' ? def.resource : `${def.resource}.${def.group}`;
}

function conditionsFor(r: ContentReport): NamespaceCondition[] {
  const fins = [...r.finalizers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return [
    {
      type: 'NamespaceDeletionDiscoveryFailure',
      status: 'False',
      reason: 'ResourcesDiscovered',
      message: 'All resources successfully discovered',
    },
    {
      type: 'NamespaceDeletionGroupVersionParsingFailure',
      status: 'False',
      reason: 'ParsedGroupVersions',
      message: 'All legacy kube types successfully parsed',
    },
    r.failures.length > 0
      ? {
          type: 'NamespaceDeletionContentFailure',
          status: 'True',
          reason: 'ContentDeletionFailed',
          message: `Failed to delete all resource types, ${r.failures.length} remaining: ${r.failures.join(', ')}`,
        }
      : {
          type: 'NamespaceDeletionContentFailure',
          status: 'False',
          reason: 'ContentDeleted',
          message: 'All content successfully deleted, may be waiting on finalization',
        },
    r.remaining.length > 0
      ? {
          type: 'NamespaceContentRemaining',
          status: 'True',
          reason: 'SomeResourcesRemain',
          message: `Some resources are remaining: ${[...r.remaining].sort().join(', ')}`,
        }
      : {
          type: 'NamespaceContentRemaining',
          status: 'False',
          reason: 'ContentRemoved',
          message: 'All content successfully removed',
        },
    fins.length > 0
      ? {
          type: 'NamespaceFinalizersRemaining',
          status: 'True',
          reason: 'SomeFinalizersRemain',
          message: `Some content in the namespace has finalizers remaining: ${fins
            .map(([f, n]) => `${f} in ${n} resource instances`)
            .join(', ')}`,
        }
      : {
          type: 'NamespaceFinalizersRemaining',
          status: 'False',
          reason: 'ContentHasNoFinalizers',
          message: 'All content-preserving finalizers finished',
        },
  ];
}

/**
 * The namespace controller (spec doc 1 §2.1: namespace-scoped objects are deleted with their
 * namespace). For a namespace with `deletionTimestamp` whose `spec.finalizers` holds the flavor's
 * finalizer: delete every object of every namespaced type in the registry (built-in and custom,
 * Background propagation, finalizers honoured), report progress in the upstream conditions
 * (`NamespaceContentRemaining`, `NamespaceFinalizersRemaining` …), and once nothing is left remove
 * the finalizer (the `/finalize` semantics) and the namespace. Objects held by finalizers keep the
 * namespace until their controllers remove them.
 */
export function createNamespaceController(
  state: ServerState,
  input: Partial<NamespaceControllerOptions> = {},
): NamespaceController {
  const o: NamespaceControllerOptions = { ...defaultNamespaceControllerOptions, ...input };
  const terminating = new Set<string>();
  const queue: WorkQueue = createWorkQueue(
    (name) => sync(name),
    {
      onError: (item, error, dropped) =>
        state.log.error(`namespace controller: ${item}${dropped ? ' (dropped)' : ''}`, error),
      onOverflow: () => {},
    },
    o.queue,
  );

  async function deleteContent(namespace: string): Promise<ContentReport> {
    const report: ContentReport = { remaining: [], remainingCount: 0, finalizers: new Map(), failures: [] };
    for (const def of state.registry.all()) {
      if (!def.namespaced || def.virtualCreate) continue;
      const prefix = state.objects.prefix({ group: def.group, resource: def.resource, namespace });
      let left = 0;
      let startKey: string | undefined;
      // Page through the collection: a huge namespace never blocks the event loop for long.
      for (;;) {
        let page: ObjectList;
        try {
          page = await state.objects.list(prefix, { limit: o.pageSize, ...(startKey ? { startKey } : {}) });
        } catch (e) {
          if (!isUndecodableObjectError(e)) throw e;
          report.failures.push(`${groupResource(def)}: ${e.message}`);
          report.remaining.push(`${groupResource(def)} has an unreadable object`);
          report.remainingCount++;
          break;
        }
        let n = 0;
        for (const obj of page.items) {
          let still: ApiObject | undefined = obj;
          if (!obj.metadata.deletionTimestamp) {
            try {
              const r = await deleteObject(
                state,
                { def, namespace, name: obj.metadata.name },
                { propagationPolicy: 'Background', preconditions: { uid: obj.metadata.uid ?? '' } },
                obj,
              );
              still = r.deleted ? undefined : r.object;
            } catch (e) {
              if (isApiError(e, 'NotFound', 'Conflict', 'AlreadyExists')) still = undefined;
              else if (isUndecodableObjectError(e))
                report.failures.push(`${groupResource(def)}: ${e.message}`);
              else throw e;
            }
          }
          if (still) {
            left++;
            for (const f of finalizersOf(still))
              report.finalizers.set(f, (report.finalizers.get(f) ?? 0) + 1);
          }
          if (++n % 32 === 0) await new Promise<void>((r) => setImmediate(r));
        }
        await new Promise<void>((r) => setImmediate(r));
        if (page.remaining === 0 || page.lastKey === undefined) break;
        startKey = `${page.lastKey}\u0000`;
      }
      if (left > 0) {
        report.remaining.push(`${groupResource(def)} has ${left} resource instances`);
        report.remainingCount += left;
      }
    }
    return report;
  }

  async function sync(name: string): Promise<void> {
    const nsDef = state.registry.get('', 'namespaces');
    if (!nsDef) return;
    const key = state.objects.key({ group: '', resource: 'namespaces', namespace: '' }, name);
    const { object: ns } = await state.objects.get(key);
    if (!ns?.metadata.deletionTimestamp) {
      terminating.delete(name);
      return;
    }
    const uid = ns.metadata.uid ?? '';
    const specFinalizers = (ns.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
    const mine = state.flavor.namespaceFinalizer;
    if (!specFinalizers.includes(mine)) {
      // Finalized (by us or through /finalize): remove it once every spec finalizer is gone.
      if (specFinalizers.length === 0) await removeNamespace(nsDef, name, uid);
      return;
    }
    const report = await deleteContent(name);
    await mutateObject(state.objects, key, uid, (obj) => {
      const status = (obj.status ?? {}) as { conditions?: NamespaceCondition[]; phase?: string };
      const old = new Map((status.conditions ?? []).map((c) => [c.type, c]));
      const now = nowRfc3339();
      const next = conditionsFor(report).map((c) => {
        const prev = old.get(c.type);
        const same =
          prev && prev.status === c.status && prev.reason === c.reason && prev.message === c.message;
        return { ...c, lastTransitionTime: same ? (prev.lastTransitionTime ?? now) : now };
      });
      const others = (status.conditions ?? []).filter(
        (c) => !(namespaceConditionTypes as readonly string[]).includes(c.type),
      );
      const merged = [...others, ...next];
      if (
        JSON.stringify(merged) === JSON.stringify(status.conditions ?? []) &&
        status.phase === 'Terminating'
      )
        return undefined;
      obj.status = { ...status, phase: 'Terminating', conditions: merged };
      return obj;
    });
    if (report.remainingCount > 0) {
      queue.addAfter(name, o.recheckMs);
      return;
    }
    const finalized = await mutateObject(state.objects, key, uid, (obj) => {
      const spec = (obj.spec ?? {}) as { finalizers?: string[] };
      const list = spec.finalizers ?? [];
      if (!list.includes(mine)) return undefined;
      obj.spec = { ...spec, finalizers: list.filter((f) => f !== mine) };
      return obj;
    });
    const left = (finalized?.spec as { finalizers?: string[] } | undefined)?.finalizers ?? [];
    if (finalized && left.length === 0) await removeNamespace(nsDef, name, uid);
  }

  async function removeNamespace(nsDef: ResourceDefinition, name: string, uid: string): Promise<void> {
    try {
      const r = await deleteObject(state, { def: nsDef, namespace: '', name }, { preconditions: { uid } });
      if (r.deleted) terminating.delete(name);
    } catch (e) {
      if (isApiError(e, 'NotFound', 'Conflict', 'AlreadyExists')) return;
      throw e;
    }
  }

  return {
    observe(ev) {
      if (ev.group === '' && ev.resource === 'namespaces') {
        const name = ev.object.metadata.name;
        if (ev.type === 'delete') {
          terminating.delete(name);
          return;
        }
        if (ev.object.metadata.deletionTimestamp) {
          terminating.add(name);
          queue.add(name);
        }
        return;
      }
      // Content leaving a terminating namespace: check whether it is now empty.
      if (ev.type === 'delete' && ev.namespace !== '' && terminating.has(ev.namespace))
        queue.add(ev.namespace);
    },
    idle: () => queue.idle(),
    stop: () => queue.stop(),
  };
}
