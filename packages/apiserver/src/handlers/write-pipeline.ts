import type { ApiObject, StatusCause, StoredObject } from '@orchard/meta';
import { hasBrand } from '@orchard/meta/internal';
import type { RequestContext } from '../context.js';
import type { ResourceDefinition } from '../registry/resource.js';

/** The verbs the write pipeline runs for (delete has its own path). */
export type WriteOperation = 'create' | 'update' | 'patch';

/**
 * One write in flight. Steps mutate `obj`; for update and patch they run inside the store's
 * compare-and-swap loop with `old` = the current object, so they must derive `obj` only from
 * (`body`, `old`) and may run more than once.
 */
export interface WriteRequest {
  readonly ctx: RequestContext;
  readonly def: ResourceDefinition;
  readonly operation: WriteOperation;
  /**
   * The decoded request body (object for create/update, patch document for patch). Never mutated,
   * unless `bodyOwned`.
   */
  readonly body: unknown;
  /**
   * The body was just parsed for this write alone and nothing reads it afterwards: `type-meta`
   * takes it as the object instead of a deep copy (a create that cannot be retried).
   */
  readonly bodyOwned?: boolean;
  /** The patch media type for `patch`. */
  readonly patchType: string | undefined;
  /** The object being written. */
  obj: ApiObject;
  /** The current object (update, patch); undefined for create. */
  old: StoredObject | undefined;
  /** `dryRun=All`: every step runs, nothing is persisted. */
  readonly dryRun: boolean;
  /** `fieldManager` or derived from User-Agent (spec doc 1 §4.9 item 6). */
  readonly fieldManager: string;
  /** The namespace from the URL ('' for cluster-scoped). */
  readonly namespace: string;
  /** The name from the URL ('' for create). */
  readonly name: string;
  /**
   * Side effects of steps outside the object (a Service's allocated cluster IP and node ports) to
   * take back when this write is not persisted: a later step or the store refuses it, or an update's
   * compare-and-swap re-runs the steps. Run by `undoWriteSideEffects`.
   */
  undo?: (() => Promise<void>)[];
  /**
   * A built-in kind's schema violations, left by `schema-validation` for `validation` to report in
   * the same 422 as the type's own rules (upstream's typed validation names every invalid field).
   */
  schemaCauses?: StatusCause[];
}

/**
 * Thrown by a step of an update for work that may not run inside the store's compare-and-swap (it
 * writes another key, and the store holds its write lock while the steps run): the update handler
 * runs `run()` outside it and runs the steps again; `finish(persisted)` runs once the update is
 * over, so the work can keep what the stored object uses and give back the rest.
 */
export class DeferredWriteWork extends Error {
  readonly orchardDeferredWriteWork = true as const;
  constructor(
    readonly run: () => Promise<void>,
    readonly finish: (persisted: boolean) => Promise<void>,
  ) {
    super('deferred write work');
  }
}

/** Whether `e` is a `DeferredWriteWork`. */
export function isDeferredWriteWork(e: unknown): e is DeferredWriteWork {
  return hasBrand(e, 'orchardDeferredWriteWork');
}

/** Takes back the side effects a write's steps recorded in `undo` (each once; failures are logged by the caller). */
export async function undoWriteSideEffects(w: WriteRequest | undefined): Promise<void> {
  const list = w?.undo?.splice(0) ?? [];
  for (const f of list.reverse()) await f();
}

/** A named step of every write. */
export interface WriteStep {
  readonly name: string;
  /** Operations it runs for. */
  readonly operations: readonly WriteOperation[];
  run(w: WriteRequest): void | Promise<void>;
}

/**
 * The ordered steps every write goes through before it reaches the store (`defaultWriteSteps`, plus
 * `deletion-lifecycle` after `object-meta` and the CRD controller's `crd-terminating` first):
 * `crd-terminating` → `version-in` → `type-meta` → `patch` → `schema` →
 * `object-meta` → `deletion-lifecycle` → `namespace-lifecycle` → `strategy-prepare` → `field-manager`
 * → `schema-validation` → `validation-rules` → `validation` → `rbac-escalation` → `service-allocation`
 * → `version-out`. Add a step with
 * `insertBefore`/`insertAfter` or swap one with `replace`, instead of editing handlers; a step that
 * changes the object belongs before `field-manager`, which records the request's changes in
 * `managedFields`. The dry-run gate and the store write follow the last step, in the handler.
 */
export class WritePipeline {
  private steps: WriteStep[];

  constructor(steps: readonly WriteStep[] = []) {
    this.steps = [...steps];
  }

  names(): string[] {
    return this.steps.map((s) => s.name);
  }

  private indexOf(name: string): number {
    const i = this.steps.findIndex((s) => s.name === name);
    if (i < 0)
      throw new Error(`no write step named ${JSON.stringify(name)} (have: ${this.names().join(', ')})`);
    return i;
  }

  insertBefore(name: string, step: WriteStep): this {
    this.steps.splice(this.indexOf(name), 0, step);
    return this;
  }

  insertAfter(name: string, step: WriteStep): this {
    this.steps.splice(this.indexOf(name) + 1, 0, step);
    return this;
  }

  /** Appends a step after every existing one (just before the store). */
  append(step: WriteStep): this {
    this.steps.push(step);
    return this;
  }

  replace(name: string, step: WriteStep): this {
    this.steps[this.indexOf(name)] = step;
    return this;
  }

  remove(name: string): this {
    this.steps.splice(this.indexOf(name), 1);
    return this;
  }

  async run(w: WriteRequest): Promise<void> {
    for (const step of this.steps) {
      if (!step.operations.includes(w.operation)) continue;
      // Most steps are synchronous: only a returned promise costs a turn of the microtask queue.
      const r = step.run(w);
      if (r !== undefined) await r;
    }
  }
}
