// The installation's Context (spec.context, default "default"). The context defaulter creates "default" in
// every namespace; an installation applied together with its namespace may come first and creates it then.
// Any other missing Context, or one being deleted, fails the job, naming it.
import { DEFAULT_CONTEXT_NAME } from '../api/constants.ts';
import type { Context } from '../api/context.ts';
import type { Installation } from '../api/installation.ts';
import { ensureDefaultContext } from '../context/index.ts';
import { contextName, getFresh, namespaceOf } from './helpers.ts';
import { contextsResource } from '../api/resources.ts';
import type { Deps } from './types.ts';
import { ConfigurationError } from '../ls-error.ts';

export async function resolveContext(deps: Deps, inst: Installation, operation: string): Promise<Context> {
  const ns = namespaceOf(inst);
  const name = contextName(inst);
  const found = await getFresh<Context>(deps, deps.contexts, contextsResource, ns, name);
  if (found?.metadata.deletionTimestamp !== undefined) {
    // Kept only by its in-use finalizer, for the uninstall of the deploy items that use it: no new work.
    throw new ConfigurationError(operation, 'ContextBeingDeleted', `Context ${JSON.stringify(name)} in namespace ${ns} is being deleted (it stays until no deploy item uses it): create a new one or change spec.context`);
  }
  if (found !== undefined) return found;
  const created = name === DEFAULT_CONTEXT_NAME ? await ensureDefaultContext(deps.client, ns) : undefined;
  if (created === undefined) {
    throw new ConfigurationError(operation, 'ContextNotFound', `Context ${JSON.stringify(name)} not found in namespace ${ns}: create it or change spec.context`);
  }
  return created;
}
