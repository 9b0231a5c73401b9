// Exports by jsonPath from deployed objects (upstream resourcemanager Exporter): `fromResource` names the object,
// `jsonPath` the value; with `fromObjectRef` that value is a reference {name, namespace} to another object whose
// `fromObjectRef.jsonPath` is exported. A missing value is waited for (watching the objects) until the export's
// timeout (default 5m), counted from the start of the export stage.
import type { KubeObject } from '../../../apimachinery/object.ts';
import type { KubeClient } from '../../../client/client.ts';
import { NotFoundError } from '../../../client/errors.ts';
import type { ExportSpec, ExportsSpec } from '../../api/manifest-deployer.ts';
import type { AnyJSON } from '../../api/shared.ts';
import { parseTimeoutMs } from '../contract/timeout.ts';
import { jsonPathValues } from './readiness.ts';
import { nsOpt } from './resources.ts';
import type { Pending, WatchInterest } from './target-watches.ts';
import { ConfigurationError, LandscaperError } from '../../ls-error.ts';

async function getObject(client: KubeClient, apiVersion: string, kind: string, name: string, namespace: string | undefined, interests: WatchInterest[]): Promise<KubeObject | undefined> {
  const ref = await client.resolve({ apiVersion, kind });
  interests.push({ ref, ...nsOpt(ref, namespace), name });
  try {
    return await client.get(ref, name, nsOpt(ref, namespace));
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** The value of one export, or a reason why it is not available yet. */
async function readExport(client: KubeClient, e: ExportSpec, interests: WatchInterest[]): Promise<{ value: AnyJSON } | { waiting: string }> {
  const from = e.fromResource;
  if (!from) throw new ConfigurationError('ReadExports', 'InvalidExport', `export "${e.key}" has no fromResource`);
  const obj = await getObject(client, from.apiVersion, from.kind, from.name, from.namespace, interests);
  const where = `${from.kind} ${from.namespace ? `${from.namespace}/` : ''}${from.name}`;
  if (!obj) return { waiting: `${where} not found` };
  const found = jsonPathValues(obj, e.jsonPath);
  if (found.length === 0) return { waiting: `${where} has no value at ${e.jsonPath}` };
  const value = found[0] as AnyJSON;
  if (!e.fromObjectRef) return { value };
  if (typeof value !== 'object' || value === null || Array.isArray(value) || typeof value['name'] !== 'string') {
    throw new ConfigurationError('ReadExports', 'InvalidObjectReference', `export "${e.key}": the value at ${e.jsonPath} of ${where} is not an object reference`);
  }
  const refNs = typeof value['namespace'] === 'string' && value['namespace'] !== '' ? value['namespace'] : from.namespace;
  const target = await getObject(client, e.fromObjectRef.apiVersion, e.fromObjectRef.kind, value['name'], refNs, interests);
  const refWhere = `${e.fromObjectRef.kind} ${refNs ? `${refNs}/` : ''}${value['name']}`;
  if (!target) return { waiting: `${refWhere} (referenced by ${where}) not found` };
  const inner = jsonPathValues(target, e.fromObjectRef.jsonPath);
  if (inner.length === 0) return { waiting: `${refWhere} has no value at ${e.fromObjectRef.jsonPath}` };
  return { value: inner[0] as AnyJSON };
}

export interface ExportOptions {
  client: KubeClient;
  exports: ExportsSpec | undefined;
  /** Milliseconds since the export stage began. */
  waitedMs: number;
}

/**
 * The export values by key (undefined when none are configured), or what is still missing. An export still
 * missing after its timeout is an error naming it.
 */
export async function readExports(o: ExportOptions): Promise<{ values: Record<string, AnyJSON> | undefined } | Pending> {
  const list = o.exports?.exports ?? [];
  if (list.length === 0) return { values: undefined };
  const values: Record<string, AnyJSON> = {};
  const interests: WatchInterest[] = [];
  const missing: string[] = [];
  let recheckInMs: number | undefined;
  for (const e of list) {
    const r = await readExport(o.client, e, interests);
    if ('value' in r) {
      values[e.key] = r.value;
      continue;
    }
    const timeoutMs = parseTimeoutMs(e.timeout ?? o.exports?.defaultTimeout, '5m');
    if (timeoutMs !== undefined && o.waitedMs >= timeoutMs) {
      throw new LandscaperError('ReadExports', 'ExportTimeout', `export "${e.key}" not available after ${Math.round(timeoutMs / 1000)} s: ${r.waiting}`);
    }
    missing.push(`export "${e.key}": ${r.waiting}`);
    if (timeoutMs !== undefined) recheckInMs = Math.min(recheckInMs ?? Infinity, timeoutMs - o.waitedMs);
  }
  if (missing.length === 0) return { values };
  return { waiting: missing.join('; '), interests, ...(recheckInMs !== undefined ? { recheckInMs } : {}) };
}
