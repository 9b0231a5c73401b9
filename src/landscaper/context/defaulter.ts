// The context defaulter (upstream's pkg/landscaper/controllers/context): every namespace gets the Context
// "default", so that a standalone Execution or DeployItem finds it as well as an Installation does. It runs on
// namespace events, and on the deletion of a default Context, which it puts back while the namespace lives.
import type { KubeObject } from '../../apimachinery/object.ts';
import { namespacesResource } from '../../apimachinery/builtin-resources.ts';
import type { KubeClient } from '../../client/client.ts';
import type { Action, Controller, Informer, Manager, ReconcileContext } from '../../runtime/index.ts';
import { action } from '../../runtime/index.ts';
import { DEFAULT_CONTEXT_NAME } from '../api/constants.ts';
import type { Context } from '../api/context.ts';
import { contextsResource } from '../api/resources.ts';
import { ensureDefaultContext } from './default-context.ts';

interface DefaulterData {
  client: KubeClient;
  contexts: Informer<Context>;
}

export function registerContextDefaulter(mgr: Manager): Controller<KubeObject, DefaulterData> {
  const contexts = mgr.informer<Context>(contextsResource);
  // A manager restricted to one namespace looks after that one only.
  const filter = mgr.namespace !== undefined ? { fieldSelector: `metadata.name=${mgr.namespace}` } : {};
  return mgr
    .controller<KubeObject, DefaulterData>({
      name: 'landscaper-context-defaulter',
      for: namespacesResource,
      filter,
      data: { client: mgr.client, contexts },
      reconcile: reconcileDefaultContext,
    })
    .watches(contexts, (c) => (c.metadata.name === DEFAULT_CONTEXT_NAME && c.metadata.namespace ? [c.metadata.namespace] : []), {
      predicates: [(e) => e.type === 'deleted'],
    });
}

async function reconcileDefaultContext(ns: KubeObject, ctx: ReconcileContext<DefaulterData>): Promise<Action> {
  const name = ns.metadata.name ?? '';
  if (ns.metadata.deletionTimestamp !== undefined) return action.awaitChange();
  if (ctx.data.contexts.store.get(`${name}/${DEFAULT_CONTEXT_NAME}`) !== undefined) return action.awaitChange();
  await ensureDefaultContext(ctx.data.client, name, ctx.signal);
  return action.awaitChange();
}
