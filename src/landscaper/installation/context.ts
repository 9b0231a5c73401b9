// The installation's Context (spec.context, default "default"). Upstream's context controller creates a
// "default" Context in every namespace; here it is created when an installation first needs it. Any
// other missing Context, or one being deleted, fails the job, naming it.
import { AlreadyExistsError } from '../../client/errors.ts';
import { DEFAULT_CONTEXT_NAME } from '../api/constants.ts';
import type { Context } from '../api/context.ts';
import type { Installation } from '../api/installation.ts';
import { fatalError } from './errors.ts';
import { contextName, getOrUndefined, namespaceOf } from './helpers.ts';
import { contextsResource } from '../api/resources.ts';
import type { Deps } from './types.ts';

export async function resolveContext(deps: Deps, inst: Installation, operation: string): Promise<Context> {
  const ns = namespaceOf(inst);
  const name = contextName(inst);
  const found = await getOrUndefined<Context>(deps, contextsResource, ns, name);
  if (found?.metadata.deletionTimestamp !== undefined) {
    // Kept only by its in-use finalizer, for the uninstall of the deploy items that use it: no new work.
    throw fatalError(operation, 'ContextBeingDeleted', `Context ${JSON.stringify(name)} in namespace ${ns} is being deleted (it stays until no deploy item uses it): create a new one or change spec.context`);
  }
  if (found !== undefined) return found;
  if (name !== DEFAULT_CONTEXT_NAME) {
    throw fatalError(operation, 'ContextNotFound', `Context ${JSON.stringify(name)} not found in namespace ${ns}: create it or change spec.context`);
  }
  const ctx: Context = { apiVersion: 'landscaper.gardener.cloud/v1alpha1', kind: 'Context', metadata: { name, namespace: ns } };
  try {
    return await deps.client.create<Context>(contextsResource, ctx);
  } catch (err) {
    if (err instanceof AlreadyExistsError) return ctx;
    throw err;
  }
}
