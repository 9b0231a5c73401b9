// Regenerates src/apiserver/discovery/builtin-openapi.json.gz: the OpenAPI v2 definitions of the built-in kinds
// Bosun serves (and everything they reference), taken from the Kubernetes release Bosun reports.
//
//   node --import tsx scripts/generate-builtin-openapi.ts <swagger.json>
//
// <swagger.json> is kubernetes/kubernetes api/openapi-spec/swagger.json at the release branch of
// src/apiserver/discovery/version.ts (the same file ships as kubernetes/swagger.json.unprocessed in
// kubernetes-client/python at the matching client tag, e.g. v32.0.1 for release-1.32).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { builtinOpenApiFile, definitionRefs, type Definitions } from '../src/apiserver/discovery/builtin-openapi.ts';
import { builtinResources } from '../src/apiserver/registry/builtin-resources.ts';

interface Gvk {
  group: string;
  version: string;
  kind: string;
}

const source = process.argv[2];
if (!source) {
  console.error('usage: node --import tsx scripts/generate-builtin-openapi.ts <kubernetes api/openapi-spec/swagger.json>');
  process.exit(2);
}
const swagger = JSON.parse(readFileSync(source, 'utf8')) as { definitions: Definitions };

const served = new Set<string>();
const key = (g: Gvk) => `${g.group}/${g.version}/${g.kind}`;
for (const t of builtinResources) {
  served.add(key(t));
  served.add(key({ ...t, kind: t.listKind }));
  for (const s of t.subresources ?? []) served.add(key(s));
}

const roots = Object.entries(swagger.definitions)
  .filter(([, schema]) => ((schema['x-kubernetes-group-version-kind'] ?? []) as Gvk[]).some((g) => served.has(key(g))))
  .map(([name]) => name);
const missing = [...served].filter((k) => !roots.some((name) => ((swagger.definitions[name]!['x-kubernetes-group-version-kind'] ?? []) as Gvk[]).some((g) => key(g) === k)));
// Bosun's own kinds (none today) and kinds that subresources answer with another kind's schema may lack one.
if (missing.length > 0) console.warn(`no upstream definition for: ${missing.join(', ')}`);

const kept: Definitions = {};
const pending = [...roots];
for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
  if (kept[name]) continue;
  const schema = swagger.definitions[name];
  if (!schema) throw new Error(`${source}: ${name} is referenced but not defined`);
  kept[name] = schema;
  pending.push(...definitionRefs(schema));
}
const sorted = Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)));
const out = join(import.meta.dirname, '..', 'src', 'apiserver', 'discovery', builtinOpenApiFile);
writeFileSync(out, gzipSync(JSON.stringify(sorted), { level: 9 }));
console.log(`${out}: ${Object.keys(sorted).length} definitions for ${roots.length} served kinds`);
