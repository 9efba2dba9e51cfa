import { comparePathElements, type Path, type PathElement } from './path-element.js';

/** One step of the trie: the element, whether the path ending here is in the set, and what lies below. */
interface SetNode {
  readonly pe: PathElement;
  readonly member: boolean;
  readonly child: FieldSet | undefined;
}

/**
 * A set of field paths, stored as a trie (upstream's `fieldpath.Set`). A path element can be a
 * member (the path ending there is in the set), have children (longer paths pass through it), or
 * both; both is what FieldsV1 writes as `".": {}`.
 *
 * Sets are values: every operation returns a new set and never changes its inputs (results may
 * share unchanged subtrees with them). Iteration follows upstream's order: at each level the
 * members, sorted, then the children, sorted.
 */
export class FieldSet {
  /** Canonical element id → node. Invariant: a node is a member or has a non-empty child. */
  private readonly nodes: Map<string, SetNode>;
  private sortedCache: SetNode[] | undefined;

  private constructor(nodes: Map<string, SetNode>) {
    this.nodes = nodes;
  }

  static readonly EMPTY: FieldSet = new FieldSet(new Map());

  /** A new set holding the given paths (empty paths are ignored, as upstream). */
  static of(...paths: Path[]): FieldSet {
    const s = new FieldSet(new Map());
    for (const p of paths) s.insertPath(p);
    return s;
  }

  /** @internal A fresh, mutable set for walkers that build one; see `insertPath`. */
  static builder(): FieldSet {
    return new FieldSet(new Map());
  }

  /**
   * @internal Adds a path in place. Only for sets made by `builder()`/`of()` that nobody else
   * has seen yet: results of the set algebra share subtrees and must not be mutated.
   */
  insertPath(p: Path): void {
    if (p.length === 0) return;
    let s: FieldSet = this;
    for (let i = 0; i < p.length - 1; i++) s = s.descend(p[i] as PathElement);
    s.insertMember(p[p.length - 1] as PathElement);
  }

  /** @internal Marks `pe` a member of this (fresh) set. */
  insertMember(pe: PathElement): void {
    const n = this.nodes.get(pe.id);
    if (n === undefined) {
      this.nodes.set(pe.id, { pe, member: true, child: undefined });
      this.sortedCache = undefined;
    } else if (!n.member) {
      this.nodes.set(pe.id, { pe, member: true, child: n.child });
      this.sortedCache = undefined;
    }
  }

  /** @internal The (fresh) child set under `pe`, created when missing. */
  descend(pe: PathElement): FieldSet {
    const n = this.nodes.get(pe.id);
    if (n?.child !== undefined) return n.child;
    const child = new FieldSet(new Map());
    this.nodes.set(pe.id, { pe, member: n?.member ?? false, child });
    this.sortedCache = undefined;
    return child;
  }

  /** @internal Attaches a finished child set under `pe` (dropped when empty). */
  setChild(pe: PathElement, child: FieldSet, member = false): void {
    const n = this.nodes.get(pe.id);
    const m = member || (n?.member ?? false);
    this.sortedCache = undefined;
    if (child.isEmpty()) {
      if (m) this.nodes.set(pe.id, { pe, member: true, child: n?.child });
      return;
    }
    this.nodes.set(pe.id, { pe, member: m, child: n?.child ? n.child.union(child) : child });
  }

  /** @internal A shallow copy that may then be changed with `replaceNode`. */
  clone(): FieldSet {
    return new FieldSet(new Map(this.nodes));
  }

  /** @internal Replaces (or drops, when neither member nor non-empty child) the node of `pe`. */
  replaceNode(pe: PathElement, member: boolean, child: FieldSet | undefined): void {
    this.sortedCache = undefined;
    const c = child === undefined || child.isEmpty() ? undefined : child;
    if (!member && c === undefined) this.nodes.delete(pe.id);
    else this.nodes.set(pe.id, { pe, member, child: c });
  }

  /** @internal Removes empty child nodes left by a builder (`descend` without inserts below). */
  compact(): FieldSet {
    for (const [id, n] of this.nodes) {
      if (n.child !== undefined) {
        n.child.compact();
        if (n.child.isEmpty()) {
          if (n.member) this.nodes.set(id, { pe: n.pe, member: true, child: undefined });
          else this.nodes.delete(id);
          this.sortedCache = undefined;
        }
      }
    }
    return this;
  }

  isEmpty(): boolean {
    return this.nodes.size === 0;
  }

  /** Number of paths in the set. */
  size(): number {
    let n = 0;
    for (const node of this.nodes.values()) {
      if (node.member) n++;
      if (node.child !== undefined) n += node.child.size();
    }
    return n;
  }

  has(p: Path): boolean {
    if (p.length === 0) return false;
    let s: FieldSet | undefined = this;
    for (let i = 0; i < p.length - 1; i++) {
      s = s.nodes.get((p[i] as PathElement).id)?.child;
      if (s === undefined) return false;
    }
    return s.nodes.get((p[p.length - 1] as PathElement).id)?.member === true;
  }

  /** True when `pe` is a member at this level. */
  hasMember(pe: PathElement): boolean {
    return this.nodes.get(pe.id)?.member === true;
  }

  /** The paths below `pe`, relative to it (empty when none). */
  withPrefix(pe: PathElement): FieldSet {
    return this.nodes.get(pe.id)?.child ?? FieldSet.EMPTY;
  }

  /** @internal Node lookup by element id. */
  node(
    id: string,
  ):
    | { readonly pe: PathElement; readonly member: boolean; readonly child: FieldSet | undefined }
    | undefined {
    return this.nodes.get(id);
  }

