// POST pods/<name>/eviction (policy/v1 Eviction): what `kubectl drain` calls. Bosun serves no
// PodDisruptionBudgets, so, as kube-apiserver does when no budget selects the pod, the eviction is a delete
// with the Eviction's deleteOptions.
import { isPlainObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { createdStatusJson } from './created-status.ts';
import { respondWhenDurable } from './durable-response.ts';
import { readObjectBody, type ResourceCall } from './resource-call.ts';
import { deleteOptions } from './write-options.ts';

const evictionVersions = new Set(['policy/v1', 'policy/v1beta1']);

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
  await call.ctx.writes.delete(call.type, call.namespace, name, options);
  await respondWhenDurable(call, 201, createdStatusJson);
}
