// Landscaper in the web dashboard: every top-level installation of the namespace with its subinstallations,
// execution and deploy items, built from the same model as `bosun tree installations`.
import { dashboardNodeId, type DashboardNode, type DashboardState, type DashboardView } from '../../runtime/index.ts';
import { buildForest, type TreeObjects } from './build.ts';
import type { TreeNode } from './model.ts';
import { treeResources } from './resources.ts';

function stateOf(node: TreeNode): DashboardState {
  if (node.deleting) return 'deleting';
  if (!node.phase) return 'unknown';
  if (node.phase.includes('Failed')) return 'failed';
  if (node.phase === 'Succeeded') return 'succeeded';
  if (node.waitingFor) return 'waiting';
  return 'progressing';
}

function dashboardNode(node: TreeNode): DashboardNode {
  const notes: DashboardNode['notes'] = [];
  if (node.waitingFor) notes.push({ label: 'waiting for', tone: 'wait', text: node.waitingFor });
  if (node.lastError && !node.waitingFor) notes.push({ label: node.lastError.operation ?? 'error', tone: 'error', text: node.lastError.message });
  if (node.type) notes.push({ label: 'type', tone: 'info', text: node.type });
  return {
    id: dashboardNodeId(node.kind, node.namespace, node.name),
    kind: node.kind,
    name: node.name,
    namespace: node.namespace,
    ...(node.phase ? { phase: node.phase } : {}),
    state: stateOf(node),
    ...(node.startedAt ?? node.phaseChangedAt ? { startedAt: node.startedAt ?? node.phaseChangedAt } : {}),
    ...(node.finishedAt ? { finishedAt: node.finishedAt } : {}),
    notes,
    ...(node.dependsOn ? { dependsOn: node.dependsOn.map((name) => dashboardNodeId('DeployItem', node.namespace, name)) } : {}),
    children: node.children.map(dashboardNode),
  };
}

export const landscaperDashboardView: DashboardView = {
  name: 'landscaper',
  title: 'Installations',
  resources: treeResources,
  build: (namespace, objects) => buildForest(namespace, objects as unknown as TreeObjects).roots.map(dashboardNode),
};
