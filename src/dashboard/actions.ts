// A button pressed on the page: the server rebuilds the view from the cluster, finds the node and the action it
// offers now, and writes it with the dashboard's own credentials. The page names a node and an action, never an
// object or a patch, so it can do nothing the view does not offer.
import type { KubeClient } from '../client/client.ts';
import { findDashboardNode, type DashboardView } from '../runtime/view/dashboard-view.ts';
import { loadSnapshot } from '../runtime/view/snapshot.ts';

export interface ActionRequest {
  namespace: string;
  node: string;
  action: string;
}

export class ActionError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function parseActionRequest(body: unknown): ActionRequest {
  const fields = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  const { namespace, node, action } = fields;
  if (typeof namespace !== 'string' || typeof node !== 'string' || typeof action !== 'string') {
    throw new ActionError(400, 'an action needs namespace, node and action (strings)');
  }
  return { namespace, node, action };
}

export async function runAction(client: KubeClient, view: DashboardView, request: ActionRequest): Promise<string> {
  const roots = view.build(request.namespace, await loadSnapshot(client, request.namespace, view.resources));
  const node = findDashboardNode(roots, request.node);
  if (!node) throw new ActionError(404, `${request.node} is not in the ${view.name} view of namespace ${request.namespace}`);
  const action = node.actions?.find((a) => a.name === request.action);
  if (!action || !node.resource) throw new ActionError(404, `${node.kind} ${node.name} offers no action ${request.action}`);
  await client.patch(node.resource, node.name, { metadata: { annotations: action.annotations } }, { type: 'merge', namespace: node.namespace });
  if (action.thenDelete) await client.delete(node.resource, node.name, { namespace: node.namespace });
  return `${action.label}: ${node.kind} ${node.namespace}/${node.name}`;
}
