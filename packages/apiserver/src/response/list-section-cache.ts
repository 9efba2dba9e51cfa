import type { Codec, ListSection } from '@orchard/codecs';

/** How much a `ListSectionCache` keeps. */
export interface ListSectionLimits {
  /** Lists (requests) remembered in all, least recently used dropped first. */
  readonly maxEntries: number;
  /** The bytes of all kept sections together. */
  readonly maxBytes: number;
  /** Lists with fewer items are not kept: joining them again costs little. */
  readonly minItems: number;
  /**
   * Item references held in all (larger lists are not kept): what the cache can keep alive of
   * object revisions the watch cache itself has already let go.
   */
  readonly maxItems: number;
}

/** Defaults: 16 lists, 16 MiB, lists of 32 to 50,000 items. */
export const defaultListSectionLimits: ListSectionLimits = Object.freeze({
  maxEntries: 16,
  maxBytes: 16 * 1024 * 1024,
  minItems: 32,
  maxItems: 50_000,
});

interface Entry {
  /** Its key in the cache: `<media type> <request URL>`. */
  readonly id: string;
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
 * Serialize once, for lists: the items sections (`Codec.listSection`) of recent LIST answers, one
 * per request (its URL and encoding), reused when that request answers with exactly the same object
 * versions again. Watch-cache objects are frozen, one per stored revision, and their bytes are kept
 * beside them, so the same objects in the same order are the same section; a repeated LIST of an
 * unchanged collection then writes the kept section between a fresh head (its resourceVersion and
 * continue token) and end, with no copy of its items. A section is built to keep only when the same
 * items are seen a second time, so a collection that changes between LISTs costs what it did (a copy
 * of the item references, which replaces the request's previous one). Bounded by
 * `ListSectionLimits`; the kept chunks never come from the server's chunk pool.
 */
export class ListSectionCache {
  /** By `<media type> <request URL>`, least recently used first. */
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  #items = 0;

  constructor(readonly limits: ListSectionLimits = defaultListSectionLimits) {}

  /** The bytes of the kept sections. */
  get bytes(): number {
    return this.#bytes;
  }

  /** How many sections are kept. */
  get sections(): number {
    let n = 0;
    for (const e of this.#entries.values()) if (e.section) n++;
    return n;
  }

  /** Item references held. */
  get items(): number {
    return this.#items;
  }

  /**
   * Looks up the section of `items` listed by `request` (the URL, query included) under `codec`;
   * a first sighting, or other items than last time, is remembered for the next lookup.
   */
  lookup(codec: Codec, request: string, items: readonly object[]): ListSectionLookup {
    if (items.length < this.limits.minItems || items.length > this.limits.maxItems) return isNew;
    const id = `${codec.mediaType} ${request}`;
    const entry = this.#entries.get(id);
    if (entry) this.#drop(entry);
    if (entry && entry.codec === codec && sameItems(entry.items, items)) {
      this.#add(entry);
      return entry.section ? { kind: 'kept', section: entry.section } : { kind: 'again', entry };
    }
    this.#add({ id, codec, items: [...items] });
    return isNew;
  }

  /** Keeps `section` for the entry a lookup answered `again` with (unless it is too large). */
  keep(entry: object, section: ListSection): void {
    const e = entry as Entry;
    if (e.section || section.length > this.limits.maxBytes / 4) return;
    // Dropped meanwhile (or replaced by newer items of the same request): nothing to keep.
    if (this.#entries.get(e.id) !== e) return;
    e.section = section;
    this.#bytes += section.length;
    this.#trim();
  }

  #add(entry: Entry): void {
    this.#entries.set(entry.id, entry);
    this.#items += entry.items.length;
    if (entry.section) this.#bytes += entry.section.length;
    this.#trim();
  }

  #drop(entry: Entry): void {
    this.#entries.delete(entry.id);
    this.#items -= entry.items.length;
    if (entry.section) this.#bytes -= entry.section.length;
  }

  #trim(): void {
    const { maxEntries, maxBytes, maxItems } = this.limits;
    while (this.#entries.size > maxEntries || this.#bytes > maxBytes || this.#items > maxItems) {
      const oldest = this.#entries.values().next().value;
      if (!oldest) return;
      this.#drop(oldest);
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
