// PATCH in its four media types: JSON patch, merge patch, strategic merge (built-ins only; 415 for custom
// resources, as a real server answers) and server-side apply (which may create the object).
import { apiVersionOf } from '../../apimachinery/group-version.ts';
import { isPlainObject, type KubeObject } from '../../apimachinery/object.ts';
import { errors } from '../../apimachinery/status-error.ts';
import { nowTime } from '../../apimachinery/time.ts';
import { decodeBody, mediaType, readBody } from '../http/body.ts';
import { boolParam } from '../http/query-params.ts';
import { sendJson } from '../http/respond.ts';
import { applyJsonPatch } from '../patch/json-patch.ts';
import { applyMergePatch } from '../patch/merge-patch.ts';
import { applyServerSide } from '../patch/server-side-apply.ts';
import { applyStrategicMergePatch } from '../patch/strategic-merge.ts';
import { checkDecodedBody } from '../registry/builtin-field-types.ts';
import { restrictToEndpoint } from '../registry/endpoint-restriction.ts';
import { fieldSchemaOf, ignoredFieldsOf } from '../registry/field-manager.ts';
import { groupResource } from '../registry/resource-type.ts';
import type { StoredObject } from '../storage/sqlite-store.ts';
import { respondWhenDurable } from './durable-response.ts';
import { updateOptions, type ResourceCall } from './resource-call.ts';

const patchTypes = new Set([
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
]);

export async function handlePatch(call: ResourceCall, subresource: 'status' | undefined): Promise<void> {
  const { ctx, req, type, namespace, name } = call;
  const media = mediaType(req.headers['content-type']);
  const accepted = type.strategicMerge
    ? 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json'
    : 'application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';
  if (!patchTypes.has(media) || (media === 'application/strategic-merge-patch+json' && !type.strategicMerge)) {
    throw errors.unsupportedMediaType(`the body of the request was in an unknown format - accepted media types include: ${accepted}`);
  }
  const patch = decodeBody(await readBody(req), media === 'application/apply-patch+yaml' ? 'application/yaml' : 'application/json');
  const options = updateOptions(call);
  const current = ctx.objects.find(type, namespace, name);

  if (media === 'application/apply-patch+yaml') {
    if (!options.fieldManager) {
      throw errors.invalid(type.kind, type.group, name, [{ reason: 'FieldValueRequired', field: 'fieldManager', message: 'Required value: is required for apply patch' }]);
    }
    if (!isPlainObject(patch)) throw errors.badRequest('error decoding YAML: the apply configuration must be an object');
    const applied = patch as KubeObject;
    checkDecodedBody(type, applied);
    if (!isPlainObject(applied.metadata)) applied.metadata = {};
    if (applied.metadata.name !== undefined && applied.metadata.name !== name) {
      throw errors.badRequest(`the name of the object (${String(applied.metadata.name)}) does not match the name on the URL (${name})`);
    }
    applied.metadata.name = name;
    const force = boolParam(call.query, 'force');
    const manager = options.fieldManager;
    const apply = (stored: StoredObject | undefined) => {
      const live = stored ? ctx.objects.view(type, stored) : undefined;
      const outcome = applyServerSide({
        live,
        config: applied,
        manager,
        force,
        apiVersion: apiVersionOf(type),
        ...(subresource ? { subresource } : {}),
        schema: fieldSchemaOf(type),
        now: nowTime(),
        ignoredFields: ignoredFieldsOf(type, subresource),
      }) as { object: KubeObject; changed: boolean };
      return { live, ...outcome };
    };
    const first = apply(current);
    if (current && !first.changed) {
      sendJson(call.res, 200, first.live);
      return;
    }
    if (!current) {
      if (subresource) throw errors.notFound(groupResource(type), name);
      const created = await ctx.writes.create(call.user, type, namespace, first.object, { ...options, keepManagedFields: true }, options.userAgent);
      await respondWhenDurable(call, 201, created.json, created.warnings);
      return;
    }
    const updated = await ctx.writes.update(call.user, type, subresource, { ...options, skipManagedFields: true }, () => {
      // Applied again only when the object changed while admission webhooks were called.
      const stored = ctx.objects.get(type, namespace, name);
      const result = stored === current ? first.object : apply(stored).object;
      return { current: stored, next: restrictToEndpoint(type, stored.object, result, subresource) };
    });
    await respondWhenDurable(call, 200, updated.json, updated.warnings);
    return;
  }

  if (!current) throw errors.notFound(groupResource(type), name);
  const updated = await ctx.writes.update(call.user, type, subresource, options, () => {
    const stored = ctx.objects.get(type, namespace, name);
    const base = ctx.objects.view(type, stored);
    let patched: unknown;
    if (media === 'application/json-patch+json') patched = applyJsonPatch(base, patch);
    else if (media === 'application/merge-patch+json') patched = applyMergePatch(base, patch);
    else patched = applyStrategicMergePatch(base, patch, fieldSchemaOf(type));
    if (!isPlainObject(patched) || !isPlainObject(patched['metadata'])) throw errors.badRequest('the patch produced an object without metadata');
    const result = patched as KubeObject;
    const rv = result.metadata.resourceVersion;
    // A resourceVersion in the patch is a precondition, as on a real server.
    if (rv !== undefined && rv !== stored.object.metadata.resourceVersion) throw errors.conflict(groupResource(type), name);
    return { current: stored, next: restrictToEndpoint(type, stored.object, result, subresource) };
  });
  await respondWhenDurable(call, 200, updated.json, updated.warnings);
}
