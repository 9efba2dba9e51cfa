import { jsonCodec } from '@orchard/codecs';
import type { ApiObject, StoredObject } from '@orchard/meta';
import { deepFreeze, hasBrand, isJsonObject, jsonEqual } from '@orchard/meta/internal';
import type { KeyValue, Store, StoreEvent } from '@orchard/store';
import { encodedOnce } from '@orchard/watch-cache';
import { SharedValues } from './shared-values.js';
import { withResourceVersion } from './stored-json.js';

/**
 * The typed object layer over a `Store`: keys, serialization and resourceVersion. It knows nothing
 * of HTTP; store errors pass through unchanged (the server maps them in `toApiError`).
 *
 * Key layout: `/<group>/<resource>/<namespace>/<name>` (core group = `core`, cluster-scoped objects
 * have no namespace segment). Objects are stored as JSON without `metadata.resourceVersion`; the
 * version is the key's `modRevision`, set on every read (as upstream's etcd3 store does).
 */
export interface ObjectKeyParts {
  readonly group: string;
  readonly resource: string;
  /** '' for cluster-scoped resources, or for a list across all namespaces. */
  readonly namespace: string;
}

/**
 * A stored value that cannot be decoded, or (encryption at rest) cannot be decrypted. The
 * unsafe-delete path of the spec exists for these.
 */
export class UndecodableObjectError extends Error {
  readonly orchardUndecodableObject = true as const;
  readonly key: string;
  /** `untransformable`: no encryption provider could read the bytes; `undecodable`: they are not an object. */
  readonly failure: 'undecodable' | 'untransformable';
  /** For `untransformable`: why no provider could read it (`no matching prefix found` …). */
  readonly transformError: string | undefined;
  constructor(key: string, cause: string, failure: 'undecodable' | 'untransformable' = 'undecodable') {
    // A decryption failure carries upstream's corrupt-object wording (StorageError code 7).
    super(
      failure === 'untransformable'
        ? `StorageError: corrupt object, Code: 7, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: data from the storage is not transformable revision=0: ${cause}`
        : `failed to decode the object stored at ${key}: ${cause}`,
    );
    this.name = 'UndecodableObjectError';
    this.key = key;
    this.failure = failure;
    this.transformError = failure === 'untransformable' ? cause : undefined;
  }
}

/** Whether `e` is an `UndecodableObjectError` (a stored value that cannot be decoded). */
export function isUndecodableObjectError(e: unknown): e is UndecodableObjectError {
  return hasBrand(e, 'orchardUndecodableObject');
}

/** A store change decoded to API objects, with the previous object for selector transitions. */
export interface ObjectWatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly object: StoredObject;
  /** The object before this change (for selector transitions), when there was one. */
  readonly previous?: StoredObject;
  readonly revision: number;
}

export interface ObjectList {
  readonly items: StoredObject[];
  readonly revision: number;
  /** Objects remaining under the prefix after this page. */
  readonly remaining: number;
  /** The key of the last item returned (for continue tokens). */
  readonly lastKey: string | undefined;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * API objects over a byte `Store`: keys per resource, storage encoding, and values that cannot be
 * decoded surfaced as typed errors.
 */
export class ObjectStore {
  /** Shared decoded objects by `<modRevision> <key>`, oldest first (see `decodeShared`). */
  private readonly shared = new Map<string, StoredObject>();
  /** The parts that repeat across shared objects (managedFields sets, labels…), held once. */
  private readonly sharedValues = new SharedValues();
  /** Decoded objects of bytes being written, by the bytes (see `primeBytes`). */
  private readonly pending = new WeakMap<Uint8Array, (modRevision: number) => StoredObject>();

  constructor(readonly store: Store) {}

  /**
   * Parse each write once (issue 18): the one decoded, frozen object of a stored revision, shared
   * by its readers that never mutate (the write's own result, the watch caches, the lifecycle
   * controllers) instead of a decode each. A revision's value is fixed, so `<modRevision> <key>`
   * names it on every backend; the last `maxSharedObjects` revisions decoded are kept (they are
   * read within moments of the write), so memory stays bounded. The parts that repeat across
   * objects (a manager's fieldsV1 set, label maps, timestamps) are shared between them (`SharedValues`).
   */
  decodeShared(kv: KeyValue): StoredObject {
    if (kv.transformError !== undefined) return this.decode(kv);
    const id = `${kv.modRevision} ${kv.key}`;
    const hit = this.shared.get(id);
    if (hit) return hit;
    const build = this.pending.get(kv.value);
    if (build) {
      const built = build(kv.modRevision);
      this.remember(id, built);
      return built;
    }
    const obj = this.decodeHeld(kv);
    this.sharedValues.compact(obj);
    deepFreeze(obj);
    this.remember(id, obj);
    return obj;
  }

