// Bosun's own CustomResourceDefinitions. Each is defined once, as a YAML manifest in crds/ at the repository root;
// this module only reads them. Which of them a family owns is the family's to say (src/runtime/family.ts): the
// CLI installs the shipped families' CRDs into the embedded API server (`bosun up`) and prints them for a real
// cluster (`bosun manifests`).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../apimachinery/object.ts';

/** Directory holding the manifests (`<repo>/crds`), resolved from this source file. */
export const CRD_DIR = fileURLToPath(new URL('../../crds/', import.meta.url));

let cache: KubeObject[] | undefined;

/**
 * Every CRD manifest in crds/*.yaml, sorted by metadata.name. Each file holds exactly one
 * apiextensions.k8s.io/v1 CustomResourceDefinition. A fresh deep copy is returned on each call, so callers may
 * mutate the result.
 */
export function loadBosunCrds(): KubeObject[] {
  cache ??= readCrds(CRD_DIR);
  return structuredClone(cache);
}

/** spec.group of a CRD object, or undefined when it has none. */
export function crdGroup(crd: KubeObject): string | undefined {
  const spec = crd['spec'];
  if (typeof spec !== 'object' || spec === null) return undefined;
  const group = (spec as Record<string, unknown>)['group'];
  return typeof group === 'string' ? group : undefined;
}

function readCrds(dir: string): KubeObject[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort();
  const crds: KubeObject[] = [];
  for (const file of files) {
    const docs = parseAllDocuments(readFileSync(join(dir, file), 'utf8'));
    const objects = Array.from(docs).filter((doc) => doc.contents !== null);
    if (objects.length !== 1) throw new Error(`crds/${file}: expected exactly one document, found ${objects.length}`);
    const doc = objects[0]!;
    if (doc.errors.length > 0) throw new Error(`crds/${file}: ${doc.errors[0]!.message}`);
    const obj: unknown = doc.toJS();
    if (!isCrd(obj)) throw new Error(`crds/${file}: not an apiextensions.k8s.io/v1 CustomResourceDefinition`);
    crds.push(obj);
  }
  crds.sort((a, b) => compare(a.metadata.name ?? '', b.metadata.name ?? ''));
  return crds;
}

function isCrd(obj: unknown): obj is KubeObject {
  if (typeof obj !== 'object' || obj === null) return false;
  const o = obj as Record<string, unknown>;
  const metadata = o['metadata'];
  return (
    o['apiVersion'] === 'apiextensions.k8s.io/v1' &&
    o['kind'] === 'CustomResourceDefinition' &&
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as Record<string, unknown>)['name'] === 'string'
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
