import { describe, expect, it } from 'vitest';
import { compile, createEnv } from './environment.js';
import { containerCandidates } from './names.js';

describe('qualified identifiers', () => {
  it('resolves a dotted variable name', () => {
    const env = createEnv({ variables: { 'a.b.c': 'string' } });
    const p = compile('a.b.c', env);
    expect(p.outputType).toBe('string');
    expect(p.evaluate({ 'a.b.c': 'yeah' })).toBe('yeah');
    expect([...p.references]).toEqual(['a.b.c']);
  });

  it('prefers the longest declared name, then selects the remaining fields', () => {
    const env = createEnv({ variables: { 'a.b': 'map<string, string>', a: 'map<string, dyn>' } });
    expect(compile('a.b.c', env).evaluate({ 'a.b': { c: 'long' }, a: { b: { c: 'short' } } })).toBe('long');
    expect(compile('a.x', env).evaluate({ 'a.b': {}, a: { x: 1n } })).toBe(1n);
  });

  it('works inside has() and never qualifies a comprehension variable', () => {
    const env = createEnv({ variables: { 'a.b': 'map<string, int>', xs: 'list<dyn>' } });
    expect(compile('has(a.b.c)', env).evaluate({ 'a.b': { c: 1n }, xs: [] })).toBe(true);
    expect(compile('xs.exists(a, a.b == 1)', env).evaluate({ 'a.b': {}, xs: [{ b: 1n }] })).toBe(true);
  });

  it('resolves against the activation in an unchecked program', () => {
    const env = createEnv();
    const p = compile('a.b.c', env, { check: false });
    expect(p.evaluate({ 'a.b.c': 'full' })).toBe('full');
    expect(p.evaluate({ 'a.b': { c: 'prefix' } })).toBe('prefix');
    expect(p.evaluate({ a: { b: { c: 'root' } } })).toBe('root');
    expect(() => p.evaluate({})).toThrow(/Unknown variable: a/);
    expect(() => p.evaluate({ 'a.b': ['x'] })).toThrow(/field selection/);
  });
});

describe('containers', () => {
  it('lists candidates most qualified first', () => {
    expect(containerCandidates('z', 'x.y')).toEqual(['x.y.z', 'x.z', 'z']);
    expect(containerCandidates('z', undefined)).toEqual(['z']);
  });

  it('resolves a name in the container before the plain name', () => {
    const env = createEnv({ variables: { 'x.y': 'bool', y: 'string' }, container: 'x' });
    expect(compile('y', env).evaluate({ 'x.y': true, y: 'no' })).toBe(true);
    expect(compile('y', env, { check: false }).evaluate({ 'x.y': true, y: 'no' })).toBe(true);
    expect(compile('y', env, { check: false }).evaluate({ y: 'plain' })).toBe('plain');
  });
});
