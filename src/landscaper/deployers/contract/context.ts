// The deploy item's Context (upstream lib getContext): spec.context, default "default", in the item's namespace.
import { NotFoundError } from '../../../client/errors.ts';
import { DEFAULT_CONTEXT_NAME } from '../../api/constants.ts';
import type { Context } from '../../api/context.ts';
import type { DeployItem } from '../../api/deploy-item.ts';
import type { Library } from './library.ts';
import { contextsResource } from '../../api/resources.ts';
import { ConfigurationError } from '../../ls-error.ts';

/** The item's Context; undefined when it is missing and the library does not require one. */
export async function getContext(lib: Library, item: DeployItem, signal?: AbortSignal): Promise<Context | undefined> {
  const name = item.spec.context || DEFAULT_CONTEXT_NAME;
  const namespace = item.metadata.namespace ?? '';
  const cached = lib.contexts.hasSynced() ? lib.contexts.store.get(`${namespace}/${name}`) : undefined;
  if (cached) return cached;
  try {
    return await lib.client.get<Context>(contextsResource, name, { namespace, ...(signal ? { signal } : {}) });
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
    if (!lib.requireContext) return undefined;
    // Upstream requeues forever here (issue #875); a missing Context is a configuration problem the user must see.
    throw new ConfigurationError('Reconcile', 'ContextNotFound', `context ${namespace}/${name} of deploy item ${namespace}/${item.metadata.name} not found`, undefined, { cause: err });
  }
}
