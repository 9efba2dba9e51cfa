import { featureGatesHelp } from '../feature-gates.js';
import { type FlagDefinition, type FlagGroup, flagGroups, flagTable } from './flag-table.js';

const width = 100;
const helpColumn = 36;

/** `--name VALUE` (`-v, --v N` with a short alias; `--flag=BOOL` when the value starts with `=`). */
export function flagSynopsis(d: FlagDefinition): string {
  const value = d.value === undefined ? '' : d.value.startsWith('=') ? d.value : ` ${d.value}`;
  return `${d.short ? `-${d.short}, ` : ''}--${d.name}${value}`;
}

/** `text` broken into lines of at most `room` characters (a longer word stays whole). */
function wrap(text: string, room: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > room) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

function flagLines(d: FlagDefinition): string[] {
  const head = `  ${flagSynopsis(d)}`;
  const help = d.default === undefined ? d.help : `${d.help} (default ${d.default})`;
  const body = wrap(help, width - helpColumn);
  const pad = ' '.repeat(helpColumn);
  const out =
    head.length + 2 <= helpColumn
      ? [`${head.padEnd(helpColumn)}${body[0] ?? ''}`, ...body.slice(1).map((l) => pad + l)]
      : [head, ...body.map((l) => pad + l)];
  if (d.name === 'feature-gates') out.push(...featureGatesHelp().map((g) => pad + g));
  return out;
}

/** A group's heading in `--help`: `Generic flags:` …, `Feature gates:` (upstream's words). */
export function flagGroupHeading(group: FlagGroup): string {
  return group === 'Feature gates' ? 'Feature gates:' : `${group} flags:`;
}

/**
 * The text of `orchard-apiserver --help` (also printed after a flag the parser refuses): the flag
 * table grouped as upstream kube-apiserver's help is (`Generic flags:`, `Etcd flags:` …).
 */
export const cliUsage = `Usage: orchard-apiserver [flags]

${flagGroups
  .map((group) => {
    const rows = flagTable.filter((d) => d.group === group).flatMap(flagLines);
    return `${flagGroupHeading(group)}\n\n${rows.join('\n')}\n`;
  })
  .join('\n')}`;
