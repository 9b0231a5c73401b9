// Loading an installation's imports from its scope (installations/operation.go, helper.go): DataObjects,
// Secrets and ConfigMaps for data, Targets for targets, target lists and maps (by names or by the parent's
// import copies), and the imports hash (installations/imports/hash.go). A missing import is fatal.
import { createHash } from 'node:crypto';
import type { KubeObject } from '../../apimachinery/object.ts';
import {
  DATA_OBJECT_CONTEXT_LABEL,
  DATA_OBJECT_HASH_ANNOTATION,
  DATA_OBJECT_INDEX_LABEL,
  DATA_OBJECT_JOB_ID_LABEL,
  DATA_OBJECT_KEY_LABEL,
  DATA_OBJECT_SOURCE_TYPE_IMPORT,
  DATA_OBJECT_SOURCE_TYPE_LABEL,
  DATA_OBJECT_TARGET_MAP_KEY_LABEL,
} from '../api/constants.ts';
import type { DataObject } from '../api/data-object.ts';
import type { DataImport, Installation, TargetImport } from '../api/installation.ts';
import type { AnyJSON } from '../api/shared.ts';
import type { Target } from '../api/target.ts';
import { goJSONMarshal } from '../go-json.ts';
import { encodeDataObjectData, generateDataObjectName } from '../naming.ts';
import { parseYaml } from '../yaml.ts';
import { getOrUndefined, namespaceOf, scopeContext, statusOf } from './helpers.ts';
import { configMapsResource, secretsResource } from '../../apimachinery/builtin-resources.ts';
import { dataObjectsResource, targetsResource } from '../api/resources.ts';
import type { Deps } from './types.ts';
import { ConfigurationError } from '../ls-error.ts';

export interface LoadedImports {
  /** Import name → value as templates see it. */
  values: { [name: string]: AnyJSON };
  /** SHA-1 hex over the import versions. */
  hash: string;
}

/** A Target as templates see it: the object without server bookkeeping. */
export function targetValue(t: Target): AnyJSON {
  const { managedFields: _m, ...metadata } = t.metadata;
  return JSON.parse(JSON.stringify({ apiVersion: t.apiVersion, kind: t.kind, metadata, spec: t.spec })) as AnyJSON;
}

function missing(imp: string, what: string): Error {
  return new ConfigurationError('Init', 'ImportNotFound', `import ${JSON.stringify(imp)}: ${what} not found`);
}

function decodeValue(raw: string): AnyJSON {
  try {
    return parseYaml(raw);
  } catch {
    return raw;
  }
}

async function loadData(deps: Deps, inst: Installation, imp: DataImport): Promise<{ value: AnyJSON; hash: string }> {
  const ns = namespaceOf(inst);
  if (imp.dataRef !== undefined && imp.dataRef !== '') {
    const name = generateDataObjectName(scopeContext(inst), imp.dataRef);
    const dobj = await getOrUndefined<DataObject>(deps, dataObjectsResource, ns, name);
    if (dobj === undefined) throw missing(imp.name, `DataObject ${JSON.stringify(imp.dataRef)}${name !== imp.dataRef ? ` (object ${name})` : ''} in namespace ${ns}`);
    const value = dobj.data ?? null;
    return { value, hash: dobj.metadata.annotations?.[DATA_OBJECT_HASH_ANNOTATION] ?? encodeDataObjectData(value).annotations[DATA_OBJECT_HASH_ANNOTATION]! };
  }
  const ref = imp.secretRef ?? imp.configMapRef;
  if (ref === undefined) throw new ConfigurationError('Init', 'InvalidImport', `import ${JSON.stringify(imp.name)}: one of dataRef, secretRef and configMapRef must be set`);
  const isSecret = imp.secretRef !== undefined;
  const kind = isSecret ? 'Secret' : 'ConfigMap';
  const obj = await getOrUndefined<KubeObject>(deps, isSecret ? secretsResource : configMapsResource, ref.namespace ?? ns, ref.name);
  if (obj === undefined) throw missing(imp.name, `${kind} ${ref.namespace ?? ns}/${ref.name}`);
  const raw = (obj['data'] ?? {}) as Record<string, string>;
  const text = (k: string): string => (isSecret ? Buffer.from(raw[k] ?? '', 'base64').toString('utf8') : (raw[k] ?? ''));
  let value: AnyJSON;
  if (ref.key !== undefined && ref.key !== '') {
    if (!(ref.key in raw)) throw missing(imp.name, `key ${JSON.stringify(ref.key)} in ${kind} ${ref.namespace ?? ns}/${ref.name}`);
    value = decodeValue(text(ref.key));
  } else {
    value = Object.fromEntries(Object.keys(raw).sort().map((k) => [k, decodeValue(text(k))]));
  }
  return { value, hash: createHash('sha1').update(goJSONMarshal(value)).digest('hex') };
}

