import { describe, expect, it } from 'vitest';
import { deprecatedFlags, resolveDeprecatedFlags } from './deprecated-flags.js';
import { parseCliArgs } from './flags.js';

/** Deprecated command-line flags (spec doc 1 §9.3 rules 5–8). */
describe('deprecated flags', () => {
  it('read an alias as its replacement and warn in pflag’s words (rules 6, 7)', () => {
    const r = resolveDeprecatedFlags(parseCliArgs(['--service-account-api-audiences', 'api,other']));
    expect(r.values['api-audiences']).toBe('api,other');
    expect(r.values['service-account-api-audiences']).toBeUndefined();
    expect(r.warnings).toEqual([
      'Flag --service-account-api-audiences has been deprecated, Use --api-audiences',
    ]);
  });

  it('can be silenced with --warn-deprecated-flags=false; the flag still works (rule 6)', () => {
    const r = resolveDeprecatedFlags(
      parseCliArgs(['--warn-deprecated-flags=false', '--service-account-api-audiences', 'api']),
    );
    expect(r.warnings).toEqual([]);
    expect(r.values['api-audiences']).toBe('api');
    expect(() => resolveDeprecatedFlags(parseCliArgs(['--warn-deprecated-flags=maybe']))).toThrow(
      'invalid argument "maybe" for "--warn-deprecated-flags" flag',
    );
  });

  it('refuse an alias and its replacement that disagree: the old spelling cannot silently win', () => {
    expect(() =>
      resolveDeprecatedFlags(parseCliArgs(['--service-account-api-audiences', 'a', '--api-audiences', 'b'])),
    ).toThrow(
      '--service-account-api-audiences (deprecated) and --api-audiences are both given with different values',
    );
    // The same list, in another order, is the same setting.
    const same = resolveDeprecatedFlags(
      parseCliArgs(['--service-account-api-audiences', 'a,b', '--api-audiences', 'b, a']),
    );
    expect(same.values['api-audiences']).toBe('a,b');
  });

  it('check the value of a flag that has no effect, as upstream does', () => {
    expect(resolveDeprecatedFlags(parseCliArgs(['--apiserver-count', '3'])).warnings).toEqual([
      'Flag --apiserver-count has been deprecated, apiserver-count is deprecated and will be removed in a future version.',
    ]);
    expect(() => resolveDeprecatedFlags(parseCliArgs(['--apiserver-count', '0']))).toThrow(
      "--apiserver-count should be a positive number, but value '0' provided",
    );
  });

  it('say nothing when no deprecated flag is given', () => {
    expect(resolveDeprecatedFlags(parseCliArgs([])).warnings).toEqual([]);
  });

  it('name a replacement that is itself a flag of the server (rules 5c, 8: never a missing or removed one)', () => {
    for (const [name, spec] of Object.entries(deprecatedFlags)) {
      expect(() => parseCliArgs([`--${name}`, '1'])).not.toThrow();
      if (spec.replacement) expect(() => parseCliArgs([`--${spec.replacement}`, 'x'])).not.toThrow();
      expect(spec.since).toMatch(/^1\.\d+$/);
    }
  });
});
