import { flagGroups, flagTable } from './flag-table.js';
import { flagSynopsis } from './usage.js';

/** The markers around the generated flag table in the top README. */
export const flagTableMarkers = Object.freeze({
  begin: '<!-- flag-table:begin (generated from packages/apiserver/src/cli/flag-table.ts) -->',
  end: '<!-- flag-table:end -->',
});

const cell = (s: string) => s.replaceAll('|', '\\|');

/**
 * The README's flag table: one row per flag of `flagTable`, grouped as `--help` is. Written into
 * README.md by `npx tsx packages/apiserver/scripts/flag-table.ts`; a test compares the two.
 */
export function flagTableMarkdown(): string {
  const rows = flagGroups.flatMap((group) =>
    flagTable
      .filter((d) => d.group === group)
      .map(
        (d) =>
          `| ${group} | \`${cell(flagSynopsis(d))}\` | ${d.default === undefined ? 'none' : `\`${cell(d.default)}\``} | ${cell(d.help)} |`,
      ),
  );
  return ['| group | flag | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

/** The rows of a markdown table as trimmed cells (formatting-insensitive, for comparing). */
export function markdownRows(table: string): string[][] {
  return table
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    );
}
