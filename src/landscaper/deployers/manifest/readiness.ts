// Readiness checks (upstream lib/readinesscheck). Default: every managed object exists, and workloads are ready —
// Pod (Running/Succeeded with Ready=True), Deployment/ReplicaSet/StatefulSet/DaemonSet (observed and available),
// Job (Complete; Failed is not ready). Custom: objects selected by reference or labels must satisfy every
// requirement {jsonPath, operator, values:[{value}]} (operators of k8s selection: =, ==, !=, in, notin, exists, !).
import { isDeepStrictEqual } from 'node:util';
import { findResults, parseJsonPath } from '../../../apimachinery/jsonpath.ts';
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import { messageOf } from '../../../runtime/index.ts';
import type { CustomReadinessCheckConfiguration, ReadinessCheckConfiguration } from '../../api/manifest-deployer.ts';
import { parseTimeoutMs } from '../contract/timeout.ts';
import { describeRef, nsOpt, type ManagedResource } from './resources.ts';
import type { Pending, WatchInterest } from './target-watches.ts';
import { ConfigurationError } from '../../ls-error.ts';

type Obj = Record<string, unknown>;

function get(obj: unknown, ...path: string[]): unknown {
  let v: unknown = obj;
  for (const p of path) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Obj)[p];
  }
  return v;
}

function condition(obj: KubeObject, type: string): string | undefined {
  const list = get(obj, 'status', 'conditions');
  if (!Array.isArray(list)) return undefined;
  const c = list.find((x) => get(x, 'type') === type) as Obj | undefined;
  return typeof c?.['status'] === 'string' ? c['status'] : undefined;
}

/** Why obj is not ready, or undefined when it is. */
export function defaultNotReadyReason(obj: KubeObject): string | undefined {
  const gen = obj.metadata.generation ?? 0;
  const observed = Number(get(obj, 'status', 'observedGeneration') ?? 0);
  const replicas = Number(get(obj, 'spec', 'replicas') ?? 1);
  switch (obj.kind) {
    case 'Pod': {
      const phase = get(obj, 'status', 'phase');
      if (phase === 'Succeeded') return undefined;
      if (phase !== 'Running') return `pod is in phase ${String(phase ?? 'Pending')}`;
      return condition(obj, 'Ready') === 'True' ? undefined : 'pod is not ready';
    }
    case 'Job': {
      if (condition(obj, 'Failed') === 'True') return 'job failed';
      return condition(obj, 'Complete') === 'True' ? undefined : 'job is not complete';
    }
    case 'Deployment':
    case 'StatefulSet':
    case 'ReplicaSet': {
      if (observed < gen) return `observedGeneration ${observed} < generation ${gen}`;
      const field = obj.kind === 'Deployment' ? 'availableReplicas' : 'readyReplicas';
      const ready = Number(get(obj, 'status', field) ?? 0);
      return ready >= replicas ? undefined : `${ready}/${replicas} replicas ready`;
    }
    case 'DaemonSet': {
      if (observed < gen) return `observedGeneration ${observed} < generation ${gen}`;
      const desired = Number(get(obj, 'status', 'desiredNumberScheduled') ?? 0);
      const ready = Number(get(obj, 'status', 'numberReady') ?? 0);
      return ready >= desired ? undefined : `${ready}/${desired} daemon pods ready`;
    }
    default:
      return undefined;
  }
}

export function jsonPathValues(obj: unknown, path: string): unknown[] {
  const p = path.startsWith('.') || path.startsWith('[') ? path : `.${path}`;
  try {
    return findResults(parseJsonPath(`{${p}}`), obj).flat();
  } catch (err) {
    throw new ConfigurationError('JSONPath', 'InvalidJSONPath', `invalid jsonPath ${JSON.stringify(path)}: ${messageOf(err)}`, undefined, { cause: err });
  }
}

function requirementValues(values: unknown[] | undefined): unknown[] {
  return (values ?? []).map((v, i) => {
    if (typeof v !== 'object' || v === null || !('value' in v)) {
      throw new ConfigurationError('CustomReadinessCheck', 'InvalidRequirement', `requirement value at index ${i} does not contain the value key`);
    }
    return (v as { value: unknown }).value;
  });
}

function meets(value: unknown, operator: string, values: unknown[]): boolean {
  switch (operator.toLowerCase()) {
    case '=':
    case '==':
    case 'in':
      return values.some((v) => isDeepStrictEqual(value, v));
    case '!=':
      return !isDeepStrictEqual(value, values[0]);
    case 'notin':
      return !values.some((v) => isDeepStrictEqual(value, v));
    default:
      return false;
  }
}

