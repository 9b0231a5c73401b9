// One-shot loading: three namespaced lists (installations, executions, deploy items) → the tree.
import type { KubeClient } from '../../client/client.ts';
import type { DeployItem } from '../api/deploy-item.ts';
import type { Execution } from '../api/execution.ts';
import type { Installation } from '../api/installation.ts';
import { buildTree, type TreeObjects } from './build.ts';
import type { TreeModel } from './model.ts';
import { deployItemsResource, executionsResource, installationsResource } from '../api/resources.ts';

export async function loadObjects(client: KubeClient, namespace: string, signal?: AbortSignal): Promise<TreeObjects> {
  const opts = { namespace, ...(signal ? { signal } : {}) };
  const [installations, executions, deployItems] = await Promise.all([
    client.list<Installation>(installationsResource, opts),
    client.list<Execution>(executionsResource, opts),
    client.list<DeployItem>(deployItemsResource, opts),
  ]);
  return { installations: installations.items, executions: executions.items, deployItems: deployItems.items };
}

export async function loadTree(client: KubeClient, namespace: string, name: string, signal?: AbortSignal): Promise<TreeModel> {
  return buildTree(namespace, name, await loadObjects(client, namespace, signal));
}
