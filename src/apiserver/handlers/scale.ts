// GET/PUT/PATCH <resource>/<name>/scale: the autoscaling/v1 Scale view of a workload's spec.replicas, as
// `kubectl scale` and autoscalers use it. A write changes only spec.replicas, through the normal update path
// (admission, validation, generation bump); a resourceVersion in the Scale is a precondition.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fromLabelSelectorObject, formatLabelSelector, type LabelSelectorObject } from '../../apimachinery/label-selector.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { decodeBody, mediaType, readBody } from '../http/body.ts';
import type { Verb } from '../http/request-info.ts';
import { sendJson } from '../http/respond.ts';
import { applyJsonPatch } from '../patch/json-patch.ts';
import { applyMergePatch } from '../patch/merge-patch.ts';
import { groupResource, type ResourceType } from '../registry/resource-type.ts';
import type { HandlerContext } from './context.ts';
import { readObjectBody } from './write.ts';
import { writeOptions } from './write-options.ts';

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

export async function handleScale(
  ctx: HandlerContext,
  req: IncomingMessage,
  res: ServerResponse,
  type: ResourceType,
  namespace: string,
  name: string,
  verb: Verb,
  query: URLSearchParams,
): Promise<void> {
  const stored = ctx.objects.get(type, namespace, name);
  if (verb === 'get') return sendJson(res, 200, scaleOf(stored.object));
  const body = verb === 'patch' ? await patchedScale(req, scaleOf(stored.object)) : await readObjectBody(req);
  const wanted = wantedReplicas(body, name);
  const options = { ...writeOptions(query), userAgent: req.headers['user-agent'] ?? '' };
  const result = await ctx.writes.update(type, undefined, options, () => {
    const current = ctx.objects.get(type, namespace, name);
    if (wanted.resourceVersion && wanted.resourceVersion !== current.object.metadata.resourceVersion) throw errors.conflict(groupResource(type), name);
    const next = ctx.objects.view(type, current);
    next['spec'] = { ...record(next['spec']), replicas: wanted.replicas };
    return { current, next };
  });
  await ctx.store.durable();
  sendJson(res, 200, scaleOf(JSON.parse(result.json) as KubeObject), result.warnings);
}
