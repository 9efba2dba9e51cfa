import type { StoredObject } from '@orchard/meta';
import { followStoreWatch, isStoreError, type KeyValue } from '@orchard/store';
import { createObservingControllers } from '../controllers/controllers.js';
import { defaultLeaderElectionTimings, startLeaderElection } from '../controllers/leader-election.js';
import { controllerLeaseName, createLeaseLock } from '../controllers/lease-lock.js';
import type { ObservingController } from '../controllers/service-account-controller.js';
import type { ServerState } from '../state.js';
import { deletionLifecycleStep } from './finalizers.js';
import { createGarbageCollector, type GarbageCollector } from './garbage-collector.js';
import { createNamespaceController, type NamespaceController } from './namespace-controller.js';
import { type ObservedObject, parseObjectKey } from './observed.js';

/** The running lifecycle machinery of one server. */
export interface Lifecycle {
  /** Resolves when the controllers have first read the store and are following its events (never, on a server that does not lead). */
  readonly started: Promise<void>;
  /** Whether this server runs the controllers now (always true without leader election). */
  isLeader(): boolean;
  /** The Lease holder last observed ('' when released); undefined without leader election. */
  leader(): string | undefined;
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
 * the event loop regularly; after a compaction gap the controllers relist and resync. With
 * `leaderElection` the controllers (and the ones `createObservingControllers` adds) run only while
 * this server holds the controllers' Lease: started afresh (list, then watch) on acquiring it,
 * stopped before it is released or when it is lost.
 */
export function installLifecycle(state: ServerState): Lifecycle {
  const pipeline = state.writePipeline;
  if (!pipeline.names().includes(deletionLifecycleStep.name)) {
    if (pipeline.names().includes('object-meta')) pipeline.insertAfter('object-meta', deletionLifecycleStep);
    else pipeline.append(deletionLifecycleStep);
  }
  if (!state.options.lifecycleControllers) {
    return {
      started: Promise.resolve(),
      isLeader: () => false,
      leader: () => undefined,
      idle: async () => {},
      stop: async () => {},
    };
  }
  const toObserved = (type: 'put' | 'delete', kv: KeyValue): ObservedObject | undefined => {
    const parts = parseObjectKey(kv.key);
    if (!parts) return undefined;
    let object: StoredObject;
    try {
      object = state.objects.decodeShared(kv);
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
  /** The controllers while this server leads: they list the store, then follow its watch. */
  interface Session {
    readonly abort: AbortController;
    readonly started: Promise<void>;
    /** The store revision the controllers have observed up to. */
    observed: number;
    readonly controllers: {
      gc: GarbageCollector;
      namespaces: NamespaceController;
      followers: ObservingController[];
    };
    loop: Promise<void>;
  }
  let session: Session | undefined;
  /** Resolves when the previous session has stopped (a new one starts only after). */
  let ended: Promise<void> = Promise.resolve();
  let markFirstStarted: () => void = () => {};
  const firstStarted = new Promise<void>((r) => {
    markFirstStarted = r;
  });

  const openSession = (): Session => {
    let markStarted: () => void = () => {};
    const s: Session = {
      abort: new AbortController(),
      started: new Promise<void>((r) => {
        markStarted = () => {
          r();
          markFirstStarted();
        };
      }),
      observed: 0,
      controllers: {
        gc: createGarbageCollector(state, {}, () => s.observed),
        namespaces: createNamespaceController(state),
        // Controllers that only follow events (default service accounts, bootstrap tokens).
        followers: createObservingControllers(state),
      },
      loop: Promise.resolve(),
    };
    const { gc, namespaces, followers } = s.controllers;
    const dispatch = (ev: ObservedObject) => {
      gc.observe(ev);
      namespaces.observe(ev);
      for (const f of followers) f.observe(ev);
    };
    const run = async (): Promise<void> => {
      while (!s.abort.signal.aborted) {
        try {
          gc.reset();
          const list = await state.store.list('/');
          s.observed = Math.max(s.observed, list.revision);
          let n = 0;
          for (const kv of list.kvs) {
            if (s.abort.signal.aborted) return;
            const ev = toObserved('put', kv);
            if (ev) dispatch(ev);
            if (++n % eventsPerTurn === 0) await new Promise<void>((r) => setImmediate(r));
          }
          gc.resync();
          markStarted();
          let seen = 0;
          const events = state.store.watch('/', { fromRevision: list.revision, signal: s.abort.signal });
          await followStoreWatch(events, (ev) => {
            const o = toObserved(ev.type, ev.kv);
            if (o) dispatch(o);
            s.observed = ev.revision;
            return ++seen % eventsPerTurn === 0 ? new Promise<void>((r) => setImmediate(r)) : undefined;
          });
          return;
        } catch (e) {
          if (s.abort.signal.aborted) return;
          if (!isStoreError(e, 'Compacted'))
            state.log.error('lifecycle controllers: watch failed, relisting', e);
          await new Promise<void>((r) => setTimeout(r, 100).unref?.());
        }
      }
    };
    s.loop = run().finally(markStarted);
    return s;
  };

  const closeSession = async (s: Session): Promise<void> => {
    s.abort.abort();
    const { gc, namespaces, followers } = s.controllers;
    await Promise.all([gc.stop(), namespaces.stop(), ...followers.map((f) => f.stop())]);
    await s.loop.catch(() => {});
  };

  const lead = () => {
    // A session that is still stopping finishes first: two sets of controllers never overlap.
    ended = ended.then(() => {
      if (!stopping && session === undefined) session = openSession();
    });
  };
  const unlead = (): Promise<void> => {
    ended = ended.then(async () => {
      const s = session;
      session = undefined;
      if (s) await closeSession(s);
    });
    return ended;
  };
  let stopping = false;
  const election = state.options.leaderElection;
  const elector =
    election === undefined
      ? undefined
      : startLeaderElection(
          createLeaseLock(
            state.objects,
            state.flavor,
            state.flavor.systemNamespace,
            controllerLeaseName(state.flavor),
          ),
          { ...defaultLeaderElectionTimings, ...election },
          { onStartedLeading: lead, onStoppedLeading: unlead },
          (line) => state.log.info(line),
        );
  if (!elector) lead();

  return {
    started: firstStarted,
    isLeader: () => (elector ? elector.isLeader() : true),
    leader: () => (elector ? elector.leader() : undefined),
    async idle() {
      await ended;
      const s = session;
      if (!s) return;
      await s.started;
      const target = await state.store.currentRevision();
      while (s.observed < target && !s.abort.signal.aborted) await new Promise<void>((r) => setTimeout(r, 1));
      const { gc, namespaces, followers } = s.controllers;
      // Settle: an event may queue work on the other controller.
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((r) => setImmediate(r));
        await Promise.all([gc.idle(), namespaces.idle(), ...followers.map((f) => f.idle())]);
      }
    },
    async stop() {
      stopping = true;
      // The elector stops the session (onStoppedLeading) before it releases the Lease.
      if (elector) await elector.stop();
      await unlead();
    },
  };
}
