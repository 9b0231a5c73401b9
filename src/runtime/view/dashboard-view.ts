// A family's view in the web dashboard: what it reads (a snapshot's resources, kept live by informers) and the
// trees it builds from them. The nodes are plain data the page draws the same way for every family, so a family
// adds a view without touching the dashboard or the others (as `bosun tree` builds its text from its own model).
import type { ResourceRef } from '../../apimachinery/resource-ref.ts';
import type { Snapshot, SnapshotResources } from './snapshot.ts';

/** How a node is coloured: the phase of any kind mapped onto what a reader looks for. */
export type DashboardState = 'succeeded' | 'progressing' | 'failed' | 'waiting' | 'deleting' | 'unknown';

export interface DashboardNote {
  label: string;
  tone: 'error' | 'wait' | 'info';
  text: string;
}

/**
 * A button on a node: annotations written onto its object (merge patch), then optionally its deletion. The
 * server only runs actions the view's current build offers on that node, so a page cannot reach other objects.
 */
export interface DashboardAction {
  name: string;
  label: string;
  /** Asked before anything is written. */
  confirm: string;
  annotations: Readonly<Record<string, string>>;
  thenDelete?: boolean;
}

export interface DashboardNode {
  /** Unique within the view: kind/namespace/name. */
  id: string;
  kind: string;
  name: string;
  namespace: string;
  /** The object's own word for its state (a phase, a pod status). */
  phase?: string;
  state: DashboardState;
  /** RFC 3339; the page ticks the duration from here (to finishedAt once finished). */
  startedAt?: string;
  finishedAt?: string;
  notes: DashboardNote[];
  /** The object behind the node, for its actions. */
  resource?: ResourceRef;
  actions?: DashboardAction[];
  /** Ids of siblings this node waits for: the page draws such siblings as a DAG, layer by layer. */
  dependsOn?: string[];
  children: DashboardNode[];
}

export interface DashboardView {
  /** In the page's URL: `landscaper`, `workloads`. */
  name: string;
  title: string;
  resources: SnapshotResources<string>;
  /** The roots of the view in `namespace`, from the current objects. */
  build(namespace: string, objects: Snapshot<string>): DashboardNode[];
}

/** The id of an object's node. */
export function dashboardNodeId(kind: string, namespace: string, name: string): string {
  return `${kind}/${namespace}/${name}`;
}

/** The node with `id` among `roots` and their descendants. */
export function findDashboardNode(roots: readonly DashboardNode[], id: string): DashboardNode | undefined {
  for (const node of roots) {
    if (node.id === id) return node;
    const found = findDashboardNode(node.children, id);
    if (found) return found;
  }
  return undefined;
}
