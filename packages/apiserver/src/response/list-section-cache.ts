import type { Codec, ListSection } from '@orchard/codecs';

/** How much a `ListSectionCache` keeps. */
export interface ListSectionLimits {
  /** Sections and sightings kept in all, least recently used dropped first. */
  readonly maxEntries: number;
  /** The bytes of all kept sections together. */
  readonly maxBytes: number;
  /** Lists with fewer items are not kept: joining them again costs little. */
  readonly minItems: number;
}

/** Defaults: 16 lists, 16 MiB, lists of 32 items or more. */
export const defaultListSectionLimits: ListSectionLimits = Object.freeze({
  maxEntries: 16,
  maxBytes: 16 * 1024 * 1024,
  minItems: 32,
});

interface Entry {
  readonly codec: Codec;
  readonly items: readonly object[];
  section?: ListSection;
}

/** What `lookup` found: a kept section, a second sighting (build one and `keep` it), or neither. */
export type ListSectionLookup =
  | { readonly kind: 'kept'; readonly section: ListSection }
  | { readonly kind: 'again'; readonly entry: object }
  | { readonly kind: 'new' };

const isNew: ListSectionLookup = Object.freeze({ kind: 'new' });

/**
 * Serialize once, for lists: the items sections (`Codec.listSection`) of recent LIST answers, reused
 * when a LIST answers with exactly the same object versions again. Watch-cache objects are frozen,
 * one per stored revision, and their bytes are kept beside them, so the same objects in the same
 * order are the same section; a repeated LIST of an unchanged collection then writes the kept
 * section between a fresh head (its resourceVersion and continue token) and end, with no copy of
 * its items. A section is built to keep only when the same items are seen a second time, so a
 * collection that changes between LISTs costs what it did (a copy of the item references).
 * Bounded by `ListSectionLimits`; the kept chunks never come from the server's chunk pool.
 */
export class ListSectionCache {
  /** Most recently used first. */
  #entries: Entry[] = [];
  #bytes = 0;

  constructor(readonly limits: ListSectionLimits = defaultListSectionLimits) {}

  /** The bytes of the kept sections. */
  get bytes(): number {
    return this.#bytes;
  }

  /** How many sections are kept. */
  get sections(): number {
    return this.#entries.filter((e) => e.section).length;
  }

  /** Looks up the section of `items` under `codec`; a first sighting is remembered. */
  lookup(codec: Codec, items: readonly object[]): ListSectionLookup {
    if (items.length < this.limits.minItems) return isNew;
    const at = this.#entries.findIndex((e) => e.codec === codec && sameItems(e.items, items));
    if (at < 0) {
      this.#add({ codec, items: [...items] });
      return isNew;
    }
    const entry = this.#entries[at] as Entry;
    if (at > 0) {
      this.#entries.splice(at, 1);
      this.#entries.unshift(entry);
    }
    return entry.section ? { kind: 'kept', section: entry.section } : { kind: 'again', entry };
  }

  /** Keeps `section` for the entry a lookup answered `again` with (unless it is too large). */
  keep(entry: object, section: ListSection): void {
    const e = entry as Entry;
    if (e.section || !this.#entries.includes(e) || section.length > this.limits.maxBytes / 4) return;
    e.section = section;
    this.#bytes += section.length;
    this.#trim();
  }

  #add(entry: Entry): void {
    this.#entries.unshift(entry);
    this.#trim();
  }

  #trim(): void {
    const { maxEntries, maxBytes } = this.limits;
    while (this.#entries.length > maxEntries || this.#bytes > maxBytes) {
      const dropped = this.#entries.pop();
      if (!dropped) return;
      if (dropped.section) this.#bytes -= dropped.section.length;
    }
  }
}

/** The same objects in the same order (the ends first: a changed collection usually differs there). */
function sameItems(a: readonly object[], b: readonly object[]): boolean {
  const n = a.length;
  if (n !== b.length || a[0] !== b[0] || a[n - 1] !== b[n - 1]) return false;
  for (let i = 1; i < n - 1; i++) if (a[i] !== b[i]) return false;
  return true;
}
