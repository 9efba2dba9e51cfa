import type { StoredObject } from '@orchard/meta';
import { isStoreError, type KeyValue } from '@orchard/store';
import { createObservingControllers } from '../controllers/controllers.js';
import type { ObservingController } from '../controllers/service-account-controller.js';
import type { ServerState } from '../state.js';
import { deletionLifecycleStep } from './finalizers.js';
import { createGarbageCollector, type GarbageCollector } from './garbage-collector.js';
import { createNamespaceController, type NamespaceController } from './namespace-controller.js';
import { type ObservedObject, parseObjectKey } from './observed.js';

/** The running lifecycle machinery of one server. */
export interface Lifecycle {
  /** Resolves when the controllers have read the store and are following its events. */
  readonly started: Promise<void>;
  /**
   * Resolves when the controllers have seen every store write made before the call and have
   * nothing queued or running (tests, benchmarks).
   */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Events handled between two yields to the event loop. */
const eventsPerTurn = 256;

/**
 * Installs the object lifecycle into a server: the `deletion-lifecycle` write step (after
 * `object-meta`) and, unless `lifecycleControllers` is false, the namespace controller and the
 * garbage collector, fed by ONE watch of the whole store (every resource type, custom ones
 * included). The watch loop and the controllers' queues run beside request handling and yield to
 * the event loop regularly; after a compaction gap the controllers relist and resync.
 */
export function installLifecycle(state: ServerState): Lifecycle {
  const pipeline = state.writePipeline;
  if (!pipeline.names().includes(deletionLifecycleStep.name)) {
    if (pipeline.names().includes('object-meta')) pipeline.insertAfter('object-meta', deletionLifecycleStep);
    else pipeline.append(deletionLifecycleStep);
  }
  if (!state.options.lifecycleControllers) {
    return { started: Promise.resolve(), idle: async () => {}, stop: async () => {} };
  }
  const abort = new AbortController();
  const gc: GarbageCollector = createGarbageCollector(state);
  const namespaces: NamespaceController = createNamespaceController(state);
  // Controllers that only follow events (default service accounts, bootstrap tokens).
  const followers: ObservingController[] = createObservingControllers(state);
  let markStarted: () => void = () => {};
  const started = new Promise<void>((r) => {
    markStarted = r;
  });

  const toObserved = (type: 'put' | 'delete', kv: KeyValue): ObservedObject | undefined => {
    const parts = parseObjectKey(kv.key);
    if (!parts) return undefined;
    let object: StoredObject;
    try {
      object = state.objects.decode(kv);
    } catch {
      // Undecodable values are the unsafe-delete path's business; the controllers skip them, but
      // their removal still tells the namespace controller that content left (no uid: the GC ignores it).
      if (type !== 'delete') return undefined;
      object = {
        metadata: {
          name: parts.name,
          uid: '',
          resourceVersion: String(kv.modRevision),
          ...(parts.namespace ? { namespace: parts.namespace } : {}),
        },
      };
    }
    return {
      type,
      key: kv.key,
      group: parts.group,
      resource: parts.resource,
      namespace: parts.namespace,
      object,
    };
  };
  /** The store revision the controllers have observed up to. */
  let observed = 0;
  const dispatch = (ev: ObservedObject) => {
    gc.observe(ev);
    namespaces.observe(ev);
    for (const f of followers) f.observe(ev);
  };

  const run = async (): Promise<void> => {
    while (!abort.signal.aborted) {
      let revision: number;
      try {
        gc.reset();
        const list = await state.store.list('/');
        revision = list.revision;
        observed = Math.max(observed, revision);
        let n = 0;
        for (const kv of list.kvs) {
          const ev = toObserved('put', kv);
          if (ev) dispatch(ev);
          if (++n % eventsPerTurn === 0) await new Promise<void>((r) => setImmediate(r));
        }
        gc.resync();
        markStarted();
        let seen = 0;
        for await (const ev of state.store.watch('/', { fromRevision: revision, signal: abort.signal })) {
          const o = toObserved(ev.type, ev.kv);
          if (o) dispatch(o);
          observed = ev.revision;
          if (++seen % eventsPerTurn === 0) await new Promise<void>((r) => setImmediate(r));
        }
        return;
      } catch (e) {
        if (abort.signal.aborted) return;
        if (!isStoreError(e, 'Compacted'))
          state.log.error('lifecycle controllers: watch failed, relisting', e);
        await new Promise<void>((r) => setTimeout(r, 100).unref?.());
      }
    }
  };
  const loop = run().finally(markStarted);

  return {
    started,
    async idle() {
      await started;
      const target = await state.store.currentRevision();
      while (observed < target && !abort.signal.aborted) await new Promise<void>((r) => setTimeout(r, 1));
      // Settle: an event may queue work on the other controller.
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((r) => setImmediate(r));
        await Promise.all([gc.idle(), namespaces.idle(), ...followers.map((f) => f.idle())]);
      }
    },
    async stop() {
      abort.abort();
      await Promise.all([gc.stop(), namespaces.stop(), ...followers.map((f) => f.stop())]);
      await loop.catch(() => {});
    },
  };
}
