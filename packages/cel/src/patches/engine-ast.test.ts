import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { type EngineNode, walkAst } from './engine-ast.js';
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

  it('has patches that act only on the ops they declare (compile applies them by op)', () => {
    const ops = ['value', 'id', '.', '.?', '[]', '[?]', 'call', 'rcall', 'list', 'map', 'comprehension'];
    ops.push('?:', '&&', '||', '!_', '-_', '+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', 'in');
    const names = ['int', 'uint', 'string', 'duration', 'timestamp', 'matches', 'getHours', 'size'];
    const operand = { op: 'id', args: 'x', checkedType: { name: 'dyn', kind: 'dyn' } };
    const context = { source: 'x', unchecked: false };
    for (const patch of checkedAstPatches) {
      for (const op of ops.filter((o) => !patch.ops.includes(o))) {
        for (const name of op === 'call' || op === 'rcall' ? names : ['']) {
          const handle = () => undefined;
          const args = op === 'call' ? [name, []] : op === 'rcall' ? [name, operand, []] : [operand, 'f'];
          const node = { op, args: op === 'map' ? [] : args, meta: {}, handle, start: 0, end: 1 };
          patch.apply(node as unknown as EngineNode, context);
          expect(node.handle, `${patch.name} changed a ${op} ${name} node`).toBe(handle);
          expect(Object.hasOwn(node, 'evaluate'), `${patch.name} replaced evaluate of ${op}`).toBe(false);
        }
      }
    }
  });
});
