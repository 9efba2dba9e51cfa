import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { checkerProbeKey } from './checker-hook.js';
import { expectShape, expectUpstream, rawAst, rawEnvironment } from './raw-engine.js';

const P = 'type-parameters';

describe(`patch ${P} (and the checker-hook it rides on)`, () => {
  it("relies on: a macro's typeCheck(chk) gets the checker with check, getType and registry", () => {
    const env = rawEnvironment();
    let chk: { check?: unknown; getType?: unknown; registry?: { getListType?: unknown } } | undefined;
    env.registerFunction(`${checkerProbeKey}(ast): bool`, () => ({
      typeCheck(c: typeof chk & { getType(n: string): unknown }) {
        chk = c;
        return c.getType('bool');
      },
      evaluate: () => true,
    }));
    env.check(`${checkerProbeKey}(0)`);
    expectShape(
      P,
      typeof chk?.check === 'function' && typeof chk?.getType === 'function',
      'checker.check/getType',
    );
    expectShape(P, typeof chk?.registry?.getListType === 'function', 'checker.registry.getListType');
  });

  it('relies on: an unresolved parameter type has kind "param"; types have templated()', () => {
    const { root } = rawAst('[]');
    const t = root.checkedType as { hasPlaceholderType?: boolean; templated?: unknown } | undefined;
    expectShape(
      P,
      t?.hasPlaceholderType === true && typeof t.templated === 'function',
      'list<T>.hasPlaceholderType, templated()',
    );
  });

  it('fixes: operators on unresolved parameters, duration + timestamp typed duration, null beside optionals', () => {
    const raw = rawEnvironment();
    expectUpstream(P, !raw.check('[].all(x, x > 0)').valid, 'fails on [].all(x, x > 0)');
    expectUpstream(
      P,
      raw.check("duration('1s') + timestamp('2000-01-01T00:00:00Z')").type === 'google.protobuf.Duration',
      'types duration + timestamp as duration',
    );
    expectUpstream(
      P,
      raw.check('[optional.of(1), null]').type === 'list',
      'types [optional.of(1), null] as list',
    );
    const env = createEnv();
    expect(compile('[].all(x, x > 0)', env).evaluate()).toBe(true);
    expect(compile("duration('1s') + timestamp('2000-01-01T00:00:00Z')", env).outputType).toBe(
      'google.protobuf.Timestamp',
    );
    expect(compile('[optional.of(1), null]', env).outputType).toBe('list<optional<int>>');
    expect(compile('{}.?a', env).outputType).toBe('optional<dyn>');
  });
});
