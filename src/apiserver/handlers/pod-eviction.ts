// POST pods/<name>/eviction (policy/v1 Eviction): what `kubectl drain` calls. As kube-apiserver's EvictionREST:
// the pod's disruption budget must allow it (eviction-budget.ts), then the pod gets the DisruptionTarget condition
// and is deleted with the Eviction's deleteOptions.
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { nowTime } from '../../apimachinery/time.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { takeDisruption } from './eviction-budget.ts';
import { createdStatusJson } from './created-status.ts';
import { respondWhenDurable } from './durable-response.ts';
import { readObjectBody, type ResourceCall } from './resource-call.ts';
import { deleteOptions } from './write-options.ts';

const evictionVersions = new Set(['policy/v1', 'policy/v1beta1']);

/** The DisruptionTarget condition a pod still running gets before it goes (kube's PodDisruptionConditions). */
function markDisruptionTarget(call: ResourceCall, pod: KubeObject): void {
  const status = isPlainObject(pod['status']) ? pod['status'] : {};
  if (status['phase'] === 'Succeeded' || status['phase'] === 'Failed') return;
  const conditions = (Array.isArray(status['conditions']) ? status['conditions'] : []).filter((c) => !isPlainObject(c) || c['type'] !== 'DisruptionTarget');
  const condition = { type: 'DisruptionTarget', status: 'True', lastTransitionTime: nowTime(), reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };
  call.ctx.objects.update(call.type, call.namespace, call.name, { ...pod, status: { ...status, conditions: [...conditions, condition] } }, { subresource: 'status', fieldManager: 'bosun-apiserver' });
}

export async function handleEviction(call: ResourceCall): Promise<void> {
  const { name } = call;
  const body = await readObjectBody(call.req);
  if (!isPlainObject(body)) throw errors.badRequest('the body of the request must be an Eviction object');
  if ((body['kind'] !== undefined && body['kind'] !== 'Eviction') || (body['apiVersion'] !== undefined && !evictionVersions.has(String(body['apiVersion'])))) {
    throw errors.badRequest(`not a Eviction object: ${String(body['apiVersion'] ?? '')} ${String(body['kind'] ?? '')}`.trim());
  }
  const meta = isPlainObject(body['metadata']) ? body['metadata'] : {};
  if (meta['name'] !== name) throw errors.badRequest('name in URL does not match name in Eviction object');
  const options = deleteOptions(call.query, isPlainObject(body['deleteOptions']) ? body['deleteOptions'] : undefined);
  const pod = call.ctx.objects.get(call.type, call.namespace, name).object;
  takeDisruption(call.ctx, pod, options.dryRun === true);
  if (!options.dryRun) markDisruptionTarget(call, pod);
  await call.ctx.writes.delete(call.user, call.type, call.namespace, name, options);
  await respondWhenDurable(call, 201, createdStatusJson);
}
