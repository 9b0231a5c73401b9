// OpenAPI v2 (/openapi/v2) and v3 (/openapi/v3/<group-version>) documents of everything served: built-in kinds
// with upstream's schemas (builtin-openapi.ts), custom resources with their CRD's schema plus ObjectMeta, and
// operations whose PATCH declares `fieldValidation`, so kubectl relies on server-side validation. kubectl explain
// reads the schemas through the `x-kubernetes-group-version-kind` extension. Documents are cached per registry
// generation: they change only when CRDs do.
import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../registry/registry.ts';
import type { ResourceType } from '../registry/resource-type.ts';
import { builtinDefinitionName, builtinDefinitions, toV3Schema, withReferencedDefinitions, type Definitions, type Schema } from './builtin-openapi.ts';
import { encodeOpenApiV2 } from './openapi-v2-protobuf.ts';
import { serverVersion } from './version.ts';

export function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

const info = { title: 'Kubernetes', version: serverVersion.gitVersion };
const objectMetaRef = { $ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };

function definitionName(t: ResourceType): string {
  const upstream = t.custom ? undefined : builtinDefinitionName(t.group, t.version, t.kind);
  return upstream ?? `${(t.group || 'io.k8s.api.core').split('.').reverse().join('.')}.${t.version}.${t.kind}`;
}

/** The v2-style schema of a served type (references into `#/definitions/`). */
function typeSchema(t: ResourceType): Schema {
  const gvk = [{ group: t.group, version: t.version, kind: t.kind }];
  const upstream = t.custom ? undefined : builtinDefinitions()[definitionName(t)];
  if (upstream) return upstream;
  // As kube-apiserver publishes CRD schemas: apiVersion, kind and the real ObjectMeta are always described.
  const own = t.openApiSchema ?? { 'x-kubernetes-preserve-unknown-fields': true };
  const ownProperties = (own['properties'] ?? {}) as Record<string, unknown>;
  return {
    type: 'object',
    ...own,
    properties: {
      ...ownProperties,
      apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
      kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
      metadata: { ...objectMetaRef, description: "Standard object's metadata." },
    },
    'x-kubernetes-group-version-kind': gvk,
  };
}

interface Operation {
  readonly path: string;
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  readonly action: string;
  readonly parameters: readonly { name: string; type: string }[];
}

function operations(t: ResourceType): Operation[] {
  const base = `/${gvPath(t.group, t.version)}${t.namespaced ? '/namespaces/{namespace}' : ''}/${t.plural}`;
  const write = [{ name: 'dryRun', type: 'string' }, { name: 'fieldManager', type: 'string' }, { name: 'fieldValidation', type: 'string' }];
  const all: (Operation & { verb: string })[] = [
    { verb: 'list', path: base, method: 'get', action: 'list', parameters: [] },
    { verb: 'create', path: base, method: 'post', action: 'post', parameters: write },
    { verb: 'get', path: `${base}/{name}`, method: 'get', action: 'get', parameters: [] },
    { verb: 'update', path: `${base}/{name}`, method: 'put', action: 'put', parameters: write },
    { verb: 'patch', path: `${base}/{name}`, method: 'patch', action: 'patch', parameters: [...write, { name: 'force', type: 'boolean' }] },
    { verb: 'delete', path: `${base}/{name}`, method: 'delete', action: 'delete', parameters: [] },
  ];
  return all.filter((op) => t.verbs.includes(op.verb));
}

type Dialect = 'v2' | 'v3';

function pathsOf(types: readonly ResourceType[], dialect: Dialect): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const t of types) {
    const ref = { $ref: dialect === 'v2' ? `#/definitions/${definitionName(t)}` : `#/components/schemas/${definitionName(t)}` };
    for (const op of operations(t)) {
      const parameters = op.parameters.map((p) =>
        dialect === 'v2' ? { name: p.name, in: 'query', type: p.type, uniqueItems: true } : { name: p.name, in: 'query', schema: { type: p.type }, uniqueItems: true },
      );
      const ok = dialect === 'v2' ? { description: 'OK', schema: ref } : { description: 'OK', content: { 'application/json': { schema: ref } } };
      (paths[op.path] ??= {})[op.method] = {
        operationId: `${op.action}${t.kind}`,
        ...(parameters.length > 0 ? { parameters } : {}),
        responses: { '200': ok },
        'x-kubernetes-action': op.action,
        'x-kubernetes-group-version-kind': { group: t.group, version: t.version, kind: t.kind },
      };
    }
  }
  return paths;
}

function definitionsOf(types: readonly ResourceType[]): Definitions {
  return withReferencedDefinitions(Object.fromEntries(types.map((t) => [definitionName(t), typeSchema(t)])));
}

interface Documents {
  generation: number;
  v2?: { json: unknown; protobuf?: Buffer };
  v3: Map<string, { document: unknown; hash: string } | undefined>;
}

const cache = new WeakMap<ResourceRegistry, Documents>();

function documents(registry: ResourceRegistry): Documents {
  let docs = cache.get(registry);
  if (!docs || docs.generation !== registry.generation) {
    docs = { generation: registry.generation, v3: new Map() };
    cache.set(registry, docs);
  }
  return docs;
}

function v3Entry(registry: ResourceRegistry, group: string, version: string): { document: unknown; hash: string } | undefined {
  const docs = documents(registry);
  const key = gvPath(group, version);
  if (!docs.v3.has(key)) {
    const types = registry.resourcesOf(group, version);
    let entry: { document: unknown; hash: string } | undefined;
    if (types.length > 0) {
      const document = { openapi: '3.0.0', info, paths: pathsOf(types, 'v3'), components: { schemas: toV3Schema(definitionsOf(types)) } };
      const hash = createHash('sha512').update(JSON.stringify(document)).digest('hex').slice(0, 128).toUpperCase();
      entry = { document, hash };
    }
    docs.v3.set(key, entry);
  }
  return docs.v3.get(key);
}

export function openApiV3Root(registry: ResourceRegistry): unknown {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const { group, versions } of registry.groups()) {
    for (const version of versions) {
      const entry = v3Entry(registry, group, version);
      if (entry) paths[gvPath(group, version)] = { serverRelativeURL: `/openapi/v3/${gvPath(group, version)}?hash=${entry.hash}` };
    }
  }
  return { paths };
}

export function openApiV3Document(registry: ResourceRegistry, group: string, version: string): unknown | undefined {
  return v3Entry(registry, group, version)?.document;
}

/** The Swagger 2.0 document of everything served. */
export function openApiV2Document(registry: ResourceRegistry): unknown {
  const docs = documents(registry);
  docs.v2 ??= { json: { swagger: '2.0', info, paths: pathsOf(registry.all(), 'v2'), definitions: definitionsOf(registry.all()) } };
  return docs.v2.json;
}

/** The same document as gnostic protobuf, which is all kubectl decodes. */
export function openApiV2Protobuf(registry: ResourceRegistry): Buffer {
  const json = openApiV2Document(registry) as Record<string, unknown>;
  const v2 = documents(registry).v2!;
  v2.protobuf ??= encodeOpenApiV2(json);
  return v2.protobuf;
}
