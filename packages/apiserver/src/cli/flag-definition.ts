/** The shape of the flag table (`flag-table.ts`): groups and rows. */

/** The help groups, in the order `--help` prints them (upstream's names, plus Orchard's own). */
export const flagGroups = [
  'Generic',
  'Etcd',
  'Secure serving',
  'Auditing',
  'Feature gates',
  'Authentication',
  'Authorization',
  'API enablement',
  'Metrics',
  'Logs',
  'Leader election',
  'Misc',
] as const;

/** One help group. */
export type FlagGroup = (typeof flagGroups)[number];

/** One flag of the table. */
export interface FlagDefinition {
  /** The long name without dashes. */
  readonly name: string;
  readonly group: FlagGroup;
  /** The value placeholder (`N`, `PATH`, `text|json`); absent for a switch. */
  readonly value?: string;
  /** The default as `--help` shows it; absent when there is none. */
  readonly default?: string;
  readonly help: string;
  /** A one-letter alias (`-v`). */
  readonly short?: string;
}

/** One row of the table (positional, to keep the table readable). */
export const flagRow = (
  group: FlagGroup,
  name: string,
  value: string | undefined,
  defaultValue: string | undefined,
  help: string,
  short?: string,
): FlagDefinition => ({
  name,
  group,
  ...(value === undefined ? {} : { value }),
  ...(defaultValue === undefined ? {} : { default: defaultValue }),
  help,
  ...(short === undefined ? {} : { short }),
});
