/**
 * A CronJob schedule parsed as upstream's validation parses it (robfig/cron v3 `ParseStandard`:
 * five fields or an `@` descriptor, an optional `TZ=`/`CRON_TZ=` prefix), answering the parser's
 * error text, which upstream puts verbatim into the `spec.schedule` field error.
 */

interface Bounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

const months: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
};
const days: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };

const fieldBounds: readonly Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: months },
  { min: 0, max: 6, names: days },
];

const descriptors = new Set([
  '@yearly',
  '@annually',
  '@monthly',
  '@weekly',
  '@daily',
  '@midnight',
  '@hourly',
]);

/** Go's `strconv.Atoi` then robfig's `mustParseInt` checks. */
function mustParseInt(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr))
    throw new Error(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`,
    );
  const n = Number(expr);
  if (!Number.isSafeInteger(n))
    throw new Error(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`,
    );
  if (n < 0) throw new Error(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, names: Bounds['names']): number {
  const named = names ? Object.hasOwn(names, expr.toLowerCase()) : false;
  return named && names ? (names[expr.toLowerCase()] as number) : mustParseInt(expr);
}

/** One comma-separated part of a field: `*`, `?`, `n`, `a-b`, each with an optional `/step`. */
function checkRange(expr: string, r: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    start = parseIntOrName(lowAndHigh[0] ?? '', r.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', r.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] ?? '');
    if (lowAndHigh.length === 1) end = r.max;
  } else if (rangeAndStep.length > 2) throw new Error(`too many slashes: ${expr}`);
  if (start < r.min) throw new Error(`beginning of range (${start}) below minimum (${r.min}): ${expr}`);
  if (end > r.max) throw new Error(`end of range (${end}) above maximum (${r.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

/** Go's `time.ParseDuration` accepts what `@every` takes; a light check of its grammar. */
function checkDuration(s: string): void {
  if (!/^[+-]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$/.test(s) && s !== '0')
    throw new Error(`failed to parse duration ${s}: time: invalid duration ${JSON.stringify(s)}`);
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The error robfig/cron's standard parser gives for `spec`, or `undefined` when it parses.
 * Examples: `expected exactly 5 fields, found 1: [foo]`, `end of range (60) above maximum (59): 60`.
 */
export function cronScheduleError(spec: string): string | undefined {
  try {
    let rest = spec;
    if (rest.length === 0) throw new Error('empty spec string');
    if (rest.startsWith('TZ=') || rest.startsWith('CRON_TZ=')) {
      const i = rest.indexOf(' ');
      const eq = rest.indexOf('=');
      const location = rest.slice(eq + 1, i < 0 ? undefined : i);
      if (!isTimeZone(location))
        throw new Error(`provided bad location ${location}: unknown time zone ${location}`);
      rest = i < 0 ? '' : rest.slice(i).trim();
    }
    if (rest.startsWith('@')) {
      if (rest.startsWith('@every ')) checkDuration(rest.slice('@every '.length).trim());
      else if (!descriptors.has(rest)) throw new Error(`unrecognized descriptor: ${rest}`);
      return undefined;
    }
    const fields = rest.split(/[ \t\n\v\f\r]+/).filter((f) => f !== '');
    if (fields.length !== 5)
      throw new Error(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
    fields.forEach((field, i) => {
      for (const part of field.split(',')) checkRange(part, fieldBounds[i] as Bounds);
    });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Whether `name` is a time zone name the platform knows (an IANA name such as `Europe/Paris`). */
export function isKnownTimeZone(name: string): boolean {
  return isTimeZone(name);
}
