/**
 * What `compile` does to each node while the engine type-checks it (one pass over the AST instead
 * of a walk per concern): the `has()` fix before a node is checked, the checked-AST patches once
 * it is checked, and the declared variables the expression refers to.
 */
import type { AstPatchContext, CheckHooks, EngineNode } from './patches/index.js';
import { patchHasNode, patchNode } from './patches/index.js';

/** The hooks of one compile (see `CheckHooks`): create one per checked expression. */
export class CompileHooks implements CheckHooks {
  /** The declared variables the expression refers to. */
  readonly references = new Set<string>();
  private readonly maps: EngineNode[] = [];
  private readonly context: AstPatchContext;

  /**
   * `patch: false` for the checking-only (typed) environment's AST, which is never evaluated: it
   * gets the `has()` fix and the map-literal checks (compile errors) but no evaluation patches.
   */
  constructor(
    source: string,
    unchecked: boolean,
    private readonly variables: ReadonlyMap<string, unknown>,
    private readonly patch = true,
  ) {
    this.context = { source, unchecked };
  }

  enter(node: EngineNode): void {
    const op = node.op;
    if (op === 'id') {
      if (this.variables.has(node.args as string)) this.references.add(node.args as string);
    } else if (op === 'call') patchHasNode(node);
    // map literals are patched after the check, in source order (their errors are compile errors)
    else if (op === 'map') this.maps.push(node);
    const meta = node.meta;
    // a macro or a resolved name: identifiers of the source that are not checked still count
    if (meta.alternate !== undefined || meta.macro !== undefined) this.collectIds(node.args);
  }

  leave(node: EngineNode): void {
    if (this.patch && node.op !== 'map') patchNode(node, this.context);
  }

  /** Patches the map literals (after a successful check); throws their compile-time errors. */
  finish(): void {
    for (const node of this.maps) patchNode(node, this.context);
  }

  private collectIds(v: unknown): void {
    if (typeof v !== 'object' || v === null) return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) this.collectIds(v[i]);
      return;
    }
    const n = v as Partial<EngineNode>;
    if (typeof n.op === 'string' && typeof n.evaluate === 'function') {
      if (n.op === 'id') {
        if (this.variables.has(n.args as string)) this.references.add(n.args as string);
      } else if (n.op !== 'value') {
        this.collectIds(n.args);
        if (n.meta?.alternate !== undefined) this.collectIds(n.meta.alternate);
      }
      return;
    }
    if (Object.getPrototypeOf(v) === Object.prototype)
      for (const k of Object.keys(v)) this.collectIds((v as Record<string, unknown>)[k]);
  }
}
