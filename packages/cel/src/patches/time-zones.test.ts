import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { callName } from './engine-ast.js';
import { expectShape, expectUpstream, rawOutcome, recordHandle } from './raw-engine.js';

const P = 'time-zones';
const run = (expr: string) => compile(expr, createEnv()).evaluate();
const t0 = "timestamp('2000-01-01T00:00:00Z')";

describe(`patch ${P}`, () => {
  it('relies on: accessors are rcall nodes whose handle(args, ev, ast) gets [receiver, zone]', () => {
    const calls = recordHandle(
      P,
      `${t0}.getHours('UTC')`,
      (n) => n.op === 'rcall' && callName(n) === 'getHours',
    );
    const args = calls[0]?.[0] as unknown[];
    expectShape(P, args?.[0] instanceof Date && args?.[1] === 'UTC', 'args = [Date, zone]');
  });

  it('fixes: the engine rejects fixed offsets and counts a duration whole in getMilliseconds', () => {
    expectUpstream(
      P,
      /Invalid time zone/.test(rawOutcome(`${t0}.getHours('+02:00')`).error ?? ''),
      'rejects +02:00',
    );
    expectUpstream(
      P,
      rawOutcome("duration('123.321s').getMilliseconds()").value === 123321n,
      'returns 123321',
    );
    expect(run(`${t0}.getHours('+02:00')`)).toBe(2n);
    expect(run(`${t0}.getHours('-01:30')`)).toBe(22n);
    expect(run(`${t0}.getHours('Europe/Berlin')`)).toBe(1n);
    expect(run("duration('123.321s').getMilliseconds()")).toBe(321n);
  });
});