  /**
   * Makes `build(kv.modRevision)` the shared decoded object of `kv` (what `decodeShared(kv)` returns
   * from now on), for a writer that builds it without parsing: it must be deep-frozen and equal, key
   * order included, to what decoding `kv.value` gives (the default RBAC objects,
   * `rbac/default-policy.ts`). Not built when readers already hold one (`primeBytes`).
   */
  primeShared(kv: KeyValue, build: (modRevision: number) => StoredObject): void {
    const id = `${kv.modRevision} ${kv.key}`;
    if (kv.transformError === undefined && !this.shared.has(id)) this.remember(id, build(kv.modRevision));
  }

  /**
   * `primeShared` for bytes about to be written: a reader that decodes the revision holding these
   * very bytes (same `Uint8Array`, as the memory store hands them to its watchers) before the
   * writer's `primeShared` gets `build(modRevision)` instead of a parse. `build` must give what
   * decoding the bytes at that revision gives (deep-frozen, key order included). Without a store
   * that keeps the array (etcd, encryption at rest) readers decode as usual.
   */
  primeBytes(value: Uint8Array, build: (modRevision: number) => StoredObject): void {
    this.pending.set(value, build);
  }

  private remember(id: string, obj: StoredObject): void {
    if (this.shared.size >= maxSharedObjects) {
      const oldest = this.shared.keys().next().value;
      if (oldest !== undefined) this.shared.delete(oldest);
    }
    this.shared.set(id, obj);
  }

  /**
   * `decode` for an object held long (the shared ones): the version is parsed with the object
   * (`withResourceVersion`) instead of added after, which would give the object's metadata a
   * separate property array (~32 B each). Same object, same bytes; anything unusual (a value that
   * does not parse, a repeated `metadata`) takes `decode`'s path.
   */
  private decodeHeld(kv: KeyValue): StoredObject {
    const rv = String(kv.modRevision);
    const text = withResourceVersion(decoder.decode(kv.value), rv);
    if (text === undefined) return this.decode(kv);
    let obj: StoredObject;
    try {
      obj = JSON.parse(text) as StoredObject;
    } catch {
      return this.decode(kv);
    }
    if (typeof obj !== 'object' || obj === null || !isJsonObject(obj.metadata)) return this.decode(kv);
    if (obj.metadata.resourceVersion !== rv) obj.metadata.resourceVersion = rv;
    return obj;
  }

  /** The key prefix of a collection: `/<group>/<resource>/` or `/<group>/<resource>/<ns>/`. */
  prefix(parts: ObjectKeyParts): string {
    const g = parts.group === '' ? 'core' : parts.group;
    return parts.namespace === ''
      ? `/${g}/${parts.resource}/`
      : `/${g}/${parts.resource}/${parts.namespace}/`;
  }

  /** The group and resource a key belongs to (`''` for the core group), the inverse of `prefix`. */
  static groupResourceOf(key: string): { group: string; resource: string } | undefined {
    const m = /^\/([^/]+)\/([^/]+)\//.exec(key);
    if (!m) return undefined;
    return { group: m[1] === 'core' ? '' : (m[1] as string), resource: m[2] as string };
  }

  key(parts: ObjectKeyParts, name: string): string {
    return `${this.prefix(parts)}${name}`;
  }

  encode(obj: ApiObject): Uint8Array {
    return encoder.encode(storedText(obj));
  }

  decode(kv: KeyValue): StoredObject {
    if (kv.transformError !== undefined)
      throw new UndecodableObjectError(kv.key, kv.transformError, 'untransformable');
    let obj: StoredObject;
    try {
      obj = JSON.parse(decoder.decode(kv.value)) as StoredObject;
    } catch (e) {
      throw new UndecodableObjectError(kv.key, (e as Error).message);
    }
    if (
      typeof obj !== 'object' ||
      obj === null ||
      typeof obj.metadata !== 'object' ||
      obj.metadata === null
    ) {
      throw new UndecodableObjectError(kv.key, 'not an object with metadata');
    }
    obj.metadata.resourceVersion = String(kv.modRevision);
    return obj;
  }

  async get(
    key: string,
    atRevision?: number,
  ): Promise<{ object: StoredObject | undefined; revision: number }> {
    const r = await this.store.get(key, atRevision === undefined ? {} : { atRevision });
    return { object: r.kv ? this.decode(r.kv) : undefined, revision: r.revision };
  }

  async list(
    prefix: string,
    options: { atRevision?: number; limit?: number; startKey?: string } = {},
  ): Promise<ObjectList> {
    const r = await this.store.list(prefix, options);
    return {
      items: r.kvs.map((kv) => this.decode(kv)),
      revision: r.revision,
      remaining: r.remaining,
      lastKey: r.kvs.at(-1)?.key,
    };
  }

  /**
   * Creates the object; rejects with StoreError `AlreadyExists`. `shared`: the result is the frozen
   * object the watch caches and controllers get for this revision (`decodeShared`); the caller
   * must not mutate it.
   */
  async create(key: string, obj: ApiObject, options: { shared?: boolean } = {}): Promise<StoredObject> {
    const text = storedText(obj);
    const kv = await this.store.create(key, encoder.encode(text));
    if (!options.shared) return this.decode(kv);
    const shared = this.decodeShared(kv);
    if (kv.transformError === undefined) keepJsonBytes(shared, text, kv.modRevision);
    return shared;
  }

