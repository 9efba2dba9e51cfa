/**
 * Patch `regex-matches`: the engine runs `string.matches(re)` on JavaScript `RegExp`
 * (backtracking, so a hostile pattern can take exponential time, and a different syntax: `(?i)`
 * is rejected); CEL specifies RE2. The `matches` overload is replaced by the RE2 library's (linear
 * time, cost charged before matching). Relies on: `a.matches(b)` is an `rcall` node named
 * `matches` whose `handle(args, ev, ast)` gets `[a, b]` and the evaluator.
 */
import { regexMatches } from '../library/regex.js';
import { type AstPatch, callName, wrapHandle } from './engine-ast.js';

export const regexMatchesPatch: AstPatch = {
  name: 'regex-matches',
  ops: ['rcall'],
  apply(node) {
    if (node.op !== 'rcall' || callName(node) !== 'matches') return;
    wrapHandle(
      node,
      () => (args, ev) =>
        regexMatches.call(ev, (args as string[])[0] as string, (args as string[])[1] as string),
    );
  },
};
