import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flagGroups, flagTable, unlistedFlags } from './flag-table.js';
import { flagTableMarkdown, flagTableMarkers, markdownRows } from './flag-table-markdown.js';
import { cliFlagOptions } from './flags.js';
import { cliUsage, flagGroupHeading } from './usage.js';

/** The flag table is the one source: the parser, `--help` and the README's table agree with it. */
describe('the flag table', () => {
  const options = cliFlagOptions as Readonly<
    Record<string, { type: string; short?: string; default?: unknown }>
  >;

  it('lists every flag the parser accepts once, and no other (deprecated ones and aliases aside)', () => {
    const names = flagTable.map((d) => d.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names, ...unlistedFlags].sort()).toEqual(Object.keys(options).sort());
  });

  it("has the parser's short aliases and defaults", () => {
    for (const d of flagTable) {
      const o = options[d.name];
      expect(o?.short, d.name).toBe(d.short);
      if (o?.default !== undefined && d.name !== 'help') expect(d.default, d.name).toBe(String(o.default));
      // A switch has no value placeholder; a string flag has one.
      expect(d.value === undefined, d.name).toBe(o?.type === 'boolean');
    }
  });

  it('--help prints the groups in upstream order, each flag under its group', () => {
    const headings = [...cliUsage.matchAll(/^(\S[^\n]*:)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(flagGroups.map(flagGroupHeading));
    expect(headings).toContain('Etcd flags:');
    expect(headings).toContain('Feature gates:');
    const sections = cliUsage.split(/^\S[^\n]*:$/m).slice(1);
    for (const d of flagTable) {
      const section = sections[flagGroups.indexOf(d.group)] ?? '';
      expect(section, d.name).toMatch(new RegExp(`^ {2}(-${d.short ?? 'x'}, )?--${d.name}(?![a-z-])`, 'm'));
    }
    // The gates are listed under --feature-gates.
    expect(sections[flagGroups.indexOf('Feature gates')]).toContain(
      'AllowUnsafeMalformedObjectDeletion=true|false (',
    );
  });

  it("the README's flag table is the generated one (npx tsx packages/apiserver/scripts/flag-table.ts)", () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
    const begin = readme.indexOf(flagTableMarkers.begin);
    const end = readme.indexOf(flagTableMarkers.end);
    expect(begin).toBeGreaterThan(0);
    expect(markdownRows(readme.slice(begin, end))).toEqual(markdownRows(flagTableMarkdown()));
  });
});
