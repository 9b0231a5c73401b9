// Upstream OpenAPI v2 definitions of the built-in kinds Bosun serves, from the Kubernetes release it reports
// (checked in gzip'd; scripts/generate-builtin-openapi.ts regenerates it). Loaded on first use: only clients that
// read OpenAPI (kubectl explain, validation) pay for it.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export type Schema = Record<string, unknown>;
export type Definitions = Record<string, Schema>;

/** Written as new URL('./…', import.meta.url) so that the CLI build can point its chunk back at the file. */
export const builtinOpenApiUrl = new URL('./builtin-openapi.json.gz', import.meta.url);
const definitionPrefix = '#/definitions/';

let loaded: { definitions: Definitions; byKind: Map<string, string> } | undefined;

function load(): NonNullable<typeof loaded> {
  if (loaded) return loaded;
  const definitions = JSON.parse(gunzipSync(readFileSync(builtinOpenApiUrl)).toString('utf8')) as Definitions;
  const byKind = new Map<string, string>();
  for (const [name, schema] of Object.entries(definitions)) {
    for (const gvk of (schema['x-kubernetes-group-version-kind'] ?? []) as { group: string; version: string; kind: string }[]) {
      byKind.set(`${gvk.group}/${gvk.version}/${gvk.kind}`, name);
    }
  }
  loaded = { definitions, byKind };
  return loaded;
}

export function builtinDefinitions(): Readonly<Definitions> {
  return load().definitions;
}

/** The upstream definition name of a built-in kind (io.k8s.api.core.v1.Pod), if upstream defines it. */
export function builtinDefinitionName(group: string, version: string, kind: string): string | undefined {
  return load().byKind.get(`${group}/${version}/${kind}`);
}

/** The definition names a schema references with `$ref: '#/definitions/…'`, at any depth. */
export function definitionRefs(schema: unknown): string[] {
  const refs: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string' && value.startsWith(definitionPrefix)) refs.push(value.slice(definitionPrefix.length));
        else walk(value);
      }
    }
  };
  walk(schema);
  return refs;
}

/** `own` and every built-in definition they reach through `$ref`. */
export function withReferencedDefinitions(own: Definitions): Definitions {
  const all = builtinDefinitions();
  const out: Definitions = { ...own };
  const pending = Object.values(own).flatMap(definitionRefs);
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    if (out[name]) continue;
    const schema = all[name];
    if (!schema) continue;
    out[name] = schema;
    pending.push(...definitionRefs(schema));
  }
  return out;
}

/** A v2 schema rewritten for OpenAPI v3 documents: references point at `#/components/schemas/`. */
export function toV3Schema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toV3Schema);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' ? value.replace(definitionPrefix, '#/components/schemas/') : toV3Schema(value),
    ]),
  );
}
