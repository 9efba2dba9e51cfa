import { Duration } from '@marcbachmann/cel-js/evaluator';
import { describe, expect, it } from 'vitest';
import { compile, createEnv } from '../environment.js';
import { formatTimestamp } from '../timestamps.js';
import { callName } from './engine-ast.js';
import { expectShape, expectUpstream, rawOutcome, recordHandle } from './raw-engine.js';

const P = 'timestamps';
const run = (expr: string) => compile(expr, createEnv()).evaluate();
const t0 = "timestamp('2000-01-01T00:00:00Z')";
const t1ns = "timestamp('2000-01-01T00:00:00.000000001Z')";

describe(`patch ${P}`, () => {
  it('relies on: timestamp(s) is a call with handle(args) returning a Date; - gets (Date, Duration)', () => {
    const ts = recordHandle(P, t0, (n) => n.op === 'call' && callName(n) === 'timestamp');
    expectShape(
      P,
      typeof (ts[0]?.[0] as unknown[])?.[0] === 'string',
      'timestamp(…) handle(args) with the string',
    );
    const sub = recordHandle(P, `${t0} - duration('1s')`, (n) => n.op === '-');
    const [l, r] = sub[0] as [unknown, Duration];
    expectShape(P, l instanceof Date, 'timestamps are Dates');
    expectShape(
      P,
      r instanceof Duration && typeof r.seconds === 'bigint' && typeof r.nanos === 'number',
      'Duration{seconds: bigint, nanos: number}',
    );
    const eq = recordHandle(P, `${t0} == ${t0}`, (n) => n.op === '==');
    expectShape(P, eq[0]?.[0] instanceof Date && eq[0]?.[1] instanceof Date, '== handle(l, r) on Dates');
  });

  it('fixes: the engine drops nanoseconds and has no timestamp range', () => {
    expectUpstream(P, rawOutcome(`${t1ns} == ${t0}`).value === true, 'ignores nanoseconds in ==');
    expectUpstream(P, rawOutcome(`${t1ns} > ${t0}`).value === false, 'ignores nanoseconds in >');
    expectUpstream(
      P,
      rawOutcome("timestamp('0001-01-01T00:00:00Z') - duration('1s')").value instanceof Date,
      'allows year 0',
    );
    expect(run(`${t1ns} == ${t0}`)).toBe(false);
    expect(run(`${t1ns} > ${t0}`)).toBe(true);
    expect(formatTimestamp(run(`${t0} + duration('1ns')`) as Date)).toBe('2000-01-01T00:00:00.000000001Z');
    expect(run(`${t1ns} - ${t0}`)).toEqual(new Duration(0n, 1));
    expect(() => run("timestamp('0001-01-01T00:00:00Z') - duration('1s')")).toThrow(/out of range/);
    expect(() => run("duration('100000000000h')")).toThrow(/out of range/);
  });
});
