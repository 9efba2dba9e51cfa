/**
 * The CLI's log: pino records, written as pino's JSON lines (`--log-format json`) or as one compact
 * klog-like line each (`--log-format text`, the default), on standard error. `-v N` sets the
 * verbosity: records logged at a level above it are not even built (`-v 2` adds a line per request).
 */
import pino from 'pino';
import type { Logger } from '../options.js';

/** The values `--log-format` accepts. */
export const logFormats = ['text', 'json'] as const;

/** `--log-format`. */
export type LogFormat = (typeof logFormats)[number];

/** The `parseArgs` options of the log flags (`-v` is upstream klog's verbosity). */
export const logFlagOptions = {
  'log-format': { type: 'string' },
  'logging-format': { type: 'string' },
  v: { type: 'string', short: 'v' },
} as const;

/** The log settings of the command line. */
export interface LogSettings {
  readonly format: LogFormat;
  /** `-v`: 0 (the default) logs what an operator always wants; 2 adds one line per request. */
  readonly verbosity: number;
}

/** Where log lines go: anything with a `write(text)` (standard error by default). */
export interface LogSink {
  write(text: string): unknown;
}

/** The CLI's logger: the server's `Logger` plus warnings, fields and verbosity levels. */
export interface CliLogger extends Logger {
  readonly settings: LogSettings;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, error?: unknown): void;
  /** A record shown only at `-v level` or more (field `v`, as klog's JSON has it). */
  v(level: number, message: string, fields?: Record<string, unknown>): void;
}

/**
 * Reads `--log-format` (upstream's name `--logging-format` too) and `-v`/`--v`; throws an Error
 * naming the flag, in upstream's `invalid argument` form.
 */
export function readLogSettings(values: Record<string, unknown>): LogSettings {
  const given = [values['log-format'], values['logging-format']].filter((v) => typeof v === 'string');
  if (given.length === 2 && given[0] !== given[1])
    throw new Error('--log-format and --logging-format disagree; give one');
  const format = (given[0] as string | undefined) ?? 'text';
  if (!(logFormats as readonly string[]).includes(format))
    throw new Error(
      `invalid argument "${format}" for "--log-format" flag: format ${format} not supported (${logFormats.join(', ')})`,
    );
  const raw = values.v;
  let verbosity = 0;
  if (raw !== undefined) {
    // pflag reads `-v=2` as `-v 2`; node's parser leaves the `=` on the value.
    const text = String(raw).replace(/^=/, '');
    verbosity = Number(text);
    if (!/^\d{1,3}$/.test(text))
      throw new Error(`invalid argument "${text}" for "-v, --v" flag: must be a non-negative integer`);
  }
  return { format: format as LogFormat, verbosity };
}

/** pino's numeric levels, as klog's severity letters. */
const severity: Readonly<Record<number, string>> = Object.freeze({
  10: 'I',
  20: 'I',
  30: 'I',
  40: 'W',
  50: 'E',
  60: 'F',
});

const bareValue = /^[\w.:/@+-]+$/;

function textValue(value: unknown): string {
  if (typeof value === 'string') return bareValue.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * One pino JSON record as a compact klog-like line: severity letter, `MMDD hh:mm:ss.mmm` (local
 * time), the message, then `key=value` for each field (strings with spaces quoted); an error's
 * stack follows on its own lines.
 */
export function formatTextRecord(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, pid: _pid, hostname: _hostname, err, ...fields } = record;
  const t = new Date(typeof time === 'number' ? time : Date.now());
  const head = `${severity[Number(level)] ?? 'I'}${pad(t.getMonth() + 1)}${pad(t.getDate())} ${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}.${pad(t.getMilliseconds(), 3)}`;
  let out = `${head} ${typeof msg === 'string' ? msg : ''}`;
  for (const [k, v] of Object.entries(fields)) if (k !== 'v') out += ` ${k}=${textValue(v)}`;
  if (err && typeof err === 'object') {
    const e = err as { message?: unknown; stack?: unknown };
    out += `: ${typeof e.stack === 'string' ? e.stack : String(e.message ?? '')}`;
  }
  return `${out}\n`;
}

/** A pino logger writing to `sink`: JSON lines as they are, or each formatted by `formatTextRecord`. */
export function createPino(format: LogFormat, sink: LogSink): pino.Logger {
  const destination: pino.DestinationStream =
    format === 'json'
      ? { write: (line: string) => void sink.write(line) }
      : { write: (line: string) => void sink.write(formatTextRecord(line)) };
  return pino({ level: 'info', base: { pid: process.pid } }, destination);
}

/** The CLI's logger for `settings`, writing to `sink` (standard error by default). */
export function createCliLogger(settings: LogSettings, sink: LogSink = process.stderr): CliLogger {
  const log = createPino(settings.format, sink);
  return {
    settings,
    info: (message, fields) => (fields ? log.info(fields, message) : log.info(message)),
    warn: (message, fields) => (fields ? log.warn(fields, message) : log.warn(message)),
    error: (message, error) =>
      error === undefined
        ? log.error(message)
        : log.error({ err: error instanceof Error ? error : new Error(String(error)) }, message),
    v(level, message, fields) {
      if (level > settings.verbosity) return;
      log.info({ v: level, ...fields }, message);
    },
  };
}
