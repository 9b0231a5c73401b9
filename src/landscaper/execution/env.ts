// What the execution phases work with: the client, the shared DeployItem cache with read-your-writes,
// the event recorder and a clock.
import { objectKey } from '../../apimachinery/object.ts';
import type { KubeClient } from '../../client/client.ts';
import { NotFoundError } from '../../client/errors.ts';
import type { EventRecorder, Informer, ReadYourWrites, StatusWriter } from '../../runtime/index.ts';
import { EXECUTION_MANAGED_BY_LABEL } from '../api/constants.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import { deployItemsResource } from '../api/resources.ts';
import type { ProgressMemos } from './progress-memo.ts';

/** Index of the DeployItem cache: "<namespace>/<managing execution>". */
export const MANAGED_BY_INDEX = 'landscaper.execution.managedBy';

export function managedByIndexValue(di: DeployItem): string | undefined {
  const exec = di.metadata.labels?.[EXECUTION_MANAGED_BY_LABEL];
  return exec ? objectKey(di.metadata.namespace, exec) : undefined;
}

export interface ExecutionEnv {
  client: KubeClient;
  deployItemInformer: Informer<DeployItem>;
  deployItemWrites: ReadYourWrites<DeployItem>;
  /** Status writes on deploy items (trigger, interrupt), recorded in deployItemWrites. */
  deployItemStatus: StatusWriter<DeployItem>;
  executionWrites: ReadYourWrites<Execution>;
  recorder: EventRecorder;
  now(): Date;
  /** Parallel writes when creating or triggering many deploy items. */
  writeConcurrency: number;
  /** What each execution in Progressing waits for (./progress-memo.ts). */
  progressMemos: ProgressMemos;
}

/** The freshest cached view of a deploy item, or undefined when the cache does not have it. */
export function cachedDeployItem(env: ExecutionEnv, namespace: string | undefined, name: string): DeployItem | undefined {
  const key = objectKey(namespace, name);
  const cached = env.deployItemInformer.store.get(key);
  return cached ? env.deployItemWrites.resolve(cached) : env.deployItemWrites.pending(key);
}

/**
 * A deploy item the execution expects to exist: from the cache, or from the server when the cache
 * has none (it may lag a create). undefined only when the server says it is gone.
 */
export async function expectedDeployItem(env: ExecutionEnv, namespace: string | undefined, name: string): Promise<DeployItem | undefined> {
  const cached = env.deployItemInformer.store.get(objectKey(namespace, name));
  if (cached) return env.deployItemWrites.resolve(cached);
  try {
    return await env.client.get<DeployItem>(deployItemsResource, name, namespace !== undefined ? { namespace } : {});
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** The cached deploy items managed by an execution (label execution.landscaper.gardener.cloud/managed-by). */
export function cachedManagedDeployItems(env: ExecutionEnv, exec: Execution): DeployItem[] {
  const value = objectKey(exec.metadata.namespace, exec.metadata.name ?? '');
  return env.deployItemInformer.store.byIndex(MANAGED_BY_INDEX, value).map((di) => env.deployItemWrites.resolve(di));
}

/** The managed deploy items as the server has them (one list call; used where a stale view would hurt). */
export async function listManagedDeployItems(env: ExecutionEnv, exec: Execution): Promise<DeployItem[]> {
  const list = await env.client.list<DeployItem>(deployItemsResource, {
    ...(exec.metadata.namespace !== undefined ? { namespace: exec.metadata.namespace } : {}),
    labelSelector: `${EXECUTION_MANAGED_BY_LABEL}=${exec.metadata.name ?? ''}`,
  });
  return list.items;
}
