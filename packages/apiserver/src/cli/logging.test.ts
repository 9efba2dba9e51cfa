import { describe, expect, it } from 'vitest';
import { createCliLogger, formatTextRecord, readLogSettings } from './logging.js';

function capture(format: 'text' | 'json', verbosity: number) {
  const lines: string[] = [];
  const log = createCliLogger({ format, verbosity }, { write: (t) => lines.push(t) });
  return { log, lines };
}

describe('readLogSettings', () => {
  it('defaults to text at -v 0 and reads both flag spellings', () => {
    expect(readLogSettings({})).toEqual({ format: 'text', verbosity: 0 });
    expect(readLogSettings({ 'log-format': 'json', v: '2' })).toEqual({ format: 'json', verbosity: 2 });
    expect(readLogSettings({ 'logging-format': 'json', v: '=3' })).toEqual({ format: 'json', verbosity: 3 });
  });

  it.each([
    [{ v: 'abc' }, 'invalid argument "abc" for "-v, --v" flag'],
    [{ v: '' }, 'invalid argument "" for "-v, --v" flag'],
    [{ v: '1e3' }, 'invalid argument "1e3"'],
    [{ v: '99999' }, 'invalid argument "99999"'],
    [{ 'log-format': 'xml' }, 'format xml not supported (text, json)'],
    [{ 'log-format': '__proto__' }, 'format __proto__ not supported'],
    [{ 'log-format': 'json', 'logging-format': 'text' }, 'disagree'],
  ])('%j is refused', (values, message) => {
    expect(() => readLogSettings(values)).toThrow(message);
  });
});

describe('createCliLogger', () => {
  it('json: pino lines; -v records carry v and appear only at that verbosity', () => {
    const { log, lines } = capture('json', 1);
    log.info('hello', { a: 1 });
    log.v(1, 'shown');
    log.v(2, 'HTTP', { verb: 'GET' });
    log.error('bad', new Error('boom'));
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r.msg)).toEqual(['hello', 'shown', 'bad']);
    expect(records[0]).toMatchObject({ level: 30, a: 1, pid: process.pid });
    expect(records[1]).toMatchObject({ v: 1 });
    expect(records[2]).toMatchObject({ level: 50, err: { message: 'boom' } });
  });

  it('text: one compact line per record, fields as key=value', () => {
    const { log, lines } = capture('text', 2);
    log.v(2, 'HTTP', {
      verb: 'LIST',
      URI: '/api/v1/pods?limit=1',
      resp: 200,
      userAgent: 'kubectl/v1.32 (linux)',
    });
    log.warn('careful');
    expect(lines[0]).toMatch(
      /^I\d{4} \d\d:\d\d:\d\d\.\d{3} HTTP verb=LIST URI="\/api\/v1\/pods\?limit=1" resp=200 userAgent="kubectl\/v1.32 \(linux\)"\n$/,
    );
    expect(lines[1]).toMatch(/^W\d{4} [\d:.]+ careful\n$/);
  });

  it('text: an error keeps its stack; a line that is not JSON passes through', () => {
    const { log, lines } = capture('text', 0);
    log.error('request handler failed', new Error('boom'));
    expect(lines[0]).toMatch(/^E\d{4} [\d:.]+ request handler failed: Error: boom\n\s+at /);
    expect(formatTextRecord('plain\n')).toBe('plain\n');
  });
});
