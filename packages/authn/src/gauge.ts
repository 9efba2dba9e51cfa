/**
 * A labelled gauge as a plain object: what the server's `/metrics` will export once it exists. Until
 * then the values are read directly (tests, `--v` logs). One series per distinct label set.
 */
export interface Gauge {
  readonly name: string;
  readonly help: string;
  set(value: number, labels?: Readonly<Record<string, string>>): void;
  /** The value of one series, or undefined when it was never set. */
  get(labels?: Readonly<Record<string, string>>): number | undefined;
  /** Every series, labels and value. */
  series(): { labels: Readonly<Record<string, string>>; value: number }[];
}

function seriesKey(labels: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * An empty labelled gauge named `name` with `help` text. `set` replaces the value of the series with the same
 * labels (label order does not matter; labels are copied); never throws.
 */
export function createGauge(name: string, help: string): Gauge {
  const values = new Map<string, { labels: Readonly<Record<string, string>>; value: number }>();
  return {
    name,
    help,
    set(value, labels = {}) {
      values.set(seriesKey(labels), { labels: Object.freeze({ ...labels }), value });
    },
    get(labels = {}) {
      return values.get(seriesKey(labels))?.value;
    },
    series() {
      return [...values.values()].map((s) => ({ ...s }));
    },
  };
}
