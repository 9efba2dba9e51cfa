import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FieldSet } from './field-set.js';
import { decodeFieldsV1, encodeFieldsV1 } from './fields-v1.js';
import { formatPath, type Path, PathElement } from './path-element.js';

/**
 * Model-based properties: a FieldSet behaves as the plain set of its paths (strings), and
 * FieldsV1 text round-trips, for random sets over a small alphabet (so that paths share prefixes).
 */
const element = fc.oneof(
  fc.constantFrom('a', 'b', 'spec', 'x.y').map((n) => PathElement.field(n)),
  fc.record({ name: fc.constantFrom('a', 'b'), port: fc.integer({ min: 1, max: 3 }) }).map((k) =>
    PathElement.key([
      { name: 'port', value: k.port },
      { name: 'name', value: k.name },
    ]),
  ),
  fc
    .oneof(fc.constantFrom('u', 'v'), fc.integer({ min: 0, max: 2 }), fc.boolean())
    .map((v) => PathElement.value(v)),
  fc.integer({ min: 0, max: 2 }).map((i) => PathElement.index(i)),
);
const path = fc.array(element, { minLength: 1, maxLength: 4 });
const paths = fc.array(path, { maxLength: 12 });

const model = (ps: Path[]) => new Set(ps.map(formatPath));
const strings = (s: FieldSet) => new Set(s.paths().map(formatPath));
const sorted = (s: Set<string>) => [...s].sort();

describe('FieldSet matches the set-of-paths model', () => {
  it('union, intersection, difference, subset', () => {
    fc.assert(
      fc.property(paths, paths, (pa, pb) => {
        const a = FieldSet.of(...pa);
        const b = FieldSet.of(...pb);
        const ma = model(pa);
        const mb = model(pb);
        expect(sorted(strings(a))).toEqual(sorted(ma));
        expect(sorted(strings(a.union(b)))).toEqual(sorted(new Set([...ma, ...mb])));
        expect(sorted(strings(a.intersection(b)))).toEqual(sorted(new Set([...ma].filter((p) => mb.has(p)))));
        expect(sorted(strings(a.difference(b)))).toEqual(sorted(new Set([...ma].filter((p) => !mb.has(p)))));
        expect(a.isSubsetOf(b)).toBe([...ma].every((p) => mb.has(p)));
        expect(a.union(b).equals(b.union(a))).toBe(true);
        expect(a.size()).toBe(ma.size);
      }),
      { numRuns: 300 },
    );
  });

  it('recursive difference removes every path at or below a member of the other set', () => {
    fc.assert(
      fc.property(paths, paths, (pa, pb) => {
        const a = FieldSet.of(...pa);
        const b = FieldSet.of(...pb);
        const prefixes = pb.map((p) => p.map((e) => e.id));
        const keep = pa.filter(
          (p) => !prefixes.some((q) => q.length <= p.length && q.every((id, i) => p[i]?.id === id)),
        );
        expect(sorted(strings(a.recursiveDifference(b)))).toEqual(sorted(model(keep)));
      }),
      { numRuns: 300 },
    );
  });

  it('FieldsV1 text round-trips and is canonical', () => {
    fc.assert(
      fc.property(paths, (pa) => {
        const a = FieldSet.of(...pa);
        const text = encodeFieldsV1(a);
        const back = decodeFieldsV1(text);
        expect(back.equals(a)).toBe(true);
        expect(encodeFieldsV1(FieldSet.of(...[...pa].reverse()))).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
