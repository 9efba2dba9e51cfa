/**
 * Parses a duration flag the way upstream's flags read Go durations: a sequence of decimal numbers
 * with units `ms`, `s`, `m`, `h` (`2s`, `1m30s`, `1.5h`, `300ms`). Returns milliseconds; throws on
 * anything else (a bare number has no unit and is rejected, as Go's time.ParseDuration does, except `0`).
 */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null = re.exec(s);
  while (m !== null) {
    total += Number(m[1]) * (unit[m[2] as string] as number);
    pos = re.lastIndex;
    m = re.exec(s);
  }
  if (pos === 0 || pos !== s.length)
    throw new Error(`invalid duration "${text}" (examples: 2s, 5m, 1m30s, 300ms)`);
  return Math.round(total);
}
