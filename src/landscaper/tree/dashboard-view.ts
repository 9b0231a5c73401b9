// Landscaper in the web dashboard: every top-level installation of the namespace with its subinstallations,
// execution and deploy items, built from the same model as `bosun tree installations`.
import { dashboardNodeId, type DashboardNode, type DashboardState, type DashboardView } from '../../runtime/index.ts';
import { DELETE_WITHOUT_UNINSTALL_ANNOTATION, OPERATION_ANNOTATION } from '../api/constants.ts';
import { installationsResource } from '../api/resources.ts';
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

/** Upstream's operation annotations on an installation, as buttons. */
const installationActions: DashboardNode['actions'] = [
  { name: 'reconcile', label: 'Reconcile', confirm: 'Start a new job for this installation?', annotations: { [OPERATION_ANNOTATION]: 'reconcile' } },
  { name: 'interrupt', label: 'Interrupt', confirm: 'Interrupt the running job? Its unfinished deploy items fail.', annotations: { [OPERATION_ANNOTATION]: 'interrupt' } },
  {
    name: 'delete-without-uninstall',
    label: 'Delete without uninstall',
    confirm: 'Delete this installation and everything under it WITHOUT uninstalling what the deployers deployed?',
    annotations: { [DELETE_WITHOUT_UNINSTALL_ANNOTATION]: 'true' },
    thenDelete: true,
  },
];

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
    ...(node.kind === 'Installation' ? { resource: installationsResource, actions: installationActions } : {}),
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
