/**
 * Bounds on a YAML body, checked on the token stream before the `yaml` package builds anything:
 * its parser turns 1.5M levels of `[[[…` (3 MB) into gigabytes of syntax nodes, its `toJS` recurses
 * once per level, and it spends ~8 µs per node, so a body must be refused by shape, early and
 * cheaply. The lexer is a generator: a body over a limit is abandoned as soon as the limit is
 * crossed, so refusing costs at most the limit's worth of tokens.
 */
import { maxNestingDepth } from '@orchard/meta/internal';
import { CST, Lexer } from 'yaml';
import { CodecError } from './codec.js';

/** Bounds a YAML body must stay within (depth, node count), checked before it is composed. */
export interface YamlLimits {
  /** Deepest nesting of collections (default `maxNestingDepth` = 500, the bound of every encoding). */
  readonly maxDepth: number;
  /**
   * Most nodes (scalars and collections) one document may hold (default 50,000: about 0.4 s of
   * parsing on one core). Larger bodies should be sent as JSON, which parses natively.
   */
  readonly maxNodes: number;
}

/** Defaults of `YamlLimits`: the shared nesting bound and 50 000 nodes. */
export const defaultYamlLimits: YamlLimits = Object.freeze({ maxDepth: maxNestingDepth, maxNodes: 50_000 });

/** Throws `CodecError('Malformed')` when `text` nests deeper or holds more nodes than `limits` allow. */
export function checkYamlBounds(
  text: string,
  mediaType: string,
  limits: YamlLimits = defaultYamlLimits,
): void {
  let flowDepth = 0;
  // Columns of the open block collections; a line indented less closes those deeper.
  const indents: number[] = [];
  let atLineStart = true;
  let lineIndent = 0;
  let onLine = 0; // block indicators (`- `, `? `, `: `) on this line, each one level deeper
  let nodes = 0;
  const refuse = (what: string): never => {
    throw new CodecError('Malformed', mediaType, `error converting YAML to JSON: the document ${what}`);
  };
  for (const token of new Lexer().lex(text)) {
    const type = CST.tokenType(token);
    switch (type) {
      case 'newline':
        atLineStart = true;
        lineIndent = 0;
        onLine = 0;
        continue;
      case 'space':
        if (atLineStart) lineIndent = token.length;
        continue;
      case 'comment':
      case 'doc-mode':
      case 'byte-order-mark':
        continue;
      case 'flow-map-start':
      case 'flow-seq-start':
        flowDepth++;
        nodes++;
        break;
      case 'flow-map-end':
      case 'flow-seq-end':
        flowDepth--;
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        if (flowDepth === 0) onLine++;
        break;
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
      case 'block-scalar-header':
      case 'alias':
        nodes++;
        break;
      default:
        break;
    }
    if (atLineStart && flowDepth === 0) {
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= lineIndent) indents.pop();
      indents.push(lineIndent);
    }
    atLineStart = false;
    if (flowDepth + indents.length + onLine > limits.maxDepth)
      refuse(`nests collections more than ${limits.maxDepth} levels deep`);
    if (nodes > limits.maxNodes)
      refuse(`holds more than ${limits.maxNodes} nodes; send large bodies as JSON`);
  }
}
