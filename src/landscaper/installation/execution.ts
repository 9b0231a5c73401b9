// Ensuring the Execution (installations/executions/operation.go): named like the installation, with the
// rendered deploy item templates, the installation's context, the finalizer and a controller reference.
// Like upstream's MarshalJSON, the list is written gzipped into spec.deployItemsCompressed.
import { isDeepStrictEqual } from 'node:util';
import { LANDSCAPER_API_VERSION, LANDSCAPER_FINALIZER, OPERATION_ANNOTATION, OPERATION_FORCE_RECONCILE } from '../api/constants.ts';
import type { DeployItemTemplate, Execution, ExecutionSpec } from '../api/execution.ts';
import { deployItemTemplates, encodeDeployItemsCompressed } from '../api/execution-spec.ts';
import type { Installation } from '../api/installation.ts';
import { contextName, nameOf, namespaceOf, operationOf, ownerRef } from './helpers.ts';
import { executionsResource } from '../api/resources.ts';
import type { Deps } from './types.ts';
import { LandscaperError } from '../ls-error.ts';
import { AlreadyExistsError } from '../../client/errors.ts';
import { execution } from './children.ts';

/**
 * Creates or updates the Execution; returns it, or undefined when there is nothing to deploy and none exists.
 * `existing` may come from the cache, which can lag: a create the server refuses as existing reads the server's
 * and goes on with it. A first job so creates its execution without a GET that can only answer 404.
 */
export async function ensureExecution(deps: Deps, inst: Installation, items: readonly DeployItemTemplate[], existing: Execution | undefined): Promise<Execution | undefined> {
  if (existing === undefined && items.length === 0) return undefined;
  const spec: ExecutionSpec = { context: contextName(inst), deployItemsCompressed: encodeDeployItemsCompressed(items) };
  const force = operationOf(inst) === OPERATION_FORCE_RECONCILE;
  if (existing === undefined) {
    try {
      return await create(deps, inst, spec, force);
    } catch (err) {
      const current = err instanceof AlreadyExistsError ? await execution(deps, inst) : undefined;
      if (current === undefined) throw err;
      return ensureExecution(deps, inst, items, current);
    }
  }
  if (existing.metadata.deletionTimestamp !== undefined) {
    throw new LandscaperError('Init', 'ExecutionBeingDeleted', `execution ${nameOf(existing)} is still being deleted; it is recreated afterwards`);
  }
  const same = existing.spec?.context === spec.context && isDeepStrictEqual(JSON.parse(JSON.stringify(deployItemTemplates(existing.spec))), JSON.parse(JSON.stringify(items)));
  if (same && !force) return existing;
  const annotations = { ...existing.metadata.annotations, ...(force ? { [OPERATION_ANNOTATION]: OPERATION_FORCE_RECONCILE } : {}) };
  const { deployItems: _old, ...rest } = existing.spec ?? {};
  return deps.client.update<Execution>(executionsResource, { ...existing, metadata: { ...existing.metadata, annotations }, spec: { ...rest, ...spec } });
}

function create(deps: Deps, inst: Installation, spec: ExecutionSpec, force: boolean): Promise<Execution> {
  return deps.client.create<Execution>(executionsResource, {
    apiVersion: LANDSCAPER_API_VERSION as Execution['apiVersion'],
    kind: 'Execution',
    metadata: {
      name: nameOf(inst),
      namespace: namespaceOf(inst),
      finalizers: [LANDSCAPER_FINALIZER],
      ownerReferences: [ownerRef(inst, true)],
      ...(force ? { annotations: { [OPERATION_ANNOTATION]: OPERATION_FORCE_RECONCILE } } : {}),
    },
    spec,
  });
}
