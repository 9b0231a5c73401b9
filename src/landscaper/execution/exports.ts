// Phase Completing: the deploy items' exports (Secret, key "config", YAML) go into one DataObject
// { <template name>: <exports> }, named GenerateDataObjectName("Exec.<exec>", ""), owned by the
// execution; status.exportRef points at it and the installation reads it.
import { parse as parseYaml } from 'yaml';
import type { KubeObject } from '../../apimachinery/object.ts';
import { AlreadyExistsError, NotFoundError } from '../../client/errors.ts';
import { messageOf } from '../../runtime/index.ts';
import { DATA_OBJECT_SECRET_DATA_KEY, KIND_DATA_OBJECT, KIND_EXECUTION, LANDSCAPER_API_VERSION } from '../api/constants.ts';
import type { DataObject } from '../api/data-object.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import type { AnyJSON, JSONObject, ObjectReference } from '../api/shared.ts';
import { dataObjectLabels, encodeDataObjectData, executionExportDataObjectName, executionSource } from '../naming.ts';
import type { ExecutionItem } from './classification.ts';
import type { ExecutionEnv } from './env.ts';
import { secretsResource } from '../../apimachinery/builtin-resources.ts';
import { dataObjectsResource } from '../api/resources.ts';
import { ConfigurationError } from '../ls-error.ts';

/** The exports of one deploy item (null when it has none). */
export async function readDeployItemExports(env: ExecutionEnv, di: DeployItem): Promise<AnyJSON> {
  const ref = di.status?.exportRef;
  if (!ref) return null;
  let secret: KubeObject;
  try {
    secret = await env.client.get(secretsResource, ref.name, { namespace: ref.namespace ?? di.metadata.namespace ?? 'default' });
  } catch (err) {
    if (err instanceof NotFoundError) {
      throw new ConfigurationError('CollectExports', 'ExportSecretNotFound', `export Secret ${ref.name} of deploy item ${di.metadata.name ?? ''} does not exist`, undefined, { cause: err });
    }
    throw err;
  }
  const data = (secret['data'] as Record<string, string> | undefined)?.[DATA_OBJECT_SECRET_DATA_KEY];
  if (data === undefined) return null;
  try {
    return (parseYaml(Buffer.from(data, 'base64').toString('utf8')) ?? null) as AnyJSON;
  } catch (err) {
    throw new ConfigurationError('CollectExports', 'InvalidExports', `exports of deploy item ${di.metadata.name ?? ''} are not YAML: ${messageOf(err)}`, undefined, { cause: err });
  }
}

/** Collects every item's exports into the execution's DataObject; returns the reference for status.exportRef. */
export async function collectExports(env: ExecutionEnv, exec: Execution, items: readonly ExecutionItem[]): Promise<ObjectReference> {
  const values: JSONObject = {};
  for (const item of items) values[item.name] = item.deployItem ? await readDeployItemExports(env, item.deployItem) : null;
  const execName = exec.metadata.name ?? '';
  const namespace = exec.metadata.namespace ?? 'default';
  const name = executionExportDataObjectName(execName);
  const source = executionSource(execName);
  const { annotations } = encodeDataObjectData(values);
  const owner = { apiVersion: LANDSCAPER_API_VERSION, kind: KIND_EXECUTION, name: execName, uid: exec.metadata.uid ?? '' };
  const desired: DataObject = {
    apiVersion: LANDSCAPER_API_VERSION,
    kind: KIND_DATA_OBJECT,
    metadata: { name, namespace, labels: dataObjectLabels({ context: source, source }), annotations, ownerReferences: [owner] },
    data: values,
  };
  // A job of an execution that has exported before reads the DataObject first; a first job creates it at once
  // (no GET that can only answer 404) and reads it only if the server says it exists.
  let existing = exec.status?.exportRef !== undefined ? await getDataObject(env, name, namespace) : undefined;
  if (!existing) {
    try {
      await env.client.create<DataObject>(dataObjectsResource, desired);
      return { name, namespace };
    } catch (err) {
      existing = err instanceof AlreadyExistsError ? await getDataObject(env, name, namespace) : undefined;
      if (!existing) throw err;
    }
  }
  const owners = (existing.metadata.ownerReferences ?? []).filter((r) => r.uid !== owner.uid);
  await env.client.update<DataObject>(dataObjectsResource, {
    ...existing,
    metadata: { ...existing.metadata, labels: { ...existing.metadata.labels, ...desired.metadata.labels }, annotations: { ...existing.metadata.annotations, ...annotations }, ownerReferences: [...owners, owner] },
    data: values,
  });
  return { name, namespace };
}

async function getDataObject(env: ExecutionEnv, name: string, namespace: string): Promise<DataObject | undefined> {
  try {
    return await env.client.get<DataObject>(dataObjectsResource, name, { namespace });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    return undefined;
  }
}
