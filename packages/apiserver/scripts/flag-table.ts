/**
 * Writes the README's flag table from `src/cli/flag-table.ts` (the one source of `--help` too):
 * `npx tsx packages/apiserver/scripts/flag-table.ts`, then `biome format --write README.md`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { flagTableMarkdown, flagTableMarkers } from '../src/cli/flag-table-markdown.js';

const readme = join(import.meta.dirname, '..', '..', '..', 'README.md');
const text = readFileSync(readme, 'utf8');
const begin = text.indexOf(flagTableMarkers.begin);
const end = text.indexOf(flagTableMarkers.end);
if (begin < 0 || end < begin) throw new Error(`${readme}: the flag-table markers are missing`);
writeFileSync(
  readme,
  `${text.slice(0, begin + flagTableMarkers.begin.length)}\n\n${flagTableMarkdown()}\n\n${text.slice(end)}`,
);
