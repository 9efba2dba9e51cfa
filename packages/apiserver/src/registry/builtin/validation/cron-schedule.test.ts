import { describe, expect, it } from 'vitest';
import { cronScheduleError } from './cron-schedule.js';

describe('cronScheduleError (robfig/cron ParseStandard messages)', () => {
  it.each([
    '*/5 * * * *',
    '0 0 * * *',
    '0 9-17 * * mon-fri',
    '15,45 */2 1 JAN sun',
    '? * * * ?',
    '@hourly',
    '@daily',
    '@midnight',
    '@every 1h30m',
    'TZ=UTC 0 0 * * *',
    'CRON_TZ=Europe/Paris 0 0 * * *',
  ])('%s parses', (spec) => {
    expect(cronScheduleError(spec)).toBeUndefined();
  });

  it.each([
    ['', 'empty spec string'],
    ['foo', 'expected exactly 5 fields, found 1: [foo]'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/1/2 * * * *', 'too many slashes: */1/2'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every soon', 'failed to parse duration soon: time: invalid duration "soon"'],
    ['TZ=Nowhere/City 0 0 * * *', 'provided bad location Nowhere/City: unknown time zone Nowhere/City'],
  ])('%j is refused with %j', (spec, message) => {
    expect(cronScheduleError(spec)).toBe(message);
  });

  it('never throws on hostile input', () => {
    for (const spec of ['__proto__ * * * *', 'constructor * * * *', '*'.repeat(10_000), '-', '/', ',,,,'])
      expect(typeof cronScheduleError(spec)).toBe('string');
  });
});