async function loadTarget(deps: Deps, inst: Installation, imp: string, ref: string): Promise<Target> {
  const ns = namespaceOf(inst);
  const name = generateDataObjectName(scopeContext(inst), ref);
  const t = await getOrUndefined<Target>(deps, targetsResource, ns, name);
  if (t === undefined) throw missing(imp, `Target ${JSON.stringify(ref)}${name !== ref ? ` (object ${name})` : ''} in namespace ${ns}`);
  return t;
}

/** The parent's import copies of a targetList/targetMap import (same job). */
async function listCopies(deps: Deps, inst: Installation, key: string): Promise<Target[]> {
  const selector = [
    `${DATA_OBJECT_KEY_LABEL}=${key}`,
    `${DATA_OBJECT_SOURCE_TYPE_LABEL}=${DATA_OBJECT_SOURCE_TYPE_IMPORT}`,
    `${DATA_OBJECT_JOB_ID_LABEL}=${statusOf(inst).jobID ?? ''}`,
  ];
  const ctx = scopeContext(inst);
  if (ctx !== '') selector.push(`${DATA_OBJECT_CONTEXT_LABEL}=${ctx}`);
  const list = await deps.client.list<Target>(targetsResource, { namespace: namespaceOf(inst), labelSelector: selector.join(',') });
  return list.items;
}

const gen = (t: KubeObject): string => String(t.metadata.generation ?? 0);

async function loadTargets(deps: Deps, inst: Installation, imp: TargetImport, h: HashInput): Promise<AnyJSON> {
  if (imp.target !== undefined && imp.target !== '') {
    const t = await loadTarget(deps, inst, imp.name, imp.target);
    h.targets[imp.name] = gen(t);
    return targetValue(t);
  }
  if (imp.targets !== undefined) {
    const ts = await Promise.all(imp.targets.map((r) => loadTarget(deps, inst, imp.name, r)));
    h.targetLists[imp.name] = ts.map(gen);
    return ts.map(targetValue);
  }
  if (imp.targetListRef !== undefined && imp.targetListRef !== '') {
    const ts = (await listCopies(deps, inst, imp.targetListRef)).sort(
      (a, b) => Number(a.metadata.labels?.[DATA_OBJECT_INDEX_LABEL] ?? 0) - Number(b.metadata.labels?.[DATA_OBJECT_INDEX_LABEL] ?? 0),
    );
    h.targetLists[imp.name] = ts.map(gen);
    return ts.map(targetValue);
  }
  if (imp.targetMap !== undefined) {
    const out: { [k: string]: AnyJSON } = {};
    const gens: Record<string, string> = {};
    for (const [k, r] of Object.entries(imp.targetMap)) {
      const t = await loadTarget(deps, inst, imp.name, r);
      out[k] = targetValue(t);
      gens[k] = gen(t);
    }
    h.targetMaps[imp.name] = gens;
    return out;
  }
  if (imp.targetMapRef !== undefined && imp.targetMapRef !== '') {
    const out: { [k: string]: AnyJSON } = {};
    const gens: Record<string, string> = {};
    for (const t of await listCopies(deps, inst, imp.targetMapRef)) {
      const k = t.metadata.labels?.[DATA_OBJECT_TARGET_MAP_KEY_LABEL] ?? '';
      out[k] = targetValue(t);
      gens[k] = gen(t);
    }
    h.targetMaps[imp.name] = gens;
    return out;
  }
  throw new ConfigurationError('Init', 'InvalidImport', `target import ${JSON.stringify(imp.name)}: one of target, targets, targetListRef, targetMap and targetMapRef must be set`);
}

interface HashInput {
  data: Record<string, string>;
  targets: Record<string, string>;
  targetLists: Record<string, string[]>;
  targetMaps: Record<string, Record<string, string>>;
}

export async function loadImports(deps: Deps, inst: Installation): Promise<LoadedImports> {
  const h: HashInput = { data: {}, targets: {}, targetLists: {}, targetMaps: {} };
  const values: { [name: string]: AnyJSON } = {};
  for (const imp of inst.spec.imports?.data ?? []) {
    const { value, hash } = await loadData(deps, inst, imp);
    values[imp.name] = value;
    h.data[imp.name] = hash;
  }
  for (const imp of inst.spec.imports?.targets ?? []) values[imp.name] = await loadTargets(deps, inst, imp, h);
  const hash = createHash('sha1').update(goJSONMarshal(h as unknown as AnyJSON)).digest('hex');
  return { values, hash };
}
