// GET/PUT/PATCH <resource>/<name>/scale: the autoscaling/v1 Scale view of a workload's spec.replicas, as
// `kubectl scale` and autoscalers use it. A write changes only spec.replicas, through the normal update path
// (admission, validation, generation bump); a resourceVersion in the Scale is a precondition.
import type { IncomingMessage } from 'node:http';
import { fromLabelSelectorObject, formatLabelSelector, type LabelSelectorObject } from '../../apimachinery/label-selector.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { decodeBody, mediaType, readBody } from '../http/body.ts';
import type { Verb } from '../http/request-info.ts';
import { sendJson } from '../http/respond.ts';
import { applyJsonPatch } from '../patch/json-patch.ts';
import { applyMergePatch } from '../patch/merge-patch.ts';
import { groupResource } from '../registry/resource-type.ts';
import { respondWhenDurable } from './durable-response.ts';
import { readObjectBody, updateOptions, type ResourceCall } from './resource-call.ts';

function record(value: unknown): Record<string, unknown> {
  return isPlainObject(value) ? value : {};
}

/** The Scale of a stored object; the selector in the string form labels.Selector prints (sorted by key). */
export function scaleOf(object: KubeObject): KubeObject {
  const spec = record(object['spec']);
  const status = record(object['status']);
  const requirements = fromLabelSelectorObject(record(spec['selector']) as LabelSelectorObject).sort((a, b) => a.key.localeCompare(b.key));
  const meta = object.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: {
      name: meta.name,
      namespace: meta.namespace,
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: typeof spec['replicas'] === 'number' ? spec['replicas'] : 0 },
    status: { replicas: typeof status['replicas'] === 'number' ? status['replicas'] : 0, selector: formatLabelSelector(requirements) },
  };
}

/** The replicas a Scale asks for, validated as autoscaling's ValidateScale does. */
function wantedReplicas(scale: unknown, name: string): { replicas: number; resourceVersion: string | undefined } {
  if (!isPlainObject(scale)) throw errors.badRequest('the body of the request must be a Scale object');
  if (scale['kind'] !== undefined && scale['kind'] !== 'Scale') throw errors.badRequest(`expected Scale, got ${String(scale['kind'])}`);
  const replicas = record(scale['spec'])['replicas'] ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw errors.invalid('Scale', 'autoscaling', name, [
      { reason: 'FieldValueInvalid', field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` },
    ]);
  }
  const rv = record(scale['metadata'])['resourceVersion'];
  return { replicas, resourceVersion: typeof rv === 'string' && rv !== '' ? rv : undefined };
}

/** The patch applies to the Scale without its resourceVersion: only one the patch itself sets is a precondition. */
async function patchedScale(req: IncomingMessage, current: KubeObject): Promise<unknown> {
  delete current.metadata.resourceVersion;
  const media = mediaType(req.headers['content-type']);
  const patch = decodeBody(await readBody(req), 'application/json');
  if (media === 'application/json-patch+json') return applyJsonPatch(current, patch);
  // A Scale has no lists, so a strategic merge patch merges as a JSON merge patch does.
  if (media === 'application/merge-patch+json' || media === 'application/strategic-merge-patch+json') return applyMergePatch(current, patch);
  throw errors.unsupportedMediaType(
    'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json',
  );
}

export async function handleScale(call: ResourceCall, verb: Verb): Promise<void> {
  const { ctx, req, type, namespace, name } = call;
  const stored = ctx.objects.get(type, namespace, name);
  if (verb === 'get') return sendJson(call.res, 200, scaleOf(stored.object));
  const body = verb === 'patch' ? await patchedScale(req, scaleOf(stored.object)) : await readObjectBody(req);
  const wanted = wantedReplicas(body, name);
  const result = await ctx.writes.update(call.user, type, undefined, updateOptions(call), () => {
    const current = ctx.objects.get(type, namespace, name);
    if (wanted.resourceVersion && wanted.resourceVersion !== current.object.metadata.resourceVersion) throw errors.conflict(groupResource(type), name);
    const next = ctx.objects.view(type, current);
    next['spec'] = { ...record(next['spec']), replicas: wanted.replicas };
    return { current, next };
  });
  await respondWhenDurable(call, 200, JSON.stringify(scaleOf(JSON.parse(result.json) as KubeObject)), result.warnings);
}
