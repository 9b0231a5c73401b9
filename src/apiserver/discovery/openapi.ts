// Minimal OpenAPI: an empty v2 document (decodes as an empty protobuf, which satisfies kubectl's client-side
// validation) and v3 per-group-version documents whose PATCH operations declare `fieldValidation`, so kubectl
// relies on server-side validation. CRD schemas are included for `kubectl explain`-style readers.
import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../registry/registry.ts';
import type { ResourceType } from '../registry/resource-type.ts';

export function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

export function openApiV3Root(registry: ResourceRegistry): unknown {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { group, versions } of registry.groups()) {
    for (const version of versions) {
      const path = gvPath(group, version);
      const hash = createHash('sha512').update(JSON.stringify(openApiV3Document(registry, group, version))).digest('hex').slice(0, 128).toUpperCase();
      paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash}` };
    }
  }
  return { paths };
}

const queryParameter = (name: string, type = 'string') => ({ name, in: 'query', schema: { type }, uniqueItems: true });

function schemaName(t: ResourceType): string {
  const reversed = (t.group || 'io.k8s.api.core').split('.').reverse().join('.');
  return `${reversed}.${t.version}.${t.kind}`;
}

export function openApiV3Document(registry: ResourceRegistry, group: string, version: string): unknown | undefined {
  const types = registry.resourcesOf(group, version);
  if (types.length === 0) return undefined;
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const t of types) {
    const gvk = { group: t.group, version: t.version, kind: t.kind };
    const ref = { $ref: `#/components/schemas/${schemaName(t)}` };
    const base = `/${gvPath(group, version)}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}`;
    const writeParams = [queryParameter('dryRun'), queryParameter('fieldManager'), queryParameter('fieldValidation')];
    const op = (action: string, extra: Record<string, unknown> = {}) => ({
      operationId: `${action}${t.kind}`,
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      responses: { '200': { content: { 'application/json': { schema: ref } } } },
      ...extra,
    });
    paths[base] = { get: op('list'), post: op('post', { parameters: writeParams }) };
    paths[`${base}/{name}`] = {
      get: op('get'),
      put: op('put', { parameters: writeParams }),
      patch: op('patch', { parameters: [...writeParams, queryParameter('force', 'boolean')] }),
      delete: op('delete'),
    };
    schemas[schemaName(t)] = {
      type: 'object',
      'x-kubernetes-group-version-kind': [gvk],
      ...(t.openApiSchema ?? { 'x-kubernetes-preserve-unknown-fields': true }),
    };
  }
  return { openapi: '3.0.0', info: { title: 'Kubernetes', version: 'v1.32.4' }, paths, components: { schemas } };
}
