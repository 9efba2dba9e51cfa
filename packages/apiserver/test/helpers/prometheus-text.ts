/**
 * A minimal parser of the Prometheus text exposition format (0.0.4) for tests: `# HELP`, `# TYPE`
 * and sample lines `name{label="value",…} value`, with the format's escapes (`\\`, `\"`, `\n`).
 * Throws on a line it cannot read, so a malformed exposition fails the test.
 */
export interface PromSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** One metric family: its help, type and samples (histogram `_bucket`/`_sum`/`_count` included). */
export interface PromFamily {
  readonly help: string;
  readonly type: string;
  readonly samples: PromSample[];
}

const sampleLine = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const labelPair = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;

function parseValue(s: string): number {
  if (s === '+Inf') return Number.POSITIVE_INFINITY;
  if (s === '-Inf') return Number.NEGATIVE_INFINITY;
  if (s === 'NaN') return Number.NaN;
  const n = Number(s);
  if (Number.isNaN(n)) throw new Error(`not a sample value: ${s}`);
  return n;
}

function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  labelPair.lastIndex = 0;
  while (labelPair.lastIndex < text.length) {
    const m = labelPair.exec(text);
    if (!m) throw new Error(`bad labels: {${text}}`);
    out[m[1] as string] = (m[2] as string).replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return out;
}

/** Parses a whole exposition into families keyed by metric name. */
export function parsePrometheusText(text: string): Map<string, PromFamily> {
  const families = new Map<string, { help: string; type: string; samples: PromSample[] }>();
  const family = (name: string) => {
    let f = families.get(name);
    if (!f) {
      f = { help: '', type: 'untyped', samples: [] };
      families.set(name, f);
    }
    return f;
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('# HELP ')) {
      const [, name = '', help = ''] = /^# HELP (\S+) ?(.*)$/.exec(line) ?? [];
      family(name).help = help.replace(/\\n/g, '\n').replace(/\\\\/g, '\\');
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, name = '', type = ''] = /^# TYPE (\S+) (\S+)$/.exec(line) ?? [];
      family(name).type = type;
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = sampleLine.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const name = m[1] as string;
    const base = [...families.keys()].includes(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    family(base).samples.push({ name, labels: parseLabels(m[2] ?? ''), value: parseValue(m[3] as string) });
  }
  return families;
}

/** The value of the sample `name` whose labels include `labels`, or undefined. */
export function sampleValue(
  families: Map<string, PromFamily>,
  name: string,
  labels: Record<string, string>,
): number | undefined {
  const base = families.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
  return families
    .get(base)
    ?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    ?.value;
}
