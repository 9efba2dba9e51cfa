import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { walkAst } from './engine-ast.js';
import { checkedAstPatches } from './index.js';
import { expectShape, rawAst } from './raw-engine.js';

const engineVersion = '8.0.0';

describe('the engine the patches are written against', () => {
  it(`is @marcbachmann/cel-js ${engineVersion}, pinned exactly`, () => {
    const own = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(own.dependencies['@marcbachmann/cel-js'], 'package.json must pin the engine exactly').toBe(
      engineVersion,
    );
    const require = createRequire(import.meta.url);
    const entry = require.resolve('@marcbachmann/cel-js');
    const installed = JSON.parse(readFileSync(new URL('../package.json', `file://${entry}`), 'utf8'));
    expect(installed.version, 'the installed engine is not the version the patches were written for').toBe(
      engineVersion,
    );
  });

  it('has AST nodes with op, args, start, end, meta, evaluate (every patch reads them)', () => {
    const { root } = rawAst("has(m.a) && [1, 2].exists(x, x > m.b) ? 'a' : 'b'", { m: 'map<string, int>' });
    const ops: string[] = [];
    walkAst(root, (n) => {
      ops.push(n.op);
      expectShape('engine-ast', typeof n.op === 'string', 'node.op is a string');
      expectShape(
        'engine-ast',
        Number.isInteger(n.start) && Number.isInteger(n.end),
        'node.start/end are offsets',
      );
      expectShape('engine-ast', typeof n.meta === 'object' && n.meta !== null, 'node.meta is an object');
      expectShape('engine-ast', typeof n.evaluate === 'function', 'node.evaluate(ev, ast, ctx)');
      expectShape('engine-ast', typeof n.check === 'function', 'node.check(chk, ast, ctx)');
    });
    expectShape(
      'engine-ast',
      ops.includes('?:') && ops.includes('&&') && ops.includes('id'),
      'op names ?:, &&, id',
    );
    expectShape(
      'engine-ast',
      ops.includes('>') && ops.includes('list') && ops.includes('call'),
      'op names >, list, call',
    );
  });

  it('names every checked-AST patch once', () => {
    const names = checkedAstPatches.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
  });
});
