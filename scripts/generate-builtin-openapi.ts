// Regenerates src/apiserver/discovery/builtin-openapi.json.gz: the OpenAPI v2 definitions of the built-in kinds
// Bosun serves (and everything they reference), taken from the Kubernetes release Bosun reports.
//
//   node --import tsx scripts/generate-builtin-openapi.ts <swagger.json>
//
// <swagger.json> is kubernetes/kubernetes api/openapi-spec/swagger.json at the release branch of
// src/apiserver/discovery/version.ts (the same file ships as kubernetes/swagger.json.unprocessed in
// kubernetes-client/python at the matching client tag, e.g. v32.0.1 for release-1.32). The checked-in file was
// generated from kubernetes-client/python v32.0.1 (commit bc4fd671bfa702007e090ae3ae28bf28bc9c3a6e), whose
// kubernetes/swagger.json.unprocessed has sha256 0350c464f4e616e1240676ca629dac47e46d87d6c42d84b42a0bd98dfa0d5139.
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { builtinOpenApiUrl, definitionRefs, type Definitions } from '../src/apiserver/discovery/builtin-openapi.ts';
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
  if (t.verbs.includes('list')) served.add(key({ ...t, kind: t.listKind }));
  for (const s of t.subresources ?? []) served.add(key(s));
}

const roots = Object.entries(swagger.definitions)
  .filter(([, schema]) => ((schema['x-kubernetes-group-version-kind'] ?? []) as Gvk[]).some((g) => served.has(key(g))))
  .map(([name]) => name);
const missing = [...served].filter((k) => !roots.some((name) => ((swagger.definitions[name]!['x-kubernetes-group-version-kind'] ?? []) as Gvk[]).some((g) => key(g) === k)));
// Upstream publishes no schema for some kinds (PodExecOptions travels as query parameters); they stay open.
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
const out = fileURLToPath(builtinOpenApiUrl);
writeFileSync(out, gzipSync(JSON.stringify(sorted), { level: 9 }));
console.log(`${out}: ${Object.keys(sorted).length} definitions for ${roots.length} served kinds`);