  /**
   * Compare-and-swap update (upstream `GuaranteedUpdate`): `tryUpdate` gets the decoded current
   * object and returns the new one; it re-runs after a lost race, so it must be pure.
   * `expectedRevision` makes the write conditional (409 when stale).
   */
  async update(
    key: string,
    tryUpdate: (current: StoredObject) => ApiObject | Promise<ApiObject>,
    expectedRevision?: number,
  ): Promise<StoredObject> {
    // As upstream's GuaranteedUpdate, a write that changes nothing is not made: the object keeps
    // its resourceVersion and watchers see no event (server-side apply relies on it).
    let unchanged: KeyValue | undefined;
    try {
      const kv = await this.store.update(
        key,
        async (current) => {
          const bytes = this.encode(await tryUpdate(this.decode(current)));
          // A stale value (read by an old key or provider) is written anyway: that write re-encrypts it.
          if (current.stale !== true && sameJson(bytes, current.value)) {
            unchanged = current;
            throw noChange;
          }
          return bytes;
        },
        expectedRevision === undefined ? {} : { expectedRevision },
      );
      return this.decode(kv);
    } catch (e) {
      if (e === noChange && unchanged !== undefined) return this.decode(unchanged);
      throw e;
    }
  }

  /** Deletes; `check` runs on the current object (preconditions) and may throw. Returns the deleted object. */
  async delete(
    key: string,
    check?: (current: StoredObject) => void,
    expectedRevision?: number,
  ): Promise<StoredObject> {
    const kv = await this.store.delete(key, {
      ...(check ? { check: (cur: KeyValue) => check(this.decode(cur)) } : {}),
      ...(expectedRevision === undefined ? {} : { expectedRevision }),
    });
    // The deleted object carries the deletion revision as its resourceVersion (as upstream's DELETED event).
    return this.decode(kv);
  }

  /** Object events under `prefix` after `fromRevision`. Rejects with StoreError `Compacted` when history is gone. */
  async *watch(prefix: string, fromRevision: number, signal?: AbortSignal): AsyncGenerator<ObjectWatchEvent> {
    const events = this.store.watch(prefix, signal ? { fromRevision, signal } : { fromRevision });
    for await (const ev of events) yield this.toObjectEvent(ev);
  }

  private toObjectEvent(ev: StoreEvent): ObjectWatchEvent {
    const previous = ev.prevKv ? this.decode(ev.prevKv) : undefined;
    if (ev.type === 'delete') {
      const object = this.decode(ev.kv);
      object.metadata.resourceVersion = String(ev.revision);
      return previous
        ? { type: 'DELETED', object, previous, revision: ev.revision }
        : { type: 'DELETED', object, revision: ev.revision };
    }
    const object = this.decode(ev.kv);
    const type = ev.kv.createRevision === ev.kv.modRevision ? 'ADDED' : 'MODIFIED';
    return previous
      ? { type, object, previous, revision: ev.revision }
      : { type, object, revision: ev.revision };
  }
}

const noChange = new Error('no change');

/** The stored JSON of `obj`: the object without `metadata.resourceVersion` (the key's revision is). */
function storedText(obj: ApiObject): string {
  // A rest copy, not a spread and a `delete`: the deletion turned the copy's metadata into a
  // dictionary, which JSON.stringify walks more slowly. Same keys, same order.
  const { resourceVersion: _, ...metadata } = obj.metadata ?? {};
  return JSON.stringify({ ...obj, metadata });
}

/**
 * Keeps the JSON bytes of a just-created shared object beside it (`encodedOnce`, what its create
 * response and its watch events are encoded from), made from the text just written instead of a
 * second `JSON.stringify`. The shared object of that revision is the parse of exactly this text
 * with its version written in (`decodeHeld`: the memory store hands its readers the same bytes,
 * etcd and encryption at rest give back the bytes written), and a parse of JSON.stringify's output
 * serializes back to the same text, so the bytes are what `jsonCodec.encode(shared)` gives. When
 * the version cannot be written into the text (the object was decoded another way) nothing is kept.
 */
function keepJsonBytes(shared: StoredObject, text: string, modRevision: number): void {
  const withVersion = withResourceVersion(text, String(modRevision));
  if (withVersion !== undefined) encodedOnce(shared, jsonCodec, () => encoder.encode(withVersion));
}

/** How many recently decoded revisions `decodeShared` keeps. */
const maxSharedObjects = 1024;

/** JSON documents equal as values (key order aside). */
function sameJson(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength === b.byteLength && a.every((x, i) => x === b[i])) return true;
  try {
    return jsonEqual(JSON.parse(decoder.decode(a)), JSON.parse(decoder.decode(b)));
  } catch {
    return false;
  }
}
