/**
 * Label and field selectors: parse + match against 1 000 label sets, versus a naive
 * split-on-`,`-and-`=` matcher (equality only, no validation) measured in the same run, plus
 * Quantity parsing against `Number.parseFloat` of the same strings.
 *
 *   npx tsx packages/meta/bench/selectors.bench.ts
 */
import { bench, do_not_optimize, run, summary } from 'mitata';
import { parseFieldSelector, parseLabelSelector, parseQuantity } from '../src/index.js';

const labelSets: Record<string, string>[] = Array.from({ length: 1000 }, (_, i) => ({
  app: `app-${i % 10}`,
  tier: i % 3 === 0 ? 'web' : 'db',
  'example.com/team': `team-${i % 7}`,
  release: i % 2 === 0 ? 'stable' : 'canary',
}));
const equalitySelector = 'app=app-3,tier=web,release=stable';
const setSelector = 'app in (app-1,app-3),tier!=db,!legacy,example.com/team';

/** The naive approach: split, no validation, equality only. */
function naiveMatcher(sel: string): (labels: Record<string, string>) => boolean {
  const terms = sel.split(',').map((t) => t.split('=') as [string, string]);
  return (labels) => terms.every(([k, v]) => labels[k] === v);
}

const count = (match: (l: Record<string, string>) => boolean) => labelSets.filter(match).length;
// Same answers, so the figures compare like with like.
const parsed = parseLabelSelector(equalitySelector);
if (count((l) => parsed.matches(l)) !== count(naiveMatcher(equalitySelector)))
  throw new Error('matchers disagree');

summary(() => {
  bench('baseline: naive split matcher, parse + 1000 matches', () => {
    const m = naiveMatcher(equalitySelector);
    do_not_optimize(count(m));
  });
  bench('parseLabelSelector equality, parse + 1000 matches', () => {
    const s = parseLabelSelector(equalitySelector);
    do_not_optimize(count((l) => s.matches(l)));
  });
  bench('parseLabelSelector set-based, parse + 1000 matches', () => {
    const s = parseLabelSelector(setSelector);
    do_not_optimize(count((l) => s.matches(l)));
  });
});

summary(() => {
  bench('baseline: naive split (parse only)', () => do_not_optimize(naiveMatcher(equalitySelector)));
  bench('parseLabelSelector (parse + validate)', () => do_not_optimize(parseLabelSelector(equalitySelector)));
  bench('parseFieldSelector (parse + unescape)', () =>
    do_not_optimize(parseFieldSelector('metadata.name=web-1,metadata.namespace!=kube-system')),
  );
});

const quantities = ['100m', '1.5', '512Mi', '2Gi', '1e3', '0.25', '4', '250m', '1.5Gi', '10k'];
summary(() => {
  bench('baseline: Number.parseFloat x10', () => {
    for (const q of quantities) do_not_optimize(Number.parseFloat(q));
  });
  bench('parseQuantity x10', () => {
    for (const q of quantities) do_not_optimize(parseQuantity(q));
  });
  bench('parseQuantity + toString x10', () => {
    for (const q of quantities) do_not_optimize(parseQuantity(q).toString());
  });
});

await run();