/** Why obj fails the custom check, or undefined. */
export function customNotReadyReason(obj: KubeObject, check: CustomReadinessCheckConfiguration): string | undefined {
  for (const req of check.requirements ?? []) {
    const found = jsonPathValues(obj, req.jsonPath);
    const op = req.operator.toLowerCase();
    if (found.length === 0) {
      if (op === '!' || op === 'doesnotexist') continue;
      return `field with JSON path ${req.jsonPath} does not exist`;
    }
    if (op === 'exists') continue;
    if (op === '!' || op === 'doesnotexist') return `field with JSON path ${req.jsonPath} exists`;
    const values = requirementValues(req.values);
    for (const v of found) if (!meets(v, op, values)) return `requirement ${req.jsonPath} ${req.operator} ${JSON.stringify(values)} is not fulfilled (value ${JSON.stringify(v)})`;
  }
  return undefined;
}

async function selectObjects(client: KubeClient, check: CustomReadinessCheckConfiguration, interests: WatchInterest[]): Promise<{ objects: KubeObject[]; missing?: string }> {
  const objects: KubeObject[] = [];
  let missing: string | undefined;
  for (const sel of check.resourceSelector ?? []) {
    const ref = await client.resolve({ apiVersion: sel.apiVersion, kind: sel.kind });
    interests.push({ ref, ...nsOpt(ref, sel.namespace), name: sel.name });
    try {
      objects.push(await client.get(ref, sel.name, nsOpt(ref, sel.namespace)));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      missing ??= `${sel.kind} ${sel.namespace ? `${sel.namespace}/` : ''}${sel.name} not found`;
    }
  }
  if (check.labelSelector) {
    const ls = check.labelSelector as { apiVersion: string; kind: string; labels?: Record<string, string>; matchLabels?: Record<string, string> };
    const ref = await client.resolve({ apiVersion: ls.apiVersion, kind: ls.kind });
    const labels = ls.labels ?? ls.matchLabels ?? {};
    const labelSelector = Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',');
    interests.push({ ref, labelSelector });
    const list = await client.list(ref, { labelSelector });
    if (list.items.length === 0) missing ??= `no ${ls.kind} matches the labels ${JSON.stringify(labels)}`;
    objects.push(...list.items.map((i) => ({ ...i, apiVersion: i.apiVersion ?? ls.apiVersion, kind: i.kind ?? ls.kind })));
  }
  return missing === undefined ? { objects } : { objects, missing };
}

export interface ReadinessOptions {
  client: KubeClient;
  managed: ManagedResource[];
  config: ReadinessCheckConfiguration | undefined;
}

/** The readiness timeout (default 180 s; the deprecated provider-level timeout when the checks have none). */
export function readinessTimeoutMs(config: ReadinessCheckConfiguration | undefined, legacyTimeout: string | undefined): number | undefined {
  return parseTimeoutMs((config as { timeout?: string } | undefined)?.timeout ?? legacyTimeout, '180s');
}

/** One pass over every check: undefined when all is ready, else the first reason and every object consulted. */
export async function checkReadiness(o: ReadinessOptions): Promise<Pending | undefined> {
  const interests: WatchInterest[] = [];
  let reason: string | undefined;
  if (!o.config?.disableDefault) {
    for (const mr of o.managed) {
      const ref = await o.client.resolve({ apiVersion: mr.resource.apiVersion, kind: mr.resource.kind });
      interests.push({ ref, ...nsOpt(ref, mr.resource.namespace), name: mr.resource.name });
      if (reason !== undefined) continue;
      try {
        const obj = await o.client.get(ref, mr.resource.name, nsOpt(ref, mr.resource.namespace));
        const why = defaultNotReadyReason({ ...obj, kind: obj.kind ?? mr.resource.kind });
        if (why) reason = `${describeRef(mr.resource)}: ${why}`;
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
        reason = `${describeRef(mr.resource)} does not exist`;
      }
    }
  }
  for (const check of o.config?.custom ?? []) {
    if (check.disabled || reason !== undefined) continue;
    const { objects, missing } = await selectObjects(o.client, check, interests);
    if (missing) {
      reason = `custom readiness check "${check.name}": ${missing}`;
      continue;
    }
    for (const obj of objects) {
      const why = customNotReadyReason(obj, check);
      if (why) {
        reason = `custom readiness check "${check.name}": ${obj.kind} ${obj.metadata.namespace ? `${obj.metadata.namespace}/` : ''}${obj.metadata.name}: ${why}`;
        break;
      }
    }
  }
  return reason === undefined ? undefined : { waiting: reason, interests };
}
