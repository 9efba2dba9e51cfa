import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { expectShape, expectUpstream, rawEnvironment } from './raw-engine.js';

const P = 'unchecked-programs';

describe(`patch ${P}`, () => {
  it('relies on: the checker throws errors named TypeError with a code', () => {
    const raw = rawEnvironment();
    const unknownVar = raw.check('nope + 1').error as { name?: string; code?: string } | undefined;
    expectShape(
      P,
      unknownVar?.name === 'TypeError' && unknownVar.code === 'unknown_variable',
      "code 'unknown_variable'",
    );
    const noOverload = raw.check('f_unknown(1)').error as { name?: string; code?: string } | undefined;
    expectShape(
      P,
      noOverload?.name === 'TypeError' && typeof noOverload.code === 'string',
      'a code on every TypeError',
    );
  });

  it('fixes: the engine fails the whole expression on a static error in an unevaluated branch', () => {
    const raw = rawEnvironment();
    let rawError = '';
    try {
      raw.evaluate('f_unknown(1) || true');
    } catch (e) {
      rawError = (e as Error).message;
    }
    expectUpstream(P, /no matching overload/.test(rawError), 'fails f_unknown(1) || true');
    const env = createEnv();
    expect(compile('f_unknown(1) || true', env, { check: false }).evaluate()).toBe(true);
    expect(compile('x + 1', env, { check: false }).evaluate({ x: 2n })).toBe(3n);
    expect(() => compile('f_unknown(1)', env, { check: false }).evaluate()).toThrow(/no matching overload/);
    expect(() => compile('f_unknown(1) || true', env)).toThrow(/no matching overload/);
  });
});
