// Query parameters and DeleteOptions bodies that shape a write.
import { isPlainObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { boolParam, int64Param } from '../http/query-params.ts';
import type { DeleteOptions, FieldValidation, PropagationPolicy, WriteOptions } from '../registry/write-types.ts';

function dryRunOf(values: unknown): boolean {
  const list = Array.isArray(values) ? values : values === undefined || values === null ? [] : [values];
  for (const v of list) if (v !== 'All') throw errors.badRequest(`Invalid dry run value: ${String(v)}; supported values: All`);
  return list.length > 0;
}

export function writeOptions(query: URLSearchParams): WriteOptions {
  const validation = query.get('fieldValidation') ?? 'Warn';
  if (!['Strict', 'Warn', 'Ignore'].includes(validation)) {
    throw errors.badRequest(`fieldValidation parameter unsupported: ${validation} (supported: Ignore, Warn, Strict)`);
  }
  const fieldManager = query.get('fieldManager') ?? undefined;
  if (fieldManager !== undefined && fieldManager.length > 128) throw errors.badRequest('fieldManager: Too long: may not be more than 128 bytes');
  const options: WriteOptions = { dryRun: dryRunOf(query.getAll('dryRun')) };
  // Left unset when not asked for (the server defaults to Warn), so admission reports the options as sent.
  if (query.has('fieldValidation')) options.fieldValidation = validation as FieldValidation;
  if (fieldManager !== undefined) options.fieldManager = fieldManager;
  return options;
}

const policies = new Set(['Background', 'Foreground', 'Orphan']);

function gracePeriodOf(value: unknown): number {
  const seconds = typeof value === 'string' && /^[+-]?\d+$/.test(value) ? Number(value) : value;
  if (typeof seconds !== 'number' || !Number.isSafeInteger(seconds)) throw errors.badRequest(`gracePeriodSeconds: invalid value ${JSON.stringify(value)}: must be an integer`);
  return seconds;
}

export function deleteOptions(query: URLSearchParams, body: unknown): DeleteOptions {
  const options: DeleteOptions = { dryRun: dryRunOf(query.getAll('dryRun')) };
  let policy = query.get('propagationPolicy') ?? undefined;
  if (policy === undefined && query.has('orphanDependents')) policy = boolParam(query, 'orphanDependents') ? 'Orphan' : 'Background';
  let grace: unknown = int64Param(query, 'gracePeriodSeconds');
  if (body !== undefined) {
    if (!isPlainObject(body)) throw errors.badRequest('the body of a delete request must be a DeleteOptions object');
    if (body['kind'] !== undefined && body['kind'] !== 'DeleteOptions') throw errors.badRequest(`expected DeleteOptions, got ${String(body['kind'])}`);
    if (typeof body['propagationPolicy'] === 'string') policy = body['propagationPolicy'];
    else if (body['orphanDependents'] === true) policy = 'Orphan';
    else if (body['orphanDependents'] === false) policy = 'Background';
    if (isPlainObject(body['preconditions'])) options.preconditions = body['preconditions'] as DeleteOptions['preconditions'] & object;
    if (body['dryRun'] !== undefined) options.dryRun = options.dryRun || dryRunOf(body['dryRun']);
    if (body['gracePeriodSeconds'] !== undefined && body['gracePeriodSeconds'] !== null) grace = body['gracePeriodSeconds'];
  }
  if (grace !== undefined) options.gracePeriodSeconds = gracePeriodOf(grace);
  if (policy !== undefined) {
    if (!policies.has(policy)) {
      throw errors.invalid('DeleteOptions', '', '', [
        { reason: 'FieldValueNotSupported', field: 'propagationPolicy', message: `Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"` },
      ]);
    }
    options.propagationPolicy = policy as PropagationPolicy;
  }
  return options;
}
