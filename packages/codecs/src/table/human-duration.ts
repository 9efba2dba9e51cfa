/**
 * Ages as kubectl prints them: upstream's `duration.HumanDuration` (k8s.io/apimachinery) and
 * the printers' `translateTimestampSince`, so a server-side Table reads like a client-side one.
 */

const secondMs = 1000;
const minuteMs = 60 * secondMs;
const hourMs = 60 * minuteMs;

/** `5s`, `2m30s`, `17m`, `3h2m`, `20h`, `2d5h`, `40d`, `2y34d`, `9y`; `<invalid>` below -1 s. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / secondMs);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / minuteMs);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / hourMs);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** The age of an RFC 3339 timestamp at `now`: `<unknown>` when absent, `<invalid>` when unparsable. */
export function translateTimestampSince(timestamp: unknown, now: number): string {
  if (timestamp === undefined || timestamp === null || timestamp === '') return '<unknown>';
  if (typeof timestamp !== 'string') return '<invalid>';
  const t = Date.parse(timestamp);
  if (Number.isNaN(t)) return '<invalid>';
  return humanDuration(now - t);
}
