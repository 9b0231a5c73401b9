// POST pods/<name>/binding (core/v1 Binding): what a scheduler calls to put a pod on a node. As kube-apiserver's
// BindingREST: set spec.nodeName once, merge the binding's annotations, mark PodScheduled True; a pod that is
// already bound or being deleted is a Conflict on pods/binding.
import { isPlainObject, type KubeObject, type StatusCause } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { nowTime } from '../../apimachinery/time.ts';
import { createdStatusJson } from './created-status.ts';
import { respondWhenDurable } from './durable-response.ts';
import { readObjectBody, updateOptions, type ResourceCall } from './resource-call.ts';

const bindingResource = { group: '', resource: 'pods/binding' };

interface Binding {
  name: string;
  uid: string | undefined;
  resourceVersion: string | undefined;
  annotations: Record<string, string>;
  node: string;
}

function parseBinding(body: unknown, urlName: string): Binding {
  if (!isPlainObject(body)) throw errors.badRequest('the body of the request must be a Binding object');
  if (body['kind'] !== undefined && body['kind'] !== 'Binding') throw errors.badRequest(`not a Binding object: kind ${String(body['kind'])}`);
  const meta = isPlainObject(body['metadata']) ? body['metadata'] : {};
  const name = typeof meta['name'] === 'string' ? meta['name'] : '';
  if (name !== urlName) throw errors.badRequest('name in URL does not match name in Binding object');
  const target = isPlainObject(body['target']) ? body['target'] : {};
  const causes: StatusCause[] = [];
  const kind = typeof target['kind'] === 'string' ? target['kind'] : '';
  if (kind !== '' && kind !== 'Node') causes.push({ reason: 'FieldValueNotSupported', field: 'target.kind', message: `Unsupported value: "${kind}": supported values: "Node", "<empty>"` });
  const node = typeof target['name'] === 'string' ? target['name'] : '';
  if (node === '') causes.push({ reason: 'FieldValueRequired', field: 'target.name', message: 'Required value' });
  if (causes.length > 0) throw errors.invalid('Binding', '', name, causes);
  const annotations = isPlainObject(meta['annotations']) ? (meta['annotations'] as Record<string, string>) : {};
  return {
    name,
    uid: typeof meta['uid'] === 'string' && meta['uid'] !== '' ? meta['uid'] : undefined,
    resourceVersion: typeof meta['resourceVersion'] === 'string' && meta['resourceVersion'] !== '' ? meta['resourceVersion'] : undefined,
    annotations,
    node,
  };
}

/** podutil.UpdatePodCondition for PodScheduled=True: the transition time moves only when the status changes. */
function markScheduled(pod: KubeObject): void {
  const status = (isPlainObject(pod['status']) ? pod['status'] : (pod['status'] = {})) as { conditions?: Record<string, unknown>[] };
  const conditions = (status.conditions ??= []);
  const existing = conditions.findIndex((c) => c['type'] === 'PodScheduled');
  const old = existing >= 0 ? conditions[existing] : undefined;
  const condition = { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: old?.['status'] === 'True' ? old['lastTransitionTime'] : nowTime() };
  if (existing >= 0) conditions[existing] = condition;
  else conditions.push(condition);
}

export async function handleBinding(call: ResourceCall): Promise<void> {
  const { ctx, type, namespace, name } = call;
  const binding = parseBinding(await readObjectBody(call.req), name);
  await ctx.writes.update(call.user, type, undefined, updateOptions(call), () => {
    const current = ctx.objects.get(type, namespace, name);
    const pod = ctx.objects.view(type, current);
    const meta = pod.metadata;
    if (meta.deletionTimestamp) throw errors.conflict(bindingResource, name, `pod ${name} is being deleted, cannot be assigned to a host`);
    if (binding.uid && binding.uid !== meta.uid) {
      throw errors.conflict(bindingResource, name, `Precondition failed: UID in precondition: ${binding.uid}, UID in object meta: ${meta.uid ?? ''}`);
    }
    if (binding.resourceVersion && binding.resourceVersion !== meta.resourceVersion) {
      throw errors.conflict(
        bindingResource,
        name,
        `Precondition failed: ResourceVersion in precondition: ${binding.resourceVersion}, ResourceVersion in object meta: ${meta.resourceVersion ?? ''}`,
      );
    }
    const spec = (isPlainObject(pod['spec']) ? pod['spec'] : (pod['spec'] = {})) as Record<string, unknown>;
    if (typeof spec['nodeName'] === 'string' && spec['nodeName'] !== '') {
      throw errors.conflict(bindingResource, name, `pod ${name} is already assigned to node ${JSON.stringify(spec['nodeName'])}`);
    }
    spec['nodeName'] = binding.node;
    if (Object.keys(binding.annotations).length > 0) meta.annotations = { ...meta.annotations, ...binding.annotations };
    markScheduled(pod);
    return { current, next: pod };
  });
  await respondWhenDurable(call, 201, createdStatusJson);
}
