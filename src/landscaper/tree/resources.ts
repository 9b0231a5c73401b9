// What a Landscaper tree is built from: three namespaced lists, loaded once or kept live by the runtime's snapshot.
import type { SnapshotResources } from '../../runtime/index.ts';
import { deployItemsResource, executionsResource, installationsResource } from '../api/resources.ts';

export const treeResources: SnapshotResources<'installations' | 'executions' | 'deployItems'> = {
  installations: installationsResource,
  executions: executionsResource,
  deployItems: deployItemsResource,
};
