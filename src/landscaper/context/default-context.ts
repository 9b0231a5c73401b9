// The Context named "default" that every namespace has (upstream's context defaulter): installations and
// deploy items without spec.context use it. One function creates it for the defaulter and for an installation
// that came first (one applied together with its namespace may be reconciled before the namespace is).
import { AlreadyExistsError, ForbiddenError } from '../../client/errors.ts';
import type { KubeClient } from '../../client/client.ts';
import { DEFAULT_CONTEXT_NAME, LANDSCAPER_GROUP } from '../api/constants.ts';
import type { Context } from '../api/context.ts';
import { contextsResource } from '../api/resources.ts';

/**
 * Creates the default Context in `namespace` unless it exists. Undefined when the namespace is being deleted
 * (the API server refuses new content there; a namespace on its way out gets no new Context).
 */
export async function ensureDefaultContext(client: KubeClient, namespace: string, signal?: AbortSignal): Promise<Context | undefined> {
  const ctx: Context = { apiVersion: `${LANDSCAPER_GROUP}/v1alpha1`, kind: 'Context', metadata: { name: DEFAULT_CONTEXT_NAME, namespace } };
  try {
    return await client.create<Context>(contextsResource, ctx, signal ? { signal } : {});
  } catch (err) {
    if (err instanceof AlreadyExistsError) return await client.get<Context>(contextsResource, DEFAULT_CONTEXT_NAME, { namespace, ...(signal ? { signal } : {}) });
    if (err instanceof ForbiddenError && isNamespaceTerminating(err)) return undefined;
    throw err;
  }
}

/** kube-apiserver's NamespaceLifecycle admission names the cause (StatusCause type, JSON "reason"). */
function isNamespaceTerminating(err: ForbiddenError): boolean {
  return (err.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}