  /** @internal The nodes of this level in no particular order (for walkers that need none). */
  unsortedNodes(): IterableIterator<{
    readonly pe: PathElement;
    readonly member: boolean;
    readonly child: FieldSet | undefined;
  }> {
    return this.nodes.values();
  }

  /** The nodes of this level in upstream order (for walkers and serialization). */
  sortedNodes(): readonly {
    readonly pe: PathElement;
    readonly member: boolean;
    readonly child: FieldSet | undefined;
  }[] {
    let s = this.sortedCache;
    if (s === undefined) {
      s = [...this.nodes.values()];
      if (s.length > 1) s.sort((a, b) => comparePathElements(a.pe, b.pe));
      this.sortedCache = s;
    }
    return s;
  }

  union(o: FieldSet): FieldSet {
    if (o === this || o.nodes.size === 0) return this;
    if (this.nodes.size === 0) return o;
    const out = new Map(this.nodes);
    for (const [id, b] of o.nodes) {
      const a = out.get(id);
      if (a === undefined) out.set(id, b);
      else if (a !== b) {
        const child =
          a.child === undefined ? b.child : b.child === undefined ? a.child : a.child.union(b.child);
        const member = a.member || b.member;
        if (member !== a.member || child !== a.child) out.set(id, { pe: a.pe, member, child });
      }
    }
    return new FieldSet(out);
  }

  intersection(o: FieldSet): FieldSet {
    if (o === this) return this;
    const [small, big] = this.nodes.size <= o.nodes.size ? [this, o] : [o, this];
    const out = new Map<string, SetNode>();
    for (const [id, a] of small.nodes) {
      const b = big.nodes.get(id);
      if (b === undefined) continue;
      const member = a.member && b.member;
      let child: FieldSet | undefined;
      if (a.child !== undefined && b.child !== undefined) {
        child = a.child.intersection(b.child);
        if (child.nodes.size === 0) child = undefined;
      }
      if (member || child !== undefined) out.set(id, { pe: a.pe, member, child });
    }
    return out.size === 0 ? FieldSet.EMPTY : new FieldSet(out);
  }

  /** Paths of this set not in `o` (a member of `o` removes only that path, not what lies below). */
  difference(o: FieldSet): FieldSet {
    if (o.nodes.size === 0) return this;
    if (o === this) return FieldSet.EMPTY;
    return this.subtract(o, (a, b) => {
      let child = a.child;
      if (child !== undefined && b.child !== undefined) {
        child = child.difference(b.child);
        if (child.nodes.size === 0) child = undefined;
      }
      return [a.member && !b.member, child];
    });
  }

  /** Paths of this set not in `o` and not below any member of `o`. */
  recursiveDifference(o: FieldSet): FieldSet {
    if (o.nodes.size === 0) return this;
    return this.subtract(o, (a, b) => {
      if (b.member) return [false, undefined];
      let child = a.child;
      if (child !== undefined && b.child !== undefined) {
        child = child.recursiveDifference(b.child);
        if (child.nodes.size === 0) child = undefined;
      }
      return [a.member, child];
    });
  }

  /**
   * This set with every node that `o` also holds replaced by what `keep` leaves of it (dropped when
   * that is neither a member nor a child set); `this` itself when nothing changed.
   */
  private subtract(
    o: FieldSet,
    keep: (a: SetNode, b: SetNode) => [member: boolean, child: FieldSet | undefined],
  ): FieldSet {
    let out: Map<string, SetNode> | undefined;
    for (const [id, a] of this.nodes) {
      const b = o.nodes.get(id);
      if (b === undefined) continue;
      const [member, child] = keep(a, b);
      if (member === a.member && child === a.child) continue;
      out ??= new Map(this.nodes);
      if (member || child !== undefined) out.set(id, { pe: a.pe, member, child });
      else out.delete(id);
    }
    return out === undefined ? this : out.size === 0 ? FieldSet.EMPTY : new FieldSet(out);
  }

  /** Members that have no children in this set (the deepest paths). */
  leaves(): FieldSet {
    const out = new Map<string, SetNode>();
    for (const [id, n] of this.nodes) {
      if (n.child === undefined) out.set(id, n);
      else out.set(id, { pe: n.pe, member: false, child: n.child.leaves() });
    }
    return new FieldSet(out);
  }

  /** True when every path of this set is in `o` (that is, `this.difference(o)` is empty). */
  isSubsetOf(o: FieldSet): boolean {
    if (o === this) return true;
    for (const [id, a] of this.nodes) {
      const b = o.nodes.get(id);
      if (b === undefined) return false;
      if (a.member && !b.member) return false;
      if (a.child !== undefined && (b.child === undefined || !a.child.isSubsetOf(b.child))) return false;
    }
    return true;
  }

  equals(o: FieldSet): boolean {
    if (o === this) return true;
    if (o.nodes.size !== this.nodes.size) return false;
    for (const [id, a] of this.nodes) {
      const b = o.nodes.get(id);
      if (b === undefined || a.member !== b.member) return false;
      if (a.child !== b.child) {
        if (a.child === undefined || b.child === undefined || !a.child.equals(b.child)) return false;
      }
    }
    return true;
  }

  /** Calls `f` with every path, in upstream order (members of a level, then its children). */
  iterate(f: (p: Path) => void): void {
    this.iterateFrom([], f);
  }

  private iterateFrom(prefix: PathElement[], f: (p: Path) => void): void {
    const nodes = this.sortedNodes();
    for (const n of nodes) if (n.member) f([...prefix, n.pe]);
    for (const n of nodes) {
      if (n.child === undefined) continue;
      prefix.push(n.pe);
      n.child.iterateFrom(prefix, f);
      prefix.pop();
    }
  }

  /** Every path, in iteration order. */
  paths(): Path[] {
    const out: Path[] = [];
    this.iterate((p) => out.push(p));
    return out;
  }
}
