// CronJob schedules as robfig/cron's ParseStandard reads them: what parses, what it refuses and with which
// message (kube-apiserver returns it verbatim), and the times croner computes in a time zone.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCronSchedule } from '../../src/apimachinery/cron-schedule.ts';

const from = new Date('2026-01-01T12:00:30Z');

describe('cron schedules', () => {
  test('fields, names, ranges, steps, descriptors and @every', () => {
    const cases: [string, string | undefined][] = [
      ['* * * * *', '2026-01-01T12:01:00.000Z'],
      ['*/5 * * * *', '2026-01-01T12:05:00.000Z'],
      ['5/15 * * * *', '2026-01-01T12:05:00.000Z'],
      ['0 9 * * MON-FRI', '2026-01-02T09:00:00.000Z'],
      ['0 0 1 jan,jul ?', '2026-07-01T00:00:00.000Z'],
      ['0 0 13 * 5', '2026-01-02T00:00:00.000Z'],
      ['@hourly', '2026-01-01T13:00:00.000Z'],
      ['@midnight', '2026-01-02T00:00:00.000Z'],
      ['@every 90s', '2026-01-01T12:02:00.000Z'],
      ['0 0 31 2 *', undefined],
    ];
    for (const [spec, next] of cases) assert.equal(parseCronSchedule(spec, 'UTC').next(from)?.toISOString(), next, spec);
  });

  test('time zones: the timeZone argument and a TZ= prefix', () => {
    assert.equal(parseCronSchedule('0 9 * * *', 'Europe/Berlin').next(from)?.toISOString(), '2026-01-02T08:00:00.000Z');
    assert.equal(parseCronSchedule('CRON_TZ=Asia/Tokyo 0 9 * * *').next(from)?.toISOString(), '2026-01-02T00:00:00.000Z');
  });

  test("refused with robfig's messages, including croner's extensions", () => {
    const cases: [string, string][] = [
      ['* * *', 'expected exactly 5 fields, found 3: [* * *]'],
      ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
      ['61 * * * *', 'end of range (61) above maximum (59): 61'],
      ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
      ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
      ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
      ['0 0 L * *', 'failed to parse int from L: strconv.Atoi: parsing "L": invalid syntax'],
      ['0 0 * * 1#2', 'failed to parse int from 1#2: strconv.Atoi: parsing "1#2": invalid syntax'],
      ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
      ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
      ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
      ['*/0 * * * *', 'step of range should be a positive number: */0'],
      ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
      ['@every soon', 'failed to parse duration @every soon: time: invalid duration "soon"'],
      ['TZ=Mars/Olympus 0 * * * *', 'provided bad location Mars/Olympus: unknown time zone Mars/Olympus'],
    ];
    for (const [spec, message] of cases) assert.throws(() => parseCronSchedule(spec), { name: 'CronScheduleError', message }, spec);
  });
});
