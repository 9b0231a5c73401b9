// The CronJob controller's decisions with an injected clock: which scheduled time is due, missed starts and the
// starting deadline, the concurrency policies, suspend, time zones, history pruning, the Job it makes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CronJob, CronJobSpec, Job } from '../../src/apimachinery/api/index.ts';
import { parseCronSchedule } from '../../src/apimachinery/cron-schedule.ts';
import { decideRun, reconcileChildren } from '../../src/workloads/cronjob/decide.ts';
import { jobsBeyondHistoryLimits } from '../../src/workloads/cronjob/history.ts';
import { jobFromTemplate, rfc3339In } from '../../src/workloads/cronjob/job-template.ts';
import { mostRecentScheduleTime } from '../../src/workloads/cronjob/schedule-times.ts';

const at = (iso: string): Date => new Date(iso);

function cronJob(spec: Partial<CronJobSpec>, status: CronJob['status'] = {}, created = '2026-11-28T10:00:00Z'): CronJob {
  return {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: { name: 'tick', namespace: 'default', uid: 'cj-uid', creationTimestamp: created },
    spec: {
      schedule: '* * * * *',
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
      jobTemplate: { metadata: { labels: { app: 'tick' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
      ...spec,
    },
    status,
  };
}

function job(name: string, uid: string, finished?: 'Complete' | 'Failed', startTime?: string, completionTime?: string): Job {
  return {
    metadata: { name, namespace: 'default', uid },
    spec: { template: {} },
    status: {
      ...(startTime ? { startTime } : {}),
      ...(completionTime ? { completionTime } : {}),
      ...(finished ? { conditions: [{ type: finished, status: 'True' }] } : {}),
    },
  } as Job;
}

const reasons = (events: [string, string, string][]): string[] => events.map(([, reason]) => reason);

describe('CronJob schedule times', () => {
  test('every minute: nothing due before the first minute after creation; due at it; requeued just after the next', () => {
    const cj = cronJob({});
    const early = decideRun(cj, at('2026-11-28T10:00:30Z'));
    assert.equal(early.start, undefined);
    assert.equal(early.requeueMs, 30_100, 'requeued 100 ms after 10:01:00');
    const due = decideRun(cj, at('2026-11-28T10:01:00.050Z'));
    assert.deepEqual(due.start, at('2026-11-28T10:01:00Z'));
    assert.equal(due.requeueMs, 60_050);
  });

  test('after a schedule, the same time is never started twice', () => {
    const cj = cronJob({}, { lastScheduleTime: '2026-11-28T10:01:00Z' });
    assert.equal(decideRun(cj, at('2026-11-28T10:01:30Z')).start, undefined);
    assert.deepEqual(decideRun(cj, at('2026-11-28T10:02:00Z')).start, at('2026-11-28T10:02:00Z'));
  });

  test('missed starts: only the most recent one runs; more than 100 warns TooManyMissedTimes', () => {
    const cj = cronJob({}, { lastScheduleTime: '2026-11-28T10:01:00Z' });
    const five = decideRun(cj, at('2026-11-28T10:06:10Z'));
    assert.deepEqual(five.start, at('2026-11-28T10:06:00Z'));
    assert.deepEqual(reasons(five.events), []);
    assert.equal(mostRecentScheduleTime(cj, at('2026-11-28T10:06:10Z'), parseCronSchedule('* * * * *', 'UTC'), true).missed, 5, '10:02 to 10:06');
    const many = decideRun(cj, at('2026-11-28T13:00:10Z'));
    assert.deepEqual(many.start, at('2026-11-28T13:00:00Z'));
    assert.deepEqual(many.events, [['Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew']]);
  });

  test('startingDeadlineSeconds bounds the missed times counted and refuses a late start with MissSchedule', () => {
    const cj = cronJob({ startingDeadlineSeconds: 600 }, { lastScheduleTime: '2026-11-28T10:01:00Z' });
    const late = decideRun(cj, at('2026-11-28T13:00:10Z'));
    assert.deepEqual(late.start, at('2026-11-28T13:00:00Z'), 'within the deadline: starts');
    assert.deepEqual(reasons(late.events), [], 'the deadline keeps the count under 100');
    const hourly = cronJob({ schedule: '0 * * * *', startingDeadlineSeconds: 30 }, { lastScheduleTime: '2026-11-28T10:00:00Z' });
    const missed = decideRun(hourly, at('2026-11-28T11:00:45Z'));
    assert.equal(missed.start, undefined);
    // As upstream: times before now − startingDeadlineSeconds are not counted at all, so none is due (and
    // syncCronJob's MissSchedule branch is left for a due time at the window's very edge).
    assert.equal(missed.events.length, 0, 'outside the window nothing is due at all');
    assert.equal(missed.requeueMs, 59 * 60_000 + 15_000 + 100, 'looks again just after 12:00');
    const edge = cronJob({ schedule: '0 * * * *', startingDeadlineSeconds: 30 }, { lastScheduleTime: '2026-11-28T10:00:00Z' }, '2026-11-28T09:00:00Z');
    // Counted from now − 30 s the 11:00 time is still in the window, but only just: start it.
    assert.deepEqual(decideRun(edge, at('2026-11-28T11:00:29Z')).start, at('2026-11-28T11:00:00Z'));
  });

  test('suspend: nothing starts and no requeue (only a change to the CronJob wakes it)', () => {
    const d = decideRun(cronJob({ suspend: true }), at('2026-11-28T10:05:00Z'));
    assert.deepEqual(d, { events: [], replaceActive: false });
  });

  test('time zones: 09:00 in Europe/Berlin is 08:00 UTC in winter; the annotation carries the zone offset', () => {
    const cj = cronJob({ schedule: '0 9 * * *', timeZone: 'Europe/Berlin' }, {}, '2026-11-28T00:00:00Z');
    assert.equal(decideRun(cj, at('2026-11-28T07:59:00Z')).start, undefined);
    const due = decideRun(cj, at('2026-11-28T08:00:01Z'));
    assert.deepEqual(due.start, at('2026-11-28T08:00:00Z'));
    const made = jobFromTemplate(cj, due.start!);
    assert.equal(made.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-11-28T09:00:00+01:00');
    assert.equal(rfc3339In(at('2026-07-01T12:00:00Z'), 'America/New_York'), '2026-07-01T08:00:00-04:00');
    assert.equal(rfc3339In(at('2026-07-01T12:00:00Z')), '2026-07-01T12:00:00Z');
    const unknown = decideRun(cronJob({ timeZone: 'Mars/Olympus' }), at('2026-11-28T10:05:00Z'));
    assert.deepEqual(unknown.events, [['Warning', 'UnknownTimeZone', 'invalid timeZone: "Mars/Olympus": unknown time zone Mars/Olympus']]);
  });

  test('a TZ= prefix kept from before is honoured with an UnsupportedSchedule warning', () => {
    const d = decideRun(cronJob({ schedule: 'CRON_TZ=Asia/Tokyo 0 9 * * *' }, {}, '2026-11-28T00:00:00Z'), at('2026-11-29T00:00:05Z'));
    assert.deepEqual(d.start, at('2026-11-29T00:00:00Z'));
    assert.deepEqual(reasons(d.events), ['UnsupportedSchedule']);
  });
});

describe('CronJob concurrency policies', () => {
  const running = { active: [{ kind: 'Job', name: 'tick-29402101', uid: 'j1', namespace: 'default', apiVersion: 'batch/v1' }], lastScheduleTime: '2026-11-28T10:01:00Z' };
  test('Allow starts beside the active Job', () => {
    const d = decideRun(cronJob({ concurrencyPolicy: 'Allow' }, running), at('2026-11-28T10:02:00Z'));
    assert.deepEqual(d.start, at('2026-11-28T10:02:00Z'));
    assert.equal(d.replaceActive, false);
  });
  test('Forbid skips with JobAlreadyActive and comes back at the next time', () => {
    const d = decideRun(cronJob({ concurrencyPolicy: 'Forbid' }, running), at('2026-11-28T10:02:00Z'));
    assert.equal(d.start, undefined);
    assert.deepEqual(d.events, [['Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid']]);
    assert.equal(d.requeueMs, 60_100);
  });
  test('Replace starts after deleting the active Job', () => {
    const d = decideRun(cronJob({ concurrencyPolicy: 'Replace' }, running), at('2026-11-28T10:02:00Z'));
    assert.deepEqual(d.start, at('2026-11-28T10:02:00Z'));
    assert.equal(d.replaceActive, true);
  });
});

describe('CronJob children and history', () => {
  test('a finished active Job leaves the list (SawCompletedJob), a succeeded one sets lastSuccessfulTime, a gone one MissingJob', () => {
    const cj = cronJob({}, {
      active: [
        { name: 'tick-1', uid: 'a' },
        { name: 'tick-2', uid: 'b' },
        { name: 'tick-3', uid: 'c' },
      ],
    });
    const { status, events } = reconcileChildren(cj, [job('tick-1', 'a', 'Complete', '2026-11-28T10:01:00Z', '2026-11-28T10:01:30Z'), job('tick-2', 'b'), job('tick-9', 'z')], new Set(['c']));
    assert.deepEqual(status.active?.map((r) => r.name), ['tick-2']);
    assert.equal(status.lastSuccessfulTime, '2026-11-28T10:01:30Z');
    assert.deepEqual(events, [
      ['Normal', 'SawCompletedJob', 'Saw completed job: tick-1, condition: Complete'],
      ['Warning', 'UnexpectedJob', 'Saw a job that the controller did not create or forgot: tick-9'],
      ['Normal', 'MissingJob', 'Active job went missing: tick-3'],
    ]);
  });

  test('history limits keep the newest finished Jobs of each kind', () => {
    const cj = cronJob({ successfulJobsHistoryLimit: 2, failedJobsHistoryLimit: 0 });
    const jobs = [
      job('s3', '3', 'Complete', '2026-11-28T10:03:00Z'),
      job('s1', '1', 'Complete', '2026-11-28T10:01:00Z'),
      job('s2', '2', 'Complete', '2026-11-28T10:02:00Z'),
      job('f1', '4', 'Failed', '2026-11-28T10:04:00Z'),
      job('running', '5', undefined, '2026-11-28T10:05:00Z'),
    ];
    assert.deepEqual(jobsBeyondHistoryLimits(cj, jobs).map((j) => j.metadata.name), ['s1', 'f1']);
  });

  test('the Job: named <cronjob>-<minutes since the epoch>, labelled from the template, controlled by the CronJob', () => {
    const made = jobFromTemplate(cronJob({}), at('2026-11-28T10:01:00Z'));
    assert.equal(made.metadata.name, `tick-${Date.parse('2026-11-28T10:01:00Z') / 60_000}`);
    assert.deepEqual(made.metadata.labels, { app: 'tick' });
    assert.equal(made.metadata.annotations?.['batch.kubernetes.io/cronjob-scheduled-timestamp'], '2026-11-28T10:01:00Z');
    assert.deepEqual(made.metadata.ownerReferences, [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'tick', uid: 'cj-uid', controller: true, blockOwnerDeletion: true }]);
  });
});
