// batch/v1 CronJob defaulting and validation, after kube-apiserver's SetDefaults_CronJob and
// pkg/apis/batch/validation (ValidateCronJobCreate/Update): the schedule parses as robfig's ParseStandard, a
// TZ=/CRON_TZ= prefix is refused (the timeZone field replaces it) unless the stored schedule already had one, the
// time zone is one the server knows, and the job template is a valid Job without a selector.
import { isKnownTimeZone, parseCronSchedule, CronScheduleError } from '../../apimachinery/cron-schedule.ts';
import { fieldError, toStatusCauses, type FieldError } from '../../apimachinery/field-error.ts';
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { defaultPodSpec, validatePodSpec } from './pod-spec.ts';
import type { ResourceType } from './resource-type.ts';
import { child, nonNegative, record, restartPolicy } from './workload-strategies.ts';

type Json = Record<string, unknown>;

/** The controller names Jobs `<cronjob>-<minutes>` (11 characters more) and a Job's name is at most 63. */
const MAX_NAME_LENGTH = 52;
/** IANA's naming rules for a path component, tolerating digits and `+` for legacy names. */
const TIME_ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

function defaultCronJob(cronJob: KubeObject): void {
  const spec = child(cronJob, 'spec');
  if (spec['concurrencyPolicy'] === undefined || spec['concurrencyPolicy'] === '') spec['concurrencyPolicy'] = 'Allow';
  spec['suspend'] ??= false;
  spec['successfulJobsHistoryLimit'] ??= 3;
  spec['failedJobsHistoryLimit'] ??= 1;
  defaultPodSpec(child(child(child(child(spec, 'jobTemplate'), 'spec'), 'template'), 'spec'));
}

function scheduleErrors(schedule: unknown, timeZone: unknown, oldSchedule: unknown): FieldError[] {
  const path = 'spec.schedule';
  if (typeof schedule !== 'string' || schedule === '') return [fieldError.required(path)];
  const errors: FieldError[] = [];
  try {
    parseCronSchedule(schedule, 'UTC');
  } catch (error) {
    if (!(error instanceof CronScheduleError)) throw error;
    errors.push(fieldError.invalid(path, schedule, error.message));
  }
  const allowTz = typeof oldSchedule === 'string' && oldSchedule.includes('TZ');
  if (allowTz && schedule.includes('TZ') && timeZone !== undefined) errors.push(fieldError.invalid(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  else if (!allowTz && schedule.includes('TZ')) errors.push(fieldError.invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  return errors;
}

function timeZoneErrors(timeZone: unknown): FieldError[] {
  const path = 'spec.timeZone';
  if (timeZone === undefined || timeZone === null) return [];
  const name = String(timeZone);
  if (name === '') return [fieldError.invalid(path, name, 'timeZone must be nil or non-empty string')];
  if (name.split('/').some((part) => part === '.' || part === '..' || part.startsWith('-') || !TIME_ZONE_PART.test(part))) {
    return [fieldError.invalid(path, name, `unknown time zone ${name}`)];
  }
  const errors: FieldError[] = [];
  if (name.toLowerCase() === 'local') errors.push(fieldError.invalid(path, name, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  else if (!isKnownTimeZone(name)) errors.push(fieldError.invalid(path, name, `unknown time zone ${name}`));
  return errors;
}

function concurrencyPolicyErrors(policy: unknown): FieldError[] {
  const path = 'spec.concurrencyPolicy';
  if (policy === 'Allow' || policy === 'Forbid' || policy === 'Replace') return [];
  if (policy === undefined || policy === '') return [fieldError.required(path)];
  return [fieldError.notSupported(path, policy, ['Allow', 'Forbid', 'Replace'])];
}

/** ValidateJobTemplateSpec: the Job spec's own checks, and no selector (the Job's is generated). */
function jobTemplateCauses(jobSpec: Json): StatusCause[] {
  const path = 'spec.jobTemplate.spec';
  const causes: StatusCause[] = [];
  for (const field of ['parallelism', 'completions', 'backoffLimit', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished']) nonNegative(jobSpec, field, path, causes);
  causes.push(...validatePodSpec(record(record(jobSpec['template'])['spec']), `${path}.template.spec`), ...restartPolicy(jobSpec, ['OnFailure', 'Never'], path));
  const errors: FieldError[] = [];
  if (isPlainObject(jobSpec['selector'])) errors.push(fieldError.invalidWithoutValue(`${path}.selector`, '`selector` will be auto-generated'));
  if (jobSpec['manualSelector'] === true) errors.push(fieldError.notSupported(`${path}.manualSelector`, true, ['nil', 'false']));
  return [...causes, ...toStatusCauses(errors)];
}

function validateCronJob(cronJob: KubeObject, old: KubeObject | undefined): StatusCause[] {
  const spec = record(cronJob['spec']);
  const oldSpec = old ? record(old['spec']) : undefined;
  const errors: FieldError[] = [];
  const name = cronJob.metadata.name ?? '';
  if (!old && name.length > MAX_NAME_LENGTH) errors.push(fieldError.invalid('metadata.name', name, `must be no more than ${MAX_NAME_LENGTH} characters`));
  errors.push(...scheduleErrors(spec['schedule'], spec['timeZone'], oldSpec?.['schedule']));
  const causes = toStatusCauses(errors);
  nonNegative(spec, 'startingDeadlineSeconds', 'spec', causes);
  const timeZoneChanged = !oldSpec || oldSpec['timeZone'] !== spec['timeZone'];
  if (timeZoneChanged) causes.push(...toStatusCauses(timeZoneErrors(spec['timeZone'])));
  causes.push(...toStatusCauses(concurrencyPolicyErrors(spec['concurrencyPolicy'])));
  causes.push(...jobTemplateCauses(record(record(spec['jobTemplate'])['spec'])));
  for (const field of ['successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) nonNegative(spec, field, 'spec', causes);
  return causes;
}

export const cronJobStrategy: Pick<ResourceType, 'prepareForCreate' | 'prepareForUpdate' | 'validate'> = {
  prepareForCreate: defaultCronJob,
  prepareForUpdate: defaultCronJob,
  validate: validateCronJob,
};
