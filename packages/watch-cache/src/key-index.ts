/** Keys per chunk after a split; a chunk splits when it reaches twice this. */
const chunk = 512;

function lowerBound(arr: readonly string[], key: string): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((arr[mid] as string) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The cache's sorted key index: keys in code-unit order, kept as a list of sorted chunks of at most
 * 1,024 keys. Insert and delete touch one chunk (cost bounded by the chunk size, not by the number of
 * keys, unlike one array's `splice`); a key's position (which paged lists need for `remaining`) sums
 * chunk sizes, a few hundred additions at 100k keys. Nothing ever spreads the keys into a call.
 */
export class KeyIndex {
  private chunks: string[][] = [];
  private count = 0;

  /** An index over keys already sorted ascending and distinct (taken over, not copied). */
  static fromSorted(keys: readonly string[]): KeyIndex {
    const index = new KeyIndex();
    for (let i = 0; i < keys.length; i += chunk) index.chunks.push(keys.slice(i, i + chunk));
    index.count = keys.length;
    return index;
  }

  get length(): number {
    return this.count;
  }

  /** The chunk that holds `key` or where it belongs (the first whose last key is >= key, else the last). */
  private chunkFor(key: string): number {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = chunks[mid] as string[];
      if ((c[c.length - 1] as string) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(key: string): boolean {
    if (this.count === 0) return false;
    const c = this.chunks[this.chunkFor(key)] as string[];
    return c[lowerBound(c, key)] === key;
  }

  /** Adds `key` (no-op when present). */
  add(key: string): void {
    const last = this.chunks[this.chunks.length - 1];
    if (last === undefined) {
      this.chunks.push([key]);
      this.count = 1;
      return;
    }
    // After the last key: one comparison, no searches. A server start's ~130 default objects come
    // nearly in key order (upstream's policy lists are sorted by name).
    if ((last[last.length - 1] as string) < key) {
      last.push(key);
      this.count++;
      if (last.length >= 2 * chunk) this.chunks.push(last.splice(chunk));
      return;
    }
    const ci = this.chunkFor(key);
    const c = this.chunks[ci] as string[];
    const i = lowerBound(c, key);
    if (c[i] === key) return;
    c.splice(i, 0, key);
    this.count++;
    if (c.length >= 2 * chunk) this.chunks.splice(ci + 1, 0, c.splice(chunk));
  }

  /** Removes `key` (no-op when absent). */
  delete(key: string): void {
    if (this.count === 0) return;
    const ci = this.chunkFor(key);
    const c = this.chunks[ci] as string[];
    const i = lowerBound(c, key);
    if (c[i] !== key) return;
    c.splice(i, 1);
    this.count--;
    if (c.length === 0) this.chunks.splice(ci, 1);
  }

  /** The position of the first key >= `key` (the number of keys below it). */
  lowerBound(key: string): number {
    if (this.count === 0) return 0;
    const ci = this.chunkFor(key);
    let pos = 0;
    for (let j = 0; j < ci; j++) pos += (this.chunks[j] as string[]).length;
    return pos + lowerBound(this.chunks[ci] as string[], key);
  }

  /** Keys from position `start` on, ascending. */
  *from(start: number): IterableIterator<string> {
    let skip = start;
    for (const c of this.chunks) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      for (let i = skip; i < c.length; i++) yield c[i] as string;
      skip = 0;
    }
  }

  /**
   * Calls `visit` with the keys from position `start` on, ascending, until it returns false. Lists walk
   * with this, not `from()`: a generator step per key cost a list of 10,000 keys about 1.8× its time.
   */
  walk(start: number, visit: (key: string) => boolean): void {
    let skip = start;
    for (const c of this.chunks) {
      if (skip >= c.length) {
        skip -= c.length;
        continue;
      }
      for (let i = skip; i < c.length; i++) if (!visit(c[i] as string)) return;
      skip = 0;
    }
  }

  /** All keys, ascending. */
  [Symbol.iterator](): IterableIterator<string> {
    return this.from(0);
  }
}
