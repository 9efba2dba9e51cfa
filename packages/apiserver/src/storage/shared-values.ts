import type { StoredObject } from '@orchard/meta';
import { deepFreeze, isJsonObject } from '@orchard/meta/internal';

/** How many distinct values an `SharedValues` table keeps per kind (oldest dropped first). */
const maxEntries = 4096;
/** Objects whose JSON is longer than this are not shared (the table's memory stays bounded). */
const maxSharedJsonLength = 4096;

/**
 * One table of interned values: the first value seen for a key is handed to every later caller
 * with the same key. Bounded: past `maxEntries` the oldest key is dropped (values already handed
 * out stay valid, later ones are interned afresh).
 */
class InternTable<V> {
  private readonly byKey = new Map<string, V>();

  get(key: string): V | undefined {
    return this.byKey.get(key);
  }

  intern(key: string, value: V): V {
    const hit = this.byKey.get(key);
    if (hit !== undefined) return hit;
    if (this.byKey.size >= maxEntries) {
      const oldest = this.byKey.keys().next().value;
      if (oldest !== undefined) this.byKey.delete(oldest);
    }
    this.byKey.set(key, value);
    return value;
  }
}

type Json = Record<string, unknown>;

/** The string fields of a managedFields entry that repeat across objects. */
const managedStringFields = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType'] as const;

/**
 * Compact decoded objects (issue 18's memory target): the parts of stored objects that repeat
 * across many of them — a manager's `fieldsV1` set (identical for every object one client wrote the
 * same fields of), label and annotation maps, manager names, timestamps (an object's creation and
 * its first manager entry share one), whole `managedFields` lists (equal for objects one manager
 * wrote the same fields of in the same second) — are held once, frozen, and shared by every decoded object
 * that has them, instead of one copy per object. Only for the frozen shared objects of
 * `ObjectStore.decodeShared`: a shared part is never mutated, and it serializes to the same bytes
 * as the copy it replaces (it is chosen by its exact JSON, key order included).
 */
export class SharedValues {
  private readonly strings = new InternTable<string>();
  private readonly objects = new InternTable<object>();

  /** Replaces the repeating parts of `obj` (decoded, not yet frozen) by their shared copies. */
  compact(obj: StoredObject): void {
    const meta = obj.metadata as Json;
    this.shareString(meta, 'creationTimestamp');
    this.shareObject(meta, 'labels');
    this.shareObject(meta, 'annotations');
    const managed = meta.managedFields;
    if (!Array.isArray(managed) || Object.isFrozen(managed)) return;
    // One JSON.stringify per entry names it; its parts are interned only when it is new.
    const names: string[] = [];
    for (let i = 0; i < managed.length; i++) {
      const entry: unknown = managed[i];
      const json = isJsonObject(entry) && !Object.isFrozen(entry) ? JSON.stringify(entry) : undefined;
      if (json === undefined || json.length > maxSharedJsonLength) continue;
      names.push(json);
      const known = this.objects.get(json);
      if (known === undefined) {
        const fresh = entry as Json;
        for (const field of managedStringFields) this.shareString(fresh, field);
        this.shareObject(fresh, 'fieldsV1');
      }
      managed[i] = known ?? this.objects.intern(json, deepFreeze(entry as Json));
    }
    // Objects one manager wrote the same fields of in the same second have equal lists.
    const list = `[${names.join(',')}]`;
    if (names.length === managed.length && list.length <= maxSharedJsonLength)
      meta.managedFields = this.objects.intern(list, deepFreeze(managed));
  }

  private shareString(holder: Json, field: string): void {
    const v = holder[field];
    if (typeof v === 'string' && v.length <= maxSharedJsonLength) holder[field] = this.strings.intern(v, v);
  }

  private shareObject(holder: Json, field: string): void {
    const v = holder[field];
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return;
    const json = JSON.stringify(v);
    if (json.length > maxSharedJsonLength) return;
    holder[field] = this.objects.intern(json, deepFreeze(v));
  }
}
